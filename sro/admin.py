"""The SRO in the admin: "Registros SRO" (every submission, filtered by where it stands,
with a retry after a correction and a rectification), the batches as sent, and each
coverage's SUSEP codes, set by the operator."""

import datetime as dt
import json

from django.conf import settings
from django.contrib import admin, messages
from django.http import HttpResponseNotAllowed
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from sro import services
from sro.layout import SroStatus
from sro.models import Batch, CoverageCode, Submission
from sro.overview import RECENT_DAYS, SENT, SENT_LATE, late_filter

# The setting's default: fine for the local registradora, never for SUSEP's.
PLACEHOLDER_INSURER_CODE = "00000"


class SituationFilter(admin.SimpleListFilter):
    title = "situação"
    parameter_name = "situacao"

    def lookups(self, request, model_admin):
        return [("pendente", "Pendente (na fila de envio, atrasados inclusive)"),
                ("atrasado", "Atrasado (passou do prazo)"),
                ("recusado", "Recusado pela registradora"),
                ("incompleto", "Incompleto (sem códigos ou dados)"), ("enviado", "Enviado")]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "atrasado":
            return queryset.filter(late_filter())
        if value in Submission.Status.values:
            return queryset.filter(status=value)
        return queryset


RECENT = f"{RECENT_DAYS}-dias"


class SentLateFilter(admin.SimpleListFilter):
    """Accepted after the deadline day (sro.overview.SENT_LATE), or within it."""

    title = "enviado com atraso"
    parameter_name = "enviado_com_atraso"

    def lookups(self, request, model_admin):
        return [("sim", "Sim (aceito depois do prazo)"),
                (RECENT, f"Sim, com prazo nos últimos {RECENT_DAYS} dias"),
                ("nao", "Não (aceito no prazo)")]

    def queryset(self, request, queryset):
        if self.value() == "sim":
            return queryset.filter(SENT_LATE)
        if self.value() == RECENT:
            # The supervisor's card's figure, the same window.
            today = timezone.localdate()
            return queryset.filter(SENT_LATE, deadline__lte=today, deadline__gte=today
                                   - dt.timedelta(days=RECENT_DAYS - 1))
        if self.value() == "nao":
            return queryset.filter(SENT).exclude(SENT_LATE)
        return queryset


