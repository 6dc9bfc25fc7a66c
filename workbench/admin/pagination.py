"""The paginators of the long lists (claims, events, sales): a page's ids first, then
those rows with their joins, and a count that stops at a limit.

The queues are ordered by an index (claim_*_queue, claim_deadline_order), but a page far
down a queue read with its joins (sale, channel, coverage, owner) makes PostgreSQL's
planner trade the index walk for hash joins over whole tables. Reading the page's 50 ids
alone keeps the walk on the index (often index-only); the second query fetches just
those rows. One statement more, whatever the page number.

The count stops at ``ADMIN_LIST_COUNT_LIMIT`` (10,000): a filter on a coverage matches
hundreds of thousands of claims in a large book, and counting them all cost more than
the page itself (a sixth of a second at a million claims). Past the limit the list says
"mais de 10.000 sinistros" and offers the pages up to it; a narrower filter counts
exactly.

A search (``SearchPaginator``) reads the ids of its first ``ADMIN_SEARCH_COUNT_LIMIT``
(1,000) matches in the list's order once, and takes its count and every page from them.
A trigram search builds the bitmap of every match in each statement, which ``LIMIT``
does not shorten (15-17 ms at a million claims for three words of a name or part of a
number): counting and then paging built it twice. And counting a common word to 10,000
read some 80,000 claims (35 ms for "lima"); a search is for finding a claim, so past a
thousand matches the list says "mais de 1.000" and the analyst narrows the search.
"""

from django.conf import settings
from django.contrib.admin import ShowFacets
from django.contrib.admin.views.main import SEARCH_VAR, ChangeList
from django.core.paginator import Paginator
from django.utils.functional import cached_property


class IdsFirstPaginator(Paginator):
    def count_limit(self) -> int:
        return settings.ADMIN_LIST_COUNT_LIMIT

    @cached_property
    def count(self) -> int:
        limit = self.count_limit()
        # A sliced queryset counts in a subquery with LIMIT: at most limit + 1 rows read.
        counted = self.object_list.order_by()[:limit + 1].count()
        self.capped = counted > limit
        return min(counted, limit)

    @property
    def past_limit_words(self) -> str:
        """"mais de 10.000" when the count stopped at the limit, else empty."""
        return f"mais de {self.count:,}".replace(",", ".") if self.count and self.capped else ""

    def page_ids(self, bottom: int, top: int) -> list:
        return list(self.object_list.values_list("pk", flat=True)[bottom:top])

    def page(self, number):
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        ids = self.page_ids(bottom, top)
        rows = self.object_list.model._default_manager.none()
        if ids:
            # The same queryset (its select_related, annotations and filters), narrowed to
            # the page: filtering the ordered, joined queryset keeps what the list shows.
            by_id = {row.pk: row for row in self.object_list.order_by().filter(pk__in=ids)}
            rows = [by_id[pk] for pk in ids if pk in by_id]
        return self._get_page(rows, number, self)


class SearchPaginator(IdsFirstPaginator):
    """A search's count and pages, from one read of its first matches' ids."""

    def count_limit(self) -> int:
        return settings.ADMIN_SEARCH_COUNT_LIMIT

    @cached_property
    def matched_ids(self) -> list:
        # The list's order, so any page up to the limit is a slice of them.
        return list(self.object_list.values_list("pk", flat=True)[:self.count_limit() + 1])

    @cached_property
    def count(self) -> int:
        limit = self.count_limit()
        self.capped = len(self.matched_ids) > limit
        return min(len(self.matched_ids), limit)

    def page_ids(self, bottom: int, top: int) -> list:
        return self.matched_ids[bottom:top]


class LongListChangeList(ChangeList):
    def get_results(self, request):
        super().get_results(request)
        if isinstance(self.paginator, SearchPaginator) and not self.multi_page:
            # Django lists a single page with the whole query again (and its search); the
            # ids are read already: only their rows are left to fetch.
            self.result_list = self.paginator.page(1).object_list


class LongListAdmin:
    """Mixed into the admins of the long lists: capped counts, a page's ids first, and a
    search's matches read once."""

    # A filtered list counts its own rows only, not the whole table as well.
    show_full_result_count = False
    # Nor every filter's every choice ("Mostrar contagem": Django's facets): a count per
    # queue, status, channel, coverage and owner over the whole book, which at a million
    # claims did not answer within two minutes.
    show_facets = ShowFacets.NEVER

    def get_paginator(self, request, queryset, per_page, orphans=0, allow_empty_first_page=True):
        searched = request.GET.get(SEARCH_VAR, "").strip()
        paginator = SearchPaginator if searched else IdsFirstPaginator
        return paginator(queryset, per_page, orphans, allow_empty_first_page)

    def get_changelist(self, request, **kwargs):
        return LongListChangeList
