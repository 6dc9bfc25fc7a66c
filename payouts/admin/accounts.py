"""The insurer's paying accounts: treasury (and superusers) add and change them; the
routing fields say which payments each pays (payouts.routing). The file sequence is the
remittance builder's, never typed."""

from django import forms
from django.contrib import admin

from payouts.models import PayingAccount
from payouts.roles import TREASURY_PERM


class CoveragesField(forms.CharField):
    """The coverages' codes one per line (or separated by commas), stored as a list."""

    widget = forms.Textarea(attrs={"rows": 3})

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(value)
        return value

    def to_python(self, value):
        text = super().to_python(value) or ""
        return [code.strip() for code in text.replace(",", "\n").splitlines() if code.strip()]


class PayingAccountForm(forms.ModelForm):
    coverages = CoveragesField(
        label="Coberturas", required=False,
        help_text="Códigos das coberturas que esta conta paga, um por linha "
                  "(p. ex. cobertura/morte). Vazio: qualquer cobertura.")

    class Meta:
        model = PayingAccount
        fields = "__all__"


class TreasuryOnly:
    """Bank data: the treasury's (and a superuser's, who holds every permission)."""

    def has_module_permission(self, request):
        return request.user.has_perm(TREASURY_PERM)

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm(TREASURY_PERM)

    def has_add_permission(self, request):
        return request.user.has_perm(TREASURY_PERM) and super().has_add_permission(request)

    def has_change_permission(self, request, obj=None):
        return request.user.has_perm(TREASURY_PERM) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(PayingAccount)
class PayingAccountAdmin(TreasuryOnly, admin.ModelAdmin):
    form = PayingAccountForm
    list_display = ["name", "bank", "branch", "account_words", "flavour", "routing_words",
                    "is_active", "last_sequence"]
    list_filter = ["is_active", "flavour", "bank"]
    search_fields = ["name", "agreement", "account"]
    readonly_fields = ["last_sequence", "created_at"]
    filter_horizontal = ["channels"]
    fieldsets = [
        (None, {"fields": ["name", "is_active", "flavour"]}),
        ("Conta", {"fields": [("bank", "branch", "branch_digit"), ("account", "account_digit"),
                              "agreement", ("company_tax_id", "company_name")]}),
        ("O que esta conta paga", {
            "fields": ["channels", "coverages", "is_default"],
            "description": "Uma conta que nomeia o canal e a cobertura do sinistro vence; "
                           "depois a que nomeia o canal, depois a que nomeia a cobertura, "
                           "e por fim a conta padrão."}),
        ("Arquivos", {"fields": ["last_sequence", "created_at"]}),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("channels")

    @admin.display(description="conta")
    def account_words(self, obj):
        return obj.account + (f"-{obj.account_digit}" if obj.account_digit else "")

    @admin.display(description="paga")
    def routing_words(self, obj):
        parts = []
        channels = [channel.name for channel in obj.channels.all()]
        if channels:
            parts.append("canais: " + ", ".join(channels))
        if obj.coverages:
            parts.append("coberturas: " + ", ".join(obj.coverages))
        if obj.is_default:
            parts.append("conta padrão")
        return "; ".join(parts) or "nada (nem padrão, nem canais, nem coberturas)"
