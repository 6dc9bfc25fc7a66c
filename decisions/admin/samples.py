""""Amostras": the reviewers' queue of sampled automatic approvals (supervisors who
review samples). Pending first, by the time their payment is held until; each opens a
review page with "Confirmar" (``reviews.confirm``: the orders go) and "Reverter"
(``reviews.reverse``, a reason required: the payments are cancelled before they leave)."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, IntegerField, Value, When
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from claims.formatting import brl
from decisions.admin.common import REVIEW, claim_link, explained, run, when
from decisions.models import SampleReview
from decisions.services import reviews


class WhyFilter(admin.SimpleListFilter):
    # Not the field's own filter: Django titles it "Por por quê".
    title = "motivo da amostra"
    parameter_name = "motivo"

    def lookups(self, request, model_admin):
        return SampleReview.Why.choices

    def queryset(self, request, queryset):
        return queryset.filter(why=self.value()) if self.value() else queryset


@admin.register(SampleReview)
class SampleReviewAdmin(admin.ModelAdmin):
    list_display = ["claim", "why_words", "amount", "reasons", "held_until", "status", "review"]
    list_filter = ["status", WhyFilter]
    list_select_related = ["evaluation__claim", "evaluation__version__rule_set", "reviewer"]
    search_fields = ["=evaluation__claim__number"]
    search_help_text = "Número do sinistro."
    actions = None

    class Media:
        css = {"all": ["decisions/decisions.css"]}

    def has_module_permission(self, request):
        return request.user.has_perm(REVIEW)

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm(REVIEW)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_ordering(self, request):
        # Pending first, the soonest to be paid first.
        pending_first = Case(When(status=SampleReview.Status.PENDING, then=Value(0)),
                             default=Value(1), output_field=IntegerField())
        return [pending_first, "due_at", "id"]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {"title": "Amostras de decisões automáticas",
                                                 **(extra_context or {})})

    @admin.display(description="sinistro", ordering="evaluation__claim__number")
    def claim(self, obj):
        return claim_link(obj.evaluation.claim)

    @admin.display(description="por que na amostra", ordering="why")
    def why_words(self, obj):
        return obj.get_why_display()

    @admin.display(description="valor", ordering="evaluation__planned_amount")
    def amount(self, obj):
        return format_html('<span class="money">{}</span>', brl(obj.evaluation.planned_amount))

    @admin.display(description="motivos das regras")
    def reasons(self, obj):
        return format_html_join("", "<div>{}</div>", ((r,) for r in obj.evaluation.reasons))

    @admin.display(description="retido até", ordering="due_at")
    def held_until(self, obj):
        return when(obj.due_at)

    @admin.display(description="revisão")
    def review(self, obj):
        if obj.status != SampleReview.Status.PENDING:
            who = obj.reviewer.get_full_name() or obj.reviewer.username if obj.reviewer else ""
            return f"{who}, {when(obj.decided_at)}" if who else when(obj.decided_at)
        return format_html('<a class="button nowrap" href="{}">Revisar</a>',
                           reverse("admin:decisions_sample_review", args=[obj.pk]))

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:sample_id>/revisar/", wrap(self.review_view), name="decisions_sample_review"),
            path("<int:sample_id>/confirmar/", wrap(self.confirm_view),
                 name="decisions_sample_confirm"),
            path("<int:sample_id>/reverter/", wrap(self.reverse_view),
                 name="decisions_sample_reverse"),
            *super().get_urls(),
        ]

    def _sample(self, request, sample_id) -> SampleReview:
        if not request.user.has_perm(REVIEW):
            raise PermissionDenied
        return get_object_or_404(SampleReview.objects.select_related(
            "evaluation__claim", "evaluation__version__rule_set", "reviewer"), pk=sample_id)

    def review_view(self, request, sample_id):
        sample = self._sample(request, sample_id)
        return TemplateResponse(request, "admin/decisions/samplereview/review.html", {
            **self.admin_site.each_context(request), "opts": self.opts,
            "title": f"Amostra do sinistro {sample.evaluation.claim.number}",
            "sample": sample, "evaluation": sample.evaluation,
            "explained": explained(sample.evaluation),
            "held_until": when(sample.due_at), "amount": brl(sample.evaluation.planned_amount),
        })

    def _queue(self) -> str:
        return reverse("admin:decisions_samplereview_changelist")

    def confirm_view(self, request, sample_id):
        sample = self._sample(request, sample_id)
        return run(request, self._queue(),
                   lambda: reviews.confirm(sample_id=sample.pk, user=request.user,
                                           note=request.POST.get("note", "")),
                   f"Amostra do sinistro {sample.evaluation.claim.number} confirmada: "
                   "o pagamento segue na próxima remessa.")

    def reverse_view(self, request, sample_id):
        sample = self._sample(request, sample_id)
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        note = request.POST.get("note", "")
        if not note.strip():
            messages.error(request, "Diga por que a decisão automática é revertida.")
            return HttpResponseRedirect(reverse("admin:decisions_sample_review", args=[sample.pk]))
        return run(request, self._queue(),
                   lambda: reviews.reverse(sample_id=sample.pk, user=request.user, note=note),
                   f"Amostra do sinistro {sample.evaluation.claim.number} revertida: os "
                   "pagamentos foram cancelados e o sinistro volta a uma pessoa.")
