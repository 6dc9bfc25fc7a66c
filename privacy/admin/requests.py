"""People's requests (LGPD art. 18) in the admin, for the privacy role only: register
one (the form), the list (status, due date, overdue in red words, an overdue filter),
and the request's page with its answer and the export's downloads. A download is a
reading of every claim in the export (claims.signals.personal_data_read, "exportacao")."""

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from claims.models import Claim
from claims.services.moves import actor_for
from claims.signals import personal_data_read
from privacy.errors import RequestRefused
from privacy.models import DataRequest
from privacy.requests import services
from privacy.requests.card import can_answer


class StateFilter(admin.SimpleListFilter):
    title = "situação do prazo"
    parameter_name = "situacao"

    def lookups(self, request, model_admin):
        return [(services.State.OVERDUE, "Atrasadas"), (services.State.OPEN, "No prazo"),
                (services.State.ANSWERED, "Respondidas")]

    def queryset(self, request, queryset):
        today = timezone.localdate()
        open_ones = queryset.filter(status=DataRequest.Status.OPEN)
        return {services.State.OVERDUE: open_ones.filter(due_on__lt=today),
                services.State.OPEN: open_ones.filter(due_on__gte=today),
                services.State.ANSWERED: queryset.filter(
                    status=DataRequest.Status.ANSWERED)}.get(self.value(), queryset)


class RegisterForm(forms.ModelForm):
    # As typed (with dots and a dash); stored as its 11 digits.
    cpf = forms.CharField(label="CPF do titular", max_length=20)

    class Meta:
        model = DataRequest
        fields = ["cpf", "kind", "origin", "channel", "details", "received_at"]
        help_texts = {"received_at": "Quando o titular pediu (o prazo conta desse dia).",
                      "details": "O pedido nas palavras do titular; numa correção, o que "
                                 "está errado e o dado correto."}

    def clean_cpf(self):
        try:
            return services.clean_cpf(self.cleaned_data["cpf"])
        except RequestRefused as error:
            raise forms.ValidationError(str(error)) from error


@admin.register(DataRequest)
class DataRequestAdmin(admin.ModelAdmin):
    form = RegisterForm
    list_display = ["number", "cpf_masked", "kind", "origin", "received", "due", "state",
                    "answered"]
    list_filter = [StateFilter, "status", "kind", "origin"]
    search_fields = ["=cpf"]
    search_help_text = "CPF do titular (só números)."
    actions = None
    change_form_template = "admin/privacy/datarequest/change_form.html"

    def has_module_permission(self, request):
        return can_answer(request.user)

    def has_view_permission(self, request, obj=None):
        return can_answer(request.user)

    def has_add_permission(self, request):
        return can_answer(request.user)

    def has_change_permission(self, request, obj=None):
        return False  # answered through "Responder", never edited

    def has_delete_permission(self, request, obj=None):
        return False

    def get_search_results(self, request, queryset, search_term):
        digits = "".join(ch for ch in search_term if ch.isdigit())
        return super().get_search_results(request, queryset, digits or search_term)

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        try:
            created = services.register_request(
                cpf=data["cpf"], kind=data["kind"], origin=data["origin"],
                channel=data.get("channel"), details=data.get("details", ""),
                registered_by=actor_for(request.user),
                received_at=data.get("received_at") or None)
        except RequestRefused as error:
            raise PermissionDenied(str(error)) from error
        obj.pk, obj.due_on = created.pk, created.due_on

    def response_add(self, request, obj, post_url_continue=None):
        # The simplified answer (LGPD art. 19, I): at once, on the request's page.
        messages.success(request, f"Requisição nº {obj.pk} registrada. Prazo da resposta "
                                  f"completa: {obj.due_on:%d/%m/%Y}.")
        return HttpResponseRedirect(reverse("admin:privacy_datarequest_change",
                                            args=[obj.pk]))

    @admin.display(description="nº", ordering="id")
    def number(self, obj):
        return obj.pk

    @admin.display(description="CPF", ordering="cpf")
    def cpf_masked(self, obj):
        return f"{obj.cpf[:3]}.{obj.cpf[3:6]}.{obj.cpf[6:9]}-{obj.cpf[9:]}"

    @admin.display(description="recebida em", ordering="received_at")
    def received(self, obj):
        return f"{timezone.localtime(obj.received_at):%d/%m/%Y %H:%M}"

    @admin.display(description="prazo", ordering="due_on")
    def due(self, obj):
        return f"{obj.due_on:%d/%m/%Y}"

    @admin.display(description="situação")
    def state(self, obj):
        state = services.state_of(obj)
        if state == services.State.OVERDUE:
            return format_html('<span class="overdue">Atrasada: prazo vencido em {}</span>',
                               f"{obj.due_on:%d/%m/%Y}")
        return services.state_words(obj)

    @admin.display(description="respondida em", ordering="answered_at")
    def answered(self, obj):
        return f"{timezone.localtime(obj.answered_at):%d/%m/%Y}" if obj.answered_at else "-"

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:request_id>/responder/", wrap(self.answer_view),
                 name="privacy_datarequest_answer"),
            path("<int:request_id>/exportacao.<str:fmt>", wrap(self.download_view),
                 name="privacy_datarequest_download"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, object_id)
        extra = {"state": services.state_words(obj) if obj else "",
                 "overdue": obj is not None and services.state_of(obj) == services.State.OVERDUE,
                 "can_answer": can_answer(request.user), "title": f"Requisição nº {object_id}",
                 "subtitle": None}
        return super().change_view(request, object_id, form_url,
                                   {**extra, **(extra_context or {})})

    def _request(self, request, request_id) -> DataRequest:
        if not can_answer(request.user):
            raise PermissionDenied
        return get_object_or_404(DataRequest, pk=request_id)

    def answer_view(self, request, request_id):
        data_request = self._request(request, request_id)
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        try:
            services.answer_request(data_request, answered_by=actor_for(request.user),
                                    user=request.user,
                                    corrected=request.POST.get("corrected", ""))
            messages.success(request, f"Requisição nº {data_request.pk} respondida.")
        except RequestRefused as error:
            messages.error(request, str(error))
        return HttpResponseRedirect(reverse("admin:privacy_datarequest_change",
                                            args=[data_request.pk]))

    def download_view(self, request, request_id, fmt):
        data_request = self._request(request, request_id)
        stored = {"json": data_request.export_json, "pdf": data_request.export_pdf}.get(fmt)
        if not stored:
            raise Http404("Sem exportação.")
        with default_storage.open(data_request.export_json, "rb") as handle:
            numbers = [row["numero"] for row in json.load(handle)["sinistros"]]
        claim_ids = list(Claim.objects.filter(number__in=numbers).values_list("pk", flat=True))
        personal_data_read.send(sender=DataRequest, claim_ids=claim_ids, kind="exportacao",
                                user=request.user, channel_id=None)
        return FileResponse(default_storage.open(stored, "rb"), as_attachment=True,
                            filename=stored.rsplit("/", 1)[-1])
