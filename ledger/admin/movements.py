""""Movimentos do livro": the reserve ledger, read only for finance and for everybody
else too (a superuser included): the ledger is append-only, a PostgreSQL trigger refuses
UPDATE and DELETE, and a correction is a move of the claim that writes its own movement.

The list is the long lists' (workbench.admin.pagination): a page's ids first and a
capped count, so a page costs the same at a million movements as at a hundred."""

import datetime as dt

from django.contrib import admin
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from claims.formatting import actor_label, brl
from ledger.admin.common import branch_names, branch_words, is_finance, month_words
from ledger.calendar import first_of_month, next_month, previous_month
from ledger.models import Movement
from sro.models import CoverageCode
from workbench.admin.base import NoWrites
from workbench.admin.pagination import LongListAdmin

# How far back the month filter offers months (older ones: the flash report by date).
FILTER_MONTHS = 24


class FinanceReads(NoWrites):
    """Shown to finance (and superusers) only; nobody adds, changes or deletes."""

    def has_module_permission(self, request):
        return is_finance(request.user)

    def has_view_permission(self, request, obj=None):
        return is_finance(request.user)


class MonthFilter(admin.SimpleListFilter):
    """By accounting month (``booked_on``): the last two years, from the calendar, not
    from a DISTINCT over the whole ledger."""

    title = "mês contábil"
    parameter_name = "mes"

    def lookups(self, request, model_admin):
        month, choices = first_of_month(timezone.localdate()), []
        for _ in range(FILTER_MONTHS):
            choices.append((f"{month:%Y-%m}", month_words(month)))
            month = previous_month(month)
        return choices

    def queryset(self, request, queryset):
        try:
            month = dt.date.fromisoformat(f"{self.value()}-01")
        except (TypeError, ValueError):
            return queryset
        return queryset.filter(booked_on__gte=month, booked_on__lt=next_month(month))


class BranchFilter(admin.SimpleListFilter):
    title = "ramo SUSEP"
    parameter_name = "ramo"
    NONE = "sem-ramo"

    def lookups(self, request, model_admin):
        names = branch_names()
        # The coverages' codes (a small table) and the named ones: never a DISTINCT over
        # the ledger.
        codes = sorted({*CoverageCode.objects.values_list("group_branch", flat=True), *names})
        return [*[(code, branch_words(code, names)) for code in codes],
                (self.NONE, "Sem ramo SUSEP")]

    def queryset(self, request, queryset):
        if self.value() == self.NONE:
            return queryset.filter(group_branch="")
        return queryset.filter(group_branch=self.value()) if self.value() else queryset


class LateFilter(admin.SimpleListFilter):
    title = "lançamento tardio"
    parameter_name = "tardio"

    def lookups(self, request, model_admin):
        return [("sim", "Tardios (fato de mês já fechado)"), ("nao", "No mês do fato")]

    def queryset(self, request, queryset):
        if self.value() in ("sim", "nao"):
            return queryset.filter(late=self.value() == "sim")
        return queryset


@admin.register(Movement)
class MovementAdmin(FinanceReads, LongListAdmin, admin.ModelAdmin):
    # The coverage and the component are on the movement's page (and the component is
    # a filter): at 1280 px the list keeps what finance compares, on one line each.
    list_display = ["booked_on_words", "claim_link", "kind", "branch", "reserve_brl",
                    "paid_brl", "fact_amount_brl", "late_words"]
    list_filter = [("kind", admin.ChoicesFieldListFilter), MonthFilter, BranchFilter,
                   LateFilter, ("component", admin.ChoicesFieldListFilter)]
    search_fields = ["=claim__number"]
    search_help_text = "Número do sinistro, exato."
    list_select_related = ["claim"]
    ordering = ["-booked_on", "-id"]
    list_per_page = 50
    empty_value_display = "—"

    class Media:
        css = {"all": ["ledger/ledger.css"]}

    fieldsets = [
        (None, {"fields": ["claim_link", "channel", "kind", "component", "note",
                           "actor_words"]}),
        ("Valores", {"fields": ["reserve_brl", "paid_brl", "fact_amount_brl"]}),
        ("Datas", {"fields": ["booked_on_words", "late_words", "fact_on", "occurred_on",
                              "notified_on", "created_at"]}),
        ("Cobertura", {"fields": ["coverage_name", "branch", "coverage_code"]}),
        ("Origem", {"fields": ["origin"]}),
    ]

    def get_readonly_fields(self, request, obj=None):
        return [field for _, options in self.fieldsets for field in options["fields"]]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {"title": "Movimentos do livro",
                                                 **(extra_context or {})})

    @admin.display(description="data contábil", ordering="booked_on")
    def booked_on_words(self, obj):
        return obj.booked_on.strftime("%d/%m/%Y")

    @admin.display(description="sinistro", ordering="claim__number")
    def claim_link(self, obj):
        return format_html('<a href="{}" class="nowrap">{}</a>',
                           reverse("admin:claims_claim_change", args=[obj.claim_id]),
                           obj.claim.number)

    @admin.display(description="ramo", ordering="group_branch")
    def branch(self, obj):
        return branch_words(obj.group_branch)

    @admin.display(description="variação da reserva", ordering="reserve")
    def reserve_brl(self, obj):
        return format_html('<span class="money">{}</span>', brl(obj.reserve))

    @admin.display(description="pago", ordering="paid")
    def paid_brl(self, obj):
        return format_html('<span class="money">{}</span>', brl(obj.paid))

    @admin.display(description="valor do fato")
    def fact_amount_brl(self, obj):
        if not obj.fact_amount:
            return "—"
        return format_html('<span class="money">{}</span>', brl(obj.fact_amount))

    @admin.display(description="tardio", ordering="late")
    def late_words(self, obj):
        return "Sim" if obj.late else "Não"

    @admin.display(description="quem ou o quê")
    def actor_words(self, obj):
        return actor_label(obj.actor, None, obj.channel)

    @admin.display(description="o que o escreveu")
    def origin(self, obj):
        """The payment, expense or claim step the movement came from, in words."""
        if obj.payment_id:
            payment = obj.payment
            return f"Pagamento de {brl(payment.amount)} a {payment.beneficiary_name}"
        if obj.expense_id:
            return f"{obj.expense} ({brl(obj.expense.amount)})"
        if obj.history_id:
            return str(obj.history)
        return "—"
