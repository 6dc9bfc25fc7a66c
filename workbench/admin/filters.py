"""List filters of the claim list, in words an analyst uses."""

import datetime as dt

from django.contrib import admin
from django.db import connection
from django.db.models import Exists, OuterRef
from django.utils import timezone

from workbench import queues
from claims.coverages import coverage_label
from claims.models import Coverage, DocumentRequest
from claims.formatting import person
from claims.permissions import Permission
from workbench.services.assignment import assignable_people
from claims.workflow import OPEN_STATUSES, ClaimStatus


class CoverageFilter(admin.SimpleListFilter):
    """Coverages by name, shown in words (``Morte``, not ``cobertura/morte``)."""

    title = "cobertura"
    parameter_name = "cobertura"
    field = "coverage__name"

    def lookups(self, request, model_admin):
        return [(name, coverage_label(name)) for name in coverage_names()]

    def queryset(self, request, queryset):
        return queryset.filter(**{self.field: self.value()}) if self.value() else queryset


def coverage_names() -> list[str]:
    """The distinct coverage names, in order. There are a handful of names and three or
    so coverages per sale, so ``SELECT DISTINCT`` would read hundreds of thousands of
    rows for a few names. This walks the ``coverage_name`` index instead, one name after
    the other (a "skip scan": one index probe per distinct name), on PostgreSQL and
    SQLite alike."""
    table = connection.ops.quote_name(Coverage._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""WITH RECURSIVE names(name) AS (
                    SELECT MIN(name) FROM {table}
                    UNION ALL
                    SELECT (SELECT MIN(c.name) FROM {table} c WHERE c.name > names.name)
                    FROM names WHERE names.name IS NOT NULL
                ) SELECT name FROM names WHERE name IS NOT NULL"""
        )
        return [name for (name,) in cursor.fetchall()]


class RequirementCoverageFilter(CoverageFilter):
    field = "coverage_name"


class ChannelFilter(admin.RelatedFieldListFilter):
    """The insurer's channels: a partner's sandbox channel is left out, since its claims
    are never in this list (``Claim.objects`` keeps them apart, docs/sandbox.md)."""

    def field_choices(self, field, request, model_admin):
        return field.get_choices(include_blank=False, ordering=("name",),
                                 limit_choices_to={"is_sandbox": False})


class AlertsFilter(admin.SimpleListFilter):
    """Claims with red flags (claims.red_flags), from the flag the services keep."""

    title = "alertas"
    parameter_name = "alertas"

    def lookups(self, request, model_admin):
        return [("sim", "Com alertas"), ("nao", "Sem alertas")]

    def queryset(self, request, queryset):
        if self.value() in ("sim", "nao"):
            return queryset.filter(has_alerts=self.value() == "sim")
        return queryset


class DecisionFilter(admin.SimpleListFilter):
    """Whether the first decision on cover came within the art. 86 deadline
    (``decided_late_days``); the dashboard's late figure links to the last 90 days."""

    title = "decisão (art. 86)"
    parameter_name = "decisao"
    WINDOW_DAYS = 90

    def lookups(self, request, model_admin):
        return [("no-prazo", "Decidido no prazo"), ("com-atraso", "Decidido com atraso"),
                ("com-atraso-90d", "Com atraso, nos últimos 90 dias"),
                ("nao-decidido", "Ainda não decidido")]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "no-prazo":
            return queryset.filter(decided_late_days=0)
        if value == "com-atraso":
            return queryset.filter(decided_late_days__gt=0)
        if value == "com-atraso-90d":
            return queryset.filter(
                decided_late_days__gt=0,
                decided_at__gte=timezone.now() - dt.timedelta(days=self.WINDOW_DAYS))
        if value == "nao-decidido":
            return queryset.filter(decided_at__isnull=True)
        return queryset


class RequirementsFilter(admin.SimpleListFilter):
    """Claims opened with nothing asked: no document configured for their coverage."""

    title = "documentos exigidos"
    parameter_name = "documentos"

    def lookups(self, request, model_admin):
        return [("nenhum", "Sem documentos exigidos")]

    def queryset(self, request, queryset):
        if self.value() != "nenhum":
            return queryset
        return queryset.filter(status=ClaimStatus.CREATED).filter(
            ~Exists(DocumentRequest.objects.filter(claim=OuterRef("pk"))))


class OpenFilter(admin.SimpleListFilter):
    title = "situação"
    parameter_name = "situacao"

    def lookups(self, request, model_admin):
        return [("abertos", "Em aberto"), ("encerrados", "Encerrados")]

    def queryset(self, request, queryset):
        if self.value() == "abertos":
            return queryset.filter(status__in=OPEN_STATUSES)
        if self.value() == "encerrados":
            return queryset.exclude(status__in=OPEN_STATUSES)
        return queryset


class DeadlineFilter(admin.SimpleListFilter):
    """The regulatory clock (see claims.regulatory_clock): overdue, due within 5 days,
    suspended."""

    title = "prazo regulatório"
    parameter_name = "prazo"

    def lookups(self, request, model_admin):
        return [
            ("vencido", "Prazo vencido"),
            ("5dias", "Vence em 5 dias"),
            ("suspenso", "Prazo suspenso"),
            ("correndo", "Prazo correndo"),
        ]

    def queryset(self, request, queryset):
        # A deadline's whole local day counts (claims.regulatory_clock): overdue from
        # the next local midnight; "within 5 days" is today and the 5 days after.
        today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
        if self.value() == "vencido":
            return queryset.filter(clock_deadline__lt=today)
        if self.value() == "5dias":
            return queryset.filter(clock_deadline__gte=today,
                                   clock_deadline__lt=today + dt.timedelta(days=6))
        if self.value() == "suspenso":
            return queryset.filter(clock_paused=True)
        if self.value() == "correndo":
            return queryset.filter(clock_deadline__isnull=False)
        return queryset


def queue_shown(request) -> str:
    """The queue the claim list shows for this request (see QueueFilter)."""
    chosen = request.GET.get(QueueFilter.parameter_name)
    if chosen in queues.QUEUE_LABELS:
        return chosen
    # One analyst's queue, or a search: every claim (a search finds a claim wherever it
    # is queued; the queue narrows it only when chosen).
    if OwnerFilter.parameter_name in request.GET or request.GET.get("q", "").strip():
        return queues.ALL
    return queues.default_queue(request.user)


class QueueFilter(admin.SimpleListFilter):
    """The queues (workbench.queues). With no choice made, a person lands on their default
    queue (analysts: Meus sinistros); "Todos os sinistros" is an explicit choice, so
    the list never falls back to the default by dropping a parameter. Choosing one
    analyst's queue (OwnerFilter) shows all of theirs."""

    title = "fila"
    parameter_name = "fila"

    def __init__(self, request, params, model, model_admin):
        self.request = request
        super().__init__(request, params, model, model_admin)

    def lookups(self, request, model_admin):
        return list(queues.QUEUE_LABELS.items())

    def value(self):
        return queue_shown(self.request)

    def choices(self, changelist):
        current = self.value()
        for value, label in self.lookup_choices:
            yield {"selected": current == value, "display": label,
                   "query_string": changelist.get_query_string({self.parameter_name: value})}

    def queryset(self, request, queryset):
        # Always applied (a queue is always shown): the list, its search, its export and
        # its bulk actions hold the queue's claims only, never a sandbox claim (the claim
        # page reads through selectors.claim_for_analyst, which leaves them out too).
        return queryset.filter(queues.queue_filter(self.value(), request.user))


class OwnerFilter(admin.SimpleListFilter):
    """Any analyst's queue: supervisors only (the list is not shown to others)."""

    title = "responsável"
    parameter_name = "responsavel"

    def lookups(self, request, model_admin):
        if not request.user.has_perm(Permission.ASSIGN_CLAIM.perm):
            return []
        return [("nenhum", "Sem responsável"),
                *[(str(user.pk), person(user)) for user in assignable_people()]]

    def queryset(self, request, queryset):
        if self.value() == "nenhum":
            return queryset.filter(owner__isnull=True, status__in=OPEN_STATUSES)
        if self.value() and self.value().isdigit():
            return queryset.filter(queues.owned_by(int(self.value())))
        return queryset
