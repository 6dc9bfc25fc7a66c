"""The paginator of the long lists (claims, events, sales): a page's ids first, then those rows
with their joins, and a count that stops at a limit.

The queues are ordered by an index (claim_*_queue, claim_deadline_order), but a page far
down a queue read with its joins (sale, channel, coverage, owner) makes PostgreSQL's
planner trade the index walk for hash joins over whole tables. Reading the page's 50 ids
alone keeps the walk on the index (often index-only); the second query fetches just
those rows. One statement more, whatever the page number.

The count stops at ``ADMIN_LIST_COUNT_LIMIT`` (10,000): a search for a common surname
or a filter on a coverage matches hundreds of thousands of claims in a large book, and
counting them all cost more than the page itself (a sixth of a second at a million
claims). Past the limit the list says "mais de 10.000 sinistros" and offers the pages
up to it; a narrower filter counts exactly.
"""

from django.conf import settings
from django.core.paginator import Paginator
from django.utils.functional import cached_property


class IdsFirstPaginator(Paginator):
    @cached_property
    def count(self) -> int:
        limit = settings.ADMIN_LIST_COUNT_LIMIT
        # A sliced queryset counts in a subquery with LIMIT: at most limit + 1 rows read.
        counted = self.object_list.order_by()[:limit + 1].count()
        self.capped = counted > limit
        return min(counted, limit)

    @property
    def past_limit_words(self) -> str:
        """"mais de 10.000" when the count stopped at the limit, else empty."""
        return f"mais de {self.count:,}".replace(",", ".") if self.count and self.capped else ""

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