def _pretty(value) -> str:
    return format_html("<pre class=\"json\">{}</pre>",
                       json.dumps(value, ensure_ascii=False, indent=2))


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ["claim_number", "kind_and_sequence", "trigger", "sro_status_words",
                    "deadline_words", "status", "attempts", "why"]
    # The claim's number links to the claim page; the submission opens from its kind.
    list_display_links = ["kind_and_sequence"]
    list_filter = [SituationFilter, SentLateFilter, "kind", "trigger"]
    search_fields = ["registration__claim__number", "batch_id"]
    list_select_related = ["registration__claim"]
    ordering = ["deadline", "id"]
    actions = ["retry", "rectify"]
    readonly_fields = ["claim_number", "kind", "sequence", "trigger", "sro_status_words",
                       "rectification_words", "occurred_at", "deadline", "status", "attempts",
                       "next_try_at", "batch_id", "sent_at", "why", "body_shown",
                       "errors_shown", "created_at"]
    exclude = ["registration", "body", "errors", "missing", "last_error", "sro_status",
               "rectification"]

    def changelist_view(self, request, extra_context=None):
        if not settings.SRO_API_URL:
            messages.warning(request, "Nenhuma registradora configurada (SRO_API_URL vazio): "
                                      "os registros são montados e guardados, mas não enviados.")
        if settings.SUSEP_CODIGO_SEGURADORA == PLACEHOLDER_INSURER_CODE:
            messages.warning(request, "O código SUSEP da seguradora é o de exemplo (00000): "
                                      "defina SUSEP_CODIGO_SEGURADORA.")
        return super().changelist_view(request, {"title": "Registros SRO", **(extra_context or {})})

    @admin.display(description="sinistro", ordering="registration__claim__number")
    def claim_number(self, obj):
        claim = obj.registration.claim
        return format_html('<a href="{}#registro-sro">{}</a>',
                           reverse("admin:claims_claim_change", args=[claim.pk]), claim.number)

    @admin.display(description="envio")
    def kind_and_sequence(self, obj):
        words = obj.get_kind_display() + (f" {obj.sequence}" if obj.sequence else "")
        return words + (" (retificação)" if obj.rectification else "")

    @admin.display(description="status SRO", ordering="sro_status")
    def sro_status_words(self, obj):
        return f"{obj.sro_status} – {SroStatus.LABELS.get(obj.sro_status, '')}"

    @admin.display(description="prazo", ordering="deadline")
    def deadline_words(self, obj):
        day = obj.deadline.strftime("%d/%m/%Y")
        if obj.is_late:
            return format_html('<strong class="overdue">{} (atrasado)</strong>', day)
        if obj.sent_late:
            return f"{day} (enviado fora do prazo)"
        return day

    @admin.display(description="por que aguarda")
    def why(self, obj):
        if obj.status == Submission.Status.INCOMPLETE:
            return " ".join(obj.missing)
        if obj.status == Submission.Status.PENDING and obj.last_error and obj.next_try_at:
            return (f"Tentativa {obj.attempts} falhou: {obj.last_error} Nova tentativa em "
                    f"{timezone.localtime(obj.next_try_at):%d/%m/%Y %H:%M}.")
        return obj.last_error

    @admin.display(description="conteúdo (o que é ou será enviado)")
    def body_shown(self, obj):
        return _pretty(obj.body)

    @admin.display(description="retificação")
    def rectification_words(self, obj):
        return "Sim" if obj.rectification else "Não"

    @admin.display(description="erros da registradora")
    def errors_shown(self, obj):
        return _pretty(obj.errors) if obj.errors else "—"

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # A record, never edited here: the sender writes its status, the actions below
        # rebuild it; a POST would save the form's stale copy over the sender's work.
        if request.method == "POST":
            return HttpResponseNotAllowed(["GET"])
        return super().change_view(request, object_id, form_url, extra_context={
            "title": "Envio ao SRO", **(extra_context or {}), "show_save": False, "show_save_and_continue": False,
            "show_save_and_add_another": False, "show_delete": False})

    @admin.action(description="Reenviar após correção", permissions=["change"])
    def retry(self, request, queryset):
        done = [services.retry(submission_id=pk) for pk in queryset.exclude(
            status=Submission.Status.SENT).values_list("pk", flat=True)]
        still = [s for s in done if s.status == Submission.Status.INCOMPLETE]
        if len(done) > len(still):
            self.message_user(request, f"{len(done) - len(still)} envio(s) de volta à fila.")
        if still:
            self.message_user(request, f"{len(still)} ainda incompleto(s): "
                                       + " ".join(still[0].missing), messages.WARNING)

    @admin.action(description="Retificar o registro do sinistro (com os dados atuais)",
                  permissions=["change"])
    def rectify(self, request, queryset):
        claims = {s.registration.claim for s in queryset.select_related("registration__claim")}
        written = [claim for claim in claims if services.rectify(claim=claim) is not None]
        if written:
            self.message_user(request, "Retificação escrita para " + ", ".join(
                sorted(claim.number for claim in written)) + ".")
        unchanged = len(claims) - len(written)
        if unchanged:
            self.message_user(request, f"{unchanged} sinistro(s) sem retificação: o que a "
                                       "registradora tem já é o que o sinistro diz.",
                              messages.WARNING)


@admin.register(Batch)
class BatchAdmin(admin.ModelAdmin):
    list_display = ["sent_at", "kind", "http_status", "batch_id", "error"]
    list_filter = ["kind", "http_status"]
    readonly_fields = ["sent_at", "kind", "http_status", "batch_id", "error", "body_shown",
                       "answer_shown"]
    exclude = ["body", "answer", "submissions"]

    @admin.display(description="corpo enviado")
    def body_shown(self, obj):
        return _pretty(obj.body)

    @admin.display(description="resposta")
    def answer_shown(self, obj):
        return _pretty(obj.answer) if obj.answer is not None else "—"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(CoverageCode)
class CoverageCodeAdmin(admin.ModelAdmin):
    list_display = ["coverage_name", "group_branch", "coverage_code", "updated_at"]
    search_fields = ["coverage_name"]
