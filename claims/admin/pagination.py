"""The claim list's paginator: a page's ids first, then those rows with their joins.

The queues are ordered by an index (claim_*_queue, claim_deadline_order), but a page far
down a queue read with its joins (sale, channel, coverage, owner) makes PostgreSQL's
planner trade the index walk for hash joins over whole tables. Reading the page's 50 ids
alone keeps the walk on the index (often index-only); the second query fetches just
those rows. One statement more, whatever the page number.
"""

from django.core.paginator import Paginator


class IdsFirstPaginator(Paginator):
    def page(self, number):
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        ids = list(self.object_list.values_list("pk", flat=True)[bottom:top])
        rows = self.object_list.model._default_manager.none()
        if ids:
            # The same queryset (its select_related, annotations and filters), narrowed to
            # the page: filtering the ordered, joined queryset keeps what the list shows.
            by_id = {row.pk: row for row in self.object_list.order_by().filter(pk__in=ids)}
            rows = [by_id[pk] for pk in ids if pk in by_id]
        return self._get_page(rows, number, self)
