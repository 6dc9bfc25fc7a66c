""""Decisões das regras": what the rules decided on each claim state, read only (analysts
and supervisors), with the "Concordância (sombra)" report; and accepting a proposal the
rules could not apply alone (above the automatic limit), from the claim's page."""

import datetime as dt

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html_join

from claims.coverages import coverage_label
from decisions import reports
from decisions.admin.common import WORK_CLAIM, claim_link, explained, run, share_words, when
from decisions.models import Decision, Evaluation, RuleSet
from decisions.services import reviews

AGREEMENT_DAYS = 90
HUMAN_WORDS = {"aprovar": "Pessoas aprovaram", "recusar": "Pessoas recusaram"}


class CoverageFilter(admin.SimpleListFilter):
    title = "cobertura"
    parameter_name = "cobertura"

    def lookups(self, request, model_admin):
        names = sorted(set(RuleSet.objects.values_list("coverage_name", flat=True)))
        return [(name, coverage_label(name)) for name in names]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(version__rule_set__coverage_name=self.value())
        return queryset


class HumanFilter(admin.SimpleListFilter):
    title = "decisão das pessoas"
    parameter_name = "pessoas"

    def lookups(self, request, model_admin):
        return [*HUMAN_WORDS.items(), ("nenhuma", "Pessoas ainda não decidiram")]

    def queryset(self, request, queryset):
        if self.value() == "nenhuma":
            return queryset.filter(human_decision="")
        if self.value():
            return queryset.filter(human_decision=self.value())
        return queryset


@admin.register(Evaluation)
class EvaluationAdmin(admin.ModelAdmin):
    list_display = ["claim_number", "version_words", "decision", "effect", "reasons_words",
                    "human_words", "evaluated_on"]
    list_filter = ["mode", "decision", "effect", HumanFilter, CoverageFilter]
    list_select_related = ["claim", "version__rule_set"]
    search_fields = ["=claim__number"]
    search_help_text = "Número do sinistro."
    change_list_template = "admin/decisions/evaluation/change_list.html"
    actions = None
    fields = ["claim_number", "version_words", "claim_version", "trigger", "mode", "decision",
              "effect", "effect_note", "reasons_words", "readings", "planned", "human_words",
              "human_decided_at", "evaluated_on"]
    readonly_fields = fields

    class Media:
        css = {"all": ["decisions/decisions.css"]}

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="sinistro", ordering="claim__number")
    def claim_number(self, obj):
        return claim_link(obj.claim)

    @admin.display(description="versão", ordering="version__number")
    def version_words(self, obj):
        return f"{obj.version.rule_set.name} v{obj.version.number}"

    @admin.display(description="motivos")
    def reasons_words(self, obj):
        return format_html_join("", "<div>{}</div>", ((line,) for line in explained(obj)))

    @admin.display(description="leituras dos documentos")
    def readings(self, obj):
        return format_html_join("", "<div>{}</div>",
                                ((line,) for line in obj.facts.get("leituras", []))) or "—"

    @admin.display(description="valor que pagariam")
    def planned(self, obj):
        from claims.formatting import brl

        return brl(obj.planned_amount)

    @admin.display(description="decisão das pessoas", ordering="human_decision")
    def human_words(self, obj):
        return HUMAN_WORDS.get(obj.human_decision, "—")

    @admin.display(description="avaliado em", ordering="created_at")
    def evaluated_on(self, obj):
        return when(obj.created_at)

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {"title": "Decisões das regras", **(extra_context or {})})

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("concordancia/", wrap(self.agreement_view), name="decisions_shadow_agreement"),
            path("<int:evaluation_id>/aceitar/", wrap(self.accept_view),
                 name="decisions_evaluation_accept"),
            *super().get_urls(),
        ]

    def agreement_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        since = timezone.now() - dt.timedelta(days=AGREEMENT_DAYS)
        agreement = reports.shadow_agreement(since=since)
        people = ["aprovar", "recusar"]
        table = [(Decision(decision).label, [agreement.table.get(decision, {}).get(p, 0)
                                             for p in people])
                 for decision in Decision.values]
        return TemplateResponse(request, "admin/decisions/evaluation/agreement.html", {
            **self.admin_site.each_context(request), "opts": self.opts,
            "title": "Concordância (sombra)", "agreement": agreement,
            "rate": share_words(agreement.rate), "days": AGREEMENT_DAYS,
            "since": timezone.localdate(since), "columns": [HUMAN_WORDS[p] for p in people],
            "table": table,
        })

    def accept_view(self, request, evaluation_id):
        """"Aceitar a proposta das regras" on the claim page: the rules' approval above
        the automatic limit, done by this person (their own authority applies)."""
        if not request.user.has_perm(WORK_CLAIM):
            raise PermissionDenied
        evaluation = get_object_or_404(Evaluation, pk=evaluation_id)
        return run(request, reverse("admin:claims_claim_change", args=[evaluation.claim_id]),
                   lambda: reviews.accept_proposal(evaluation_id=evaluation.pk, user=request.user),
                   "Proposta das regras aceita: documentação aprovada e pagamentos registrados.")
