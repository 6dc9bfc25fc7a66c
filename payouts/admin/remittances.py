"""The "Remessas" page (treasury only): the files sent to the bank, generating the due ones
now, releasing a file above the limit (a second person), cancelling one held for release,
downloading one (logged), and sending the bank's return by hand. Every action is a POST
calling one service of payouts.services; a refusal there (a ProblemError) is shown as
the page's message, never an error page."""

from axes.helpers import get_client_ip_address
from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from api_common.problem_types import ProblemError
from claims.formatting import brl, local_moment, person
from claims.signals import ReadKind, data_read
from payouts.admin.accounts import TreasuryOnly
from payouts.admin.orders import FORM_WORDS
from payouts.cnab240.types import LayoutError
from payouts.models import BankReturn, PayingAccount, Remittance, RemittanceLine, ReturnLine
from payouts.roles import TREASURY_PERM
from payouts.services import remittances, returns

# A return is a few hundred 240-character lines per thousand orders: far below this.
RETURN_MAX_BYTES = 20 * 1024 * 1024


class ReturnUploadForm(forms.Form):
    file = forms.FileField(label="Arquivo de retorno (CNAB 240)")


class CancelForm(forms.Form):
    reason = forms.CharField(label="Motivo do cancelamento", widget=forms.Textarea(
        attrs={"rows": 2}), max_length=1000)


