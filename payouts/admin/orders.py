"""The payment orders, read only: treasury and supervisors follow each registered payment
through the bank. The payee's bank data (the destination, the paying account, the file)
are shown to treasury only (payouts.roles)."""

from django.contrib import admin
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from claims.signals import ReadKind, data_read
from claims.formatting import brl
from claims.payment_words import payment_method_summary
from payouts import reconciliation
from payouts.cnab240.types import Form
from payouts.models import PayingAccount, PaymentOrder
from payouts.roles import VIEW_ORDERS, sees_bank_data

FORM_WORDS = {
    Form.SAME_BANK.value: "Crédito em conta (mesmo banco)",
    Form.TED.value: "TED",
    Form.PIX_KEY.value: "PIX por chave",
    Form.PIX_ACCOUNT.value: "PIX para conta",
    Form.BOLETO.value: "Boleto",
    Form.PIX_BRCODE.value: "PIX copia e cola",
}

# What the dashboard's card links to (payouts.admin_panels): each is a query of
# payouts.reconciliation, so the card's figure and the list's count are the same.
ATTENTION = {
    "aguardando-liberacao": ("Em remessa aguardando liberação", reconciliation.AWAITING_RELEASE),
    "recusada-sem-dados": ("Recusada, aguardando novos dados", reconciliation.REFUSED_AWAITING_DATA),
    "sem-conta": ("Sem conta pagadora", reconciliation.NO_ACCOUNT),
}


class SituationFilter(admin.SimpleListFilter):
    title = "situação"
    parameter_name = "situacao"

    def lookups(self, request, model_admin):
        return [*[(key, label) for key, (label, _) in ATTENTION.items()],
                ("atrasada", "Em aberto além do prazo"),
                *PaymentOrder.Status.choices]

    def queryset(self, request, queryset):
        value = self.value()
        if value in ATTENTION:
            return queryset.filter(ATTENTION[value][1])
        if value == "atrasada":
            return queryset.filter(reconciliation.late_filter())
        if value in PaymentOrder.Status.values:
            return queryset.filter(status=value)
        return queryset


class AccountFilter(admin.SimpleListFilter):
    """By the account's name only: its numbers are bank data."""

    title = "conta pagadora"
    parameter_name = "conta"

    def lookups(self, request, model_admin):
        return [(str(pk), name) for pk, name in PayingAccount.objects.values_list("pk", "name")]

    def queryset(self, request, queryset):
        return queryset.filter(account_id=self.value()) if self.value() else queryset


class FormFilter(admin.SimpleListFilter):
    title = "forma"
    parameter_name = "forma"

    def lookups(self, request, model_admin):
        return list(FORM_WORDS.items())

    def queryset(self, request, queryset):
        return queryset.filter(form=self.value()) if self.value() else queryset


@admin.register(PaymentOrder)
class PaymentOrderAdmin(admin.ModelAdmin):
    list_display = ["reference", "claim_number", "payee", "amount_brl", "form_words",
                    "status", "payment_date_words", "bank_reason"]
    list_filter = [SituationFilter, AccountFilter, FormFilter]
    search_fields = ["=reference", "=payment__claim__number"]
    search_help_text = "Seu número (OP…) ou número do sinistro."
    list_select_related = ["payment__claim", "account"]
    ordering = ["-created_at"]
    empty_value_display = "—"

    class Media:
        css = {"all": ["payouts/payouts.css"]}

    def has_module_permission(self, request):
        return request.user.has_perm(VIEW_ORDERS)

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm(VIEW_ORDERS)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_fields(self, request, obj=None):
        fields = ["reference", "claim_number", "payee", "payee_tax_id", "amount_brl",
                  "form_words", "status", "payment_date_words", "bank_occurrences",
                  "bank_reason", "bank_reference", "effective_amount_brl",
                  "effective_date_words", "status_changed_at", "created_at"]
        if sees_bank_data(request.user):
            fields += ["account", "destination", "files"]
        return fields

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def get_urls(self):
        from payouts.admin.reconciliation_page import reconciliation_view

        return [path("conciliacao/", self.admin_site.admin_view(reconciliation_view),
                     name="payouts_reconciliation"), *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        response = super().change_view(request, object_id, form_url, extra_context)
        order = getattr(response, "context_data", {}).get("original")
        if order is not None:
            # The payee's name, tax id and bank account: a reading of the claim's personal
            # data (LGPD art. 37, docs/privacy-access.md). The page shows the same
            # payment object: nothing is read twice.
            data_read([order.payment.claim_id], kind=ReadKind.CLAIM_PAGE, user=request.user)
        return response

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {"title": "Ordens de pagamento",
                                                 **(extra_context or {})})

    @admin.display(description="sinistro", ordering="payment__claim__number")
    def claim_number(self, obj):
        claim = obj.payment.claim
        return format_html('<a href="{}#pagamentos" class="nowrap">{}</a>',
                           reverse("admin:claims_claim_change", args=[claim.pk]), claim.number)

    @admin.display(description="favorecido", ordering="payment__beneficiary_name")
    def payee(self, obj):
        return obj.payment.beneficiary_name

    @admin.display(description="CPF/CNPJ do favorecido")
    def payee_tax_id(self, obj):
        return obj.payment.beneficiary_tax_id

    @admin.display(description="valor", ordering="amount")
    def amount_brl(self, obj):
        return format_html('<span class="money">{}</span>', brl(obj.amount))

    @admin.display(description="valor efetivado")
    def effective_amount_brl(self, obj):
        return brl(obj.effective_amount)

    @admin.display(description="forma", ordering="form")
    def form_words(self, obj):
        return FORM_WORDS.get(obj.form, obj.form)

    @admin.display(description="data de pagamento", ordering="payment_date")
    def payment_date_words(self, obj):
        return obj.payment_date.strftime("%d/%m/%Y") if obj.payment_date else "—"

    @admin.display(description="data efetivada")
    def effective_date_words(self, obj):
        return obj.effective_date.strftime("%d/%m/%Y") if obj.effective_date else "—"

    @admin.display(description="dados bancários do favorecido")
    def destination(self, obj):
        return payment_method_summary(obj.payment.payment_method_details)

    @admin.display(description="remessas")
    def files(self, obj):
        lines = list(obj.lines.select_related("remittance").order_by("pk"))
        if not lines:
            return "—"
        return format_html_join(", ", '<a href="{}">{}</a>{}', (
            (reverse("admin:payouts_remittance_change", args=[line.remittance_id]),
             line.remittance.filename, "" if line.live else " (cancelada)") for line in lines))
