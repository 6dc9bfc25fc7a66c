""""Retenções legais": the holds that suspend the retention clock. Placing one takes
the privacy role's ``place_hold``; releasing takes two people with ``release_hold``: one
asks (with the reason), another confirms or keeps the hold (privacy.services.holds).
Holds are never changed by hand nor deleted: the page is read-only but for those steps.
Also "Prazos de guarda" (privacy.admin.clocks), reached from here."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from claims.models import Claim, Sale
from privacy.admin.common import (PLACE_HOLD, RELEASE_HOLD, VIEW_HOLDS, actors_in_words,
                                  can, target_words)
from privacy.errors import HoldRefused
from privacy.models import HoldTarget, LegalHold
from privacy.services import holds


class PlaceHoldForm(forms.Form):
    target = forms.ChoiceField(label="Reter", choices=HoldTarget.choices,
                               widget=forms.RadioSelect, initial=HoldTarget.CLAIM)
    claim_number = forms.CharField(label="Número do sinistro", required=False,
                                   help_text="Por exemplo, SIN-0A1B2C3D4E5F.")
    sale_id = forms.UUIDField(label="Id da venda", required=False)
    cpf = forms.CharField(label="CPF", required=False,
                          help_text="Retém todo sinistro em que o CPF aparece: segurado, "
                                    "solicitante, beneficiário, representante ou favorecido.")
    reason = forms.CharField(label="Motivo", widget=forms.Textarea(attrs={"rows": 3}),
                             help_text="Por exemplo: ação judicial de cobrança da indenização.")
    reference = forms.CharField(label="Referência", max_length=200,
                                help_text="Número do processo judicial ou do processo "
                                          "administrativo sancionador (SUSEP).")

    def clean(self):
        data = super().clean()
        target = data.get("target")
        data["where"] = {}
        if target == HoldTarget.CLAIM:
            number = (data.get("claim_number") or "").strip().upper()
            claim = Claim.objects.filter(number=number).first() if number else None
            if claim is None:
                self.add_error("claim_number", "Sinistro não encontrado.")
            data["where"] = {"claim": claim}
        elif target == HoldTarget.SALE:
            sale = Sale.objects.filter(pk=data["sale_id"]).first() if data.get("sale_id") else None
            if sale is None:
                self.add_error("sale_id", "Venda não encontrada.")
            data["where"] = {"sale": sale}
        elif target == HoldTarget.CPF:
            digits = holds.cpf_digits(data.get("cpf") or "")
            if digits is None:
                self.add_error("cpf", "CPF inválido.")
            data["where"] = {"cpf": digits}
        return data


class ReleaseForm(forms.Form):
    release_reason = forms.CharField(
        label="Motivo da liberação", widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Por exemplo: trânsito em julgado, processo arquivado. Outra pessoa "
                  "confirma a liberação.")


@admin.register(LegalHold)
class LegalHoldAdmin(admin.ModelAdmin):
    list_display = ["hold_link", "target_words", "reference", "placed_words", "state_words"]
    list_filter = ["target", ("released_at", admin.EmptyFieldListFilter)]
    list_select_related = ["claim", "sale"]
    search_fields = ["reference", "claim__number", "cpf"]
    search_help_text = "Referência do processo, número do sinistro ou CPF (só números)."
    empty_value_display = "—"

    def has_module_permission(self, request):
        return can(request.user, VIEW_HOLDS)

    def has_view_permission(self, request, obj=None):
        return can(request.user, VIEW_HOLDS)

    def has_add_permission(self, request):
        return can(request.user, PLACE_HOLD)

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        from privacy.admin.clocks import clocks_view

        wrap = self.admin_site.admin_view
        return [
            path("prazos/", wrap(clocks_view), name="privacy_retention_clocks"),
            path("<int:hold_id>/liberacao/", wrap(self.release_view),
                 name="privacy_legalhold_release"),
            *super().get_urls(),
        ]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        self._actors = actors_in_words(queryset.values_list("placed_by", flat=True)[:500])
        return queryset

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {
            "title": "Retenções legais", "clocks_url": reverse("admin:privacy_retention_clocks"),
            **(extra_context or {})})

    @admin.display(description="retenção", ordering="placed_at")
    def hold_link(self, obj):
        return format_html('<a href="{}">Retenção {}</a>',
                           reverse("admin:privacy_legalhold_change", args=[obj.pk]), obj.pk)

    @admin.display(description="o que retém")
    def target_words(self, obj):
        return target_words(obj)

    @admin.display(description="colocada", ordering="placed_at")
    def placed_words(self, obj):
        by = getattr(self, "_actors", {}).get(obj.placed_by, obj.placed_by)
        return f"{timezone.localdate(obj.placed_at):%d/%m/%Y} por {by}"

    @admin.display(description="situação")
    def state_words(self, obj):
        return state_words(obj)

    def add_view(self, request, form_url="", extra_context=None):
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = PlaceHoldForm(request.POST or None, initial={
            "target": request.GET.get("target", HoldTarget.CLAIM),
            "claim_number": request.GET.get("claim", "")})
        if request.method == "POST" and form.is_valid():
            try:
                hold = holds.place_hold(user=request.user, reason=form.cleaned_data["reason"],
                                        reference=form.cleaned_data["reference"],
                                        **form.cleaned_data["where"])
            except HoldRefused as refused:
                form.add_error(None, refused.message)
            else:
                what = target_words(hold)  # "Sinistro SIN-...": only its first letter lowered
                messages.success(request, f"Retenção {hold.pk} colocada: o prazo de guarda "
                                          f"de {what[0].lower()}{what[1:]} está suspenso.")
                return HttpResponseRedirect(reverse("admin:privacy_legalhold_change",
                                                    args=[hold.pk]))
        return TemplateResponse(request, "admin/privacy/legalhold/place.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "form": form,
            "title": "Colocar retenção legal"})

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        hold = self._hold(object_id)
        actors = actors_in_words([hold.placed_by, hold.release_requested_by, hold.released_by])
        user_actor = f"usuario:{request.user.get_username()}"
        return TemplateResponse(request, "admin/privacy/legalhold/detail.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "hold": hold,
            "title": f"Retenção {hold.pk}", "target": target_words(hold),
            "state": state_words(hold), "actors": actors,
            "placed_by": actors.get(hold.placed_by),
            "requested_by": actors.get(hold.release_requested_by),
            "released_by": actors.get(hold.released_by),
            "can_release": can(request.user, RELEASE_HOLD) and hold.is_active,
            "asked_by_me": hold.release_requested_by == user_actor,
            "release_form": ReleaseForm()})

    def release_view(self, request, hold_id):
        """The release's steps, by POST: ``pedir`` (with the reason), ``confirmar`` (a
        second person) or ``manter`` (the request withdrawn, the hold stays)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not can(request.user, RELEASE_HOLD):
            raise PermissionDenied
        hold = self._hold(hold_id)
        step = request.POST.get("step")
        try:
            if step == "pedir":
                form = ReleaseForm(request.POST)
                reason = form.data.get("release_reason", "")
                holds.request_release(hold, user=request.user, reason=reason)
                messages.success(request, "Liberação pedida. Outra pessoa com o papel de "
                                          "Privacidade precisa confirmá-la.")
            elif step == "confirmar":
                holds.confirm_release(hold, user=request.user)
                messages.success(request, "Retenção liberada: o prazo de guarda volta a correr.")
            elif step == "manter":
                holds.withdraw_release_request(hold)
                messages.success(request, "Pedido de liberação recusado: a retenção continua.")
            else:
                messages.error(request, "Ação desconhecida.")
        except HoldRefused as refused:
            messages.error(request, refused.message)
        return HttpResponseRedirect(reverse("admin:privacy_legalhold_change", args=[hold.pk]))

    def _hold(self, hold_id) -> LegalHold:
        hold = LegalHold.objects.select_related("claim", "sale").filter(pk=hold_id).first() \
            if str(hold_id).isdigit() else None
        if hold is None:
            raise Http404("Retenção não encontrada.")
        return hold


def state_words(hold: LegalHold) -> str:
    if hold.released_at:
        return f"Liberada em {timezone.localdate(hold.released_at):%d/%m/%Y}"
    if hold.release_requested_at:
        return "Ativa — liberação pedida, aguardando a confirmação de outra pessoa"
    return "Ativa"