@admin.register(Remittance)
class RemittanceAdmin(TreasuryOnly, admin.ModelAdmin):
    list_display = ["filename", "account_name", "sequence", "orders_count", "total_brl",
                    "payment_date_words", "status", "who"]
    list_filter = ["status", "account"]
    search_fields = ["filename"]
    list_select_related = ["account", "created_by", "released_by"]
    date_hierarchy = "payment_date"
    change_list_template = "admin/payouts/remittance/change_list.html"
    actions = None

    class Media:
        css = {"all": ["payouts/payouts.css"]}

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    # --- the list ----------------------------------------------------------------------

    def changelist_view(self, request, extra_context=None):
        recent = BankReturn.objects.select_related("remittance", "received_by")[:10]
        return super().changelist_view(request, {
            "title": "Remessas", "upload_form": ReturnUploadForm(), "recent_returns": recent,
            "release_limit": settings.BANK_REMITTANCE_RELEASE_LIMIT,
            "awaiting": Remittance.objects.filter(
                status=Remittance.Status.AWAITING_RELEASE).count(),
            **(extra_context or {})})

    @admin.display(description="conta", ordering="account__name")
    def account_name(self, obj):
        return obj.account.name

    @admin.display(description="total", ordering="total")
    def total_brl(self, obj):
        return format_html('<span class="money">{}</span>', brl(obj.total))

    @admin.display(description="data de pagamento", ordering="payment_date")
    def payment_date_words(self, obj):
        return obj.payment_date.strftime("%d/%m/%Y")

    @admin.display(description="gerada / liberada por")
    def who(self, obj):
        made = person(obj.created_by) if obj.created_by else (obj.created_by_actor or "sistema")
        if obj.released_by:
            return f"{made} / {person(obj.released_by)}"
        return made

    # --- the page's actions ------------------------------------------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("gerar/", wrap(self.build_view), name="payouts_remittance_build"),
            path("enviar-retorno/", wrap(self.upload_view), name="payouts_return_upload"),
            path("<int:remittance_id>/liberar/", wrap(self.release_view),
                 name="payouts_remittance_release"),
            path("<int:remittance_id>/cancelar/", wrap(self.cancel_view),
                 name="payouts_remittance_cancel"),
            path("<int:remittance_id>/baixar/", wrap(self.download_view),
                 name="payouts_remittance_download"),
            *super().get_urls(),
        ]

    def _treasury(self, request) -> None:
        if not request.user.has_perm(TREASURY_PERM):
            raise PermissionDenied

    def _list_url(self) -> str:
        return reverse("admin:payouts_remittance_changelist")

    def _page_url(self, remittance_id) -> str:
        return reverse("admin:payouts_remittance_change", args=[remittance_id])

    def build_view(self, request):
        """One file per active account with due orders (payouts.services.remittances)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        self._treasury(request)
        made, held, nothing = [], [], []
        for account in PayingAccount.objects.filter(is_active=True).order_by("name"):
            try:
                remittance = remittances.build(account_id=account.pk, user=request.user)
            except (ProblemError, LayoutError) as refusal:
                messages.error(request, f"{account.name}: {getattr(refusal, 'detail', refusal)}")
                continue
            if remittance is None:
                nothing.append(account.name)
                continue
            words = (f"{remittance.filename} ({remittance.orders_count} ordem(ns), "
                     f"{brl(remittance.total)})")
            (held if remittance.status == Remittance.Status.AWAITING_RELEASE else made).append(words)
        if made:
            messages.success(request, "Remessa(s) gerada(s) e entregue(s) ao banco: "
                                      + "; ".join(made) + ".")
        if held:
            messages.warning(request, "Remessa(s) acima do limite, aguardando a liberação por "
                                      "outra pessoa da tesouraria: " + "; ".join(held) + ".")
        if nothing:
            messages.info(request, "Nada a remeter: " + ", ".join(nothing) + ".")
        if not (made or held or nothing):
            messages.info(request, "Nenhuma conta pagadora ativa.")
        return HttpResponseRedirect(self._list_url())

    def release_view(self, request, remittance_id):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        self._treasury(request)
        get_object_or_404(Remittance, pk=remittance_id)
        try:
            remittance = remittances.release(remittance_id=remittance_id, user=request.user)
        except ProblemError as refusal:
            messages.error(request, refusal.detail)
        else:
            messages.success(request, f"Remessa {remittance.filename} liberada: vai ao banco.")
        return HttpResponseRedirect(self._page_url(remittance_id))

    def cancel_view(self, request, remittance_id):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        self._treasury(request)
        get_object_or_404(Remittance, pk=remittance_id)
        form = CancelForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Informe o motivo do cancelamento.")
            return HttpResponseRedirect(self._page_url(remittance_id))
        try:
            remittance = remittances.cancel(remittance_id=remittance_id, user=request.user,
                                            reason=form.cleaned_data["reason"])
        except ProblemError as refusal:
            messages.error(request, refusal.detail)
        else:
            messages.success(request, f"Remessa {remittance.filename} cancelada: suas ordens "
                                      "voltam a aguardar a próxima remessa.")
        return HttpResponseRedirect(self._page_url(remittance_id))

    def download_view(self, request, remittance_id):
        """The file's bytes as the bank receives them; the download is logged."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        self._treasury(request)
        get_object_or_404(Remittance, pk=remittance_id)
        try:
            remittance = remittances.download(remittance_id=remittance_id, user=request.user,
                                              ip=get_client_ip_address(request))
        except ProblemError as refusal:
            messages.error(request, refusal.detail)
            return HttpResponseRedirect(self._page_url(remittance_id))
        # The file names each payee (name, CPF, bank account): a reading of those claims'
        # personal data (LGPD art. 37, docs/privacy-access.md), as an export.
        data_read(RemittanceLine.objects.filter(remittance=remittance).values_list(
            "order__payment__claim_id", flat=True), kind=ReadKind.EXPORT, user=request.user)
        # Bytes, not text: the bank's client reads them exactly as written (CRLF, ASCII).
        response = HttpResponse(bytes(remittance.content), content_type="application/octet-stream")
        response["Content-Disposition"] = f'attachment; filename="{remittance.filename}"'
        response["Cache-Control"] = "no-store"
        return response

    def upload_view(self, request):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        self._treasury(request)
        form = ReturnUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            messages.error(request, "Escolha o arquivo de retorno.")
            return HttpResponseRedirect(self._list_url())
        upload = form.cleaned_data["file"]
        if upload.size > RETURN_MAX_BYTES:
            messages.error(request, f"{upload.name}: arquivo grande demais para um retorno.")
            return HttpResponseRedirect(self._list_url())
        try:
            bank_return = returns.receive(content=upload.read(), filename=upload.name,
                                          source="upload", user=request.user)
        except (ProblemError, LayoutError) as refusal:
            messages.error(request, f"{upload.name}: {getattr(refusal, 'detail', refusal)}")
            return HttpResponseRedirect(self._list_url())
        return HttpResponseRedirect(_said_about(request, bank_return) or self._list_url())

    # --- a remittance's page -----------------------------------------------------------

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        if not request.user.has_perm(TREASURY_PERM):
            raise PermissionDenied
        remittance = Remittance.objects.select_related(
            "account", "created_by", "released_by").filter(
            pk=object_id if str(object_id).isdigit() else None).first()
        if remittance is None:
            raise Http404
        lines = list(remittance.lines.select_related("order__payment__claim").order_by("pk"))
        for line in lines:
            line.form_words = FORM_WORDS.get(line.order.form, line.order.form)
        return TemplateResponse(request, "admin/payouts/remittance/detail.html", {
            **self.admin_site.each_context(request), "opts": self.opts,
            "title": f"Remessa {remittance.filename}", "remittance": remittance,
            "lines": lines, "cancel_form": CancelForm(),
            "downloads": list(remittance.downloads.select_related("user")),
            "returns": list(remittance.returns.select_related("received_by")),
            "can_release": remittance.status == Remittance.Status.AWAITING_RELEASE,
            "can_download": remittance.status not in (Remittance.Status.AWAITING_RELEASE,
                                                      Remittance.Status.CANCELLED),
        })


def _said_about(request, bank_return: BankReturn) -> str | None:
    """The upload's result as the page's message; where to go next."""
    if bank_return.status == BankReturn.Status.REFUSED:
        messages.error(request, f"Retorno {bank_return.filename} recusado: {bank_return.problem}")
        return None
    counts: dict[str, int] = {}
    for outcome in bank_return.lines.values_list("outcome", flat=True):
        counts[outcome] = counts.get(outcome, 0) + 1
    words = ", ".join(f"{n} {label.lower()}" for value, label in
                      ReturnLine.Outcome.choices
                      if (n := counts.get(value)))
    when = local_moment(bank_return.applied_at) if bank_return.applied_at else ""
    level = messages.success if bank_return.status == BankReturn.Status.APPLIED else messages.warning
    level(request, f"Retorno {bank_return.filename} "
                   f"{bank_return.get_status_display().lower()}{' em ' + when if when else ''}"
                   f": {words or 'nenhuma ordem'}.")
    return reverse("admin:payouts_remittance_change", args=[bank_return.remittance_id])

