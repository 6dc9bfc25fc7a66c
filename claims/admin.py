"""Admin for insurer staff. Read-mostly: every claim change goes through
``claims.services`` (the analyst actions call them), never through a model form."""

from django.contrib import admin
from django.contrib.admin.utils import flatten_fieldsets
from django.utils.html import format_html

from claims import uploads
from claims.models import (
    Channel,
    Claim,
    ClaimHistory,
    Coverage,
    DocumentFile,
    DocumentRequest,
    DocumentRequirement,
    Event,
    Payment,
    Sale,
)

admin.site.site_header = "Sinistros: retaguarda"
admin.site.site_title = "Sinistros"
admin.site.index_title = "Administração"


class ReadOnlyMixin:
    def get_readonly_fields(self, request, obj=None):
        if self.fieldsets:
            return flatten_fieldsets(self.fieldsets)
        return self.fields or [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Channel)
class ChannelAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "client_id", "is_active", "claims_api_enabled", "created_at"]
    list_filter = ["is_active", "claims_api_enabled"]
    search_fields = ["name", "slug", "application__client_id"]
    readonly_fields = ["application", "created_at"]
    fields = ["name", "slug", "is_active", "claims_api_enabled", "application", "created_at"]

    def has_add_permission(self, request):
        return False  # channels are created with `manage.py create_channel` (secret shown once)

    @admin.display(description="client_id")
    def client_id(self, channel):
        return channel.application.client_id

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("application")


class CoverageInline(ReadOnlyMixin, admin.TabularInline):
    model = Coverage
    fields = ["name", "max_indemnity", "is_active"]
    extra = 0


@admin.register(Sale)
class SaleAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["id", "insured_name", "insured_cpf", "channel", "status", "valid_until", "max_guarantee"]
    list_filter = ["status", "channel"]
    search_fields = ["=id", "insured_name", "=insured_cpf", "=proposal_id"]
    list_select_related = ["channel"]
    inlines = [CoverageInline]


class DocumentRequestInline(ReadOnlyMixin, admin.TabularInline):
    model = DocumentRequest
    fields = ["doc_type", "title", "requested_at", "approved_at"]
    extra = 0


class DocumentFileInline(ReadOnlyMixin, admin.TabularInline):
    model = DocumentFile
    fields = ["doc_type", "file_name", "status", "size", "rejection_reason", "sent_at",
              "received_at", "external_id", "download"]
    extra = 0
    verbose_name_plural = "arquivos recebidos e rejeitados"

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def get_queryset(self, request):
        # Links that expired unused say nothing about the claim.
        return super().get_queryset(request).exclude(
            status__in=[DocumentFile.Status.AWAITING_UPLOAD, DocumentFile.Status.EXPIRED]
        )

    @admin.display(description="abrir")
    def download(self, document):
        if document.status != DocumentFile.Status.RECEIVED:
            return "—"
        # Short-lived link made when the page is shown; never a public URL.
        return format_html(
            '<a href="{}" target="_blank" rel="noopener">baixar</a>',
            uploads.download_url(document.storage_key),
        )


class PaymentInline(ReadOnlyMixin, admin.TabularInline):
    model = Payment
    fields = ["amount", "status", "financial_transaction_id", "paid_on", "created_at"]
    extra = 0


class HistoryInline(ReadOnlyMixin, admin.TabularInline):
    model = ClaimHistory
    fields = ["created_at", "action", "from_status", "to_status", "actor", "note"]
    extra = 0


@admin.register(Claim)
class ClaimAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["number", "status", "coverage", "insured", "channel", "amount", "notified_at"]
    list_filter = ["status", "coverage__name", "sale__channel"]
    search_fields = ["=number", "=sale__id", "=sale__insured_cpf", "sale__insured_name"]
    list_select_related = ["coverage", "sale", "sale__channel"]
    date_hierarchy = "notified_at"
    inlines = [DocumentRequestInline, DocumentFileInline, PaymentInline, HistoryInline]
    fieldsets = [
        (None, {"fields": ["number", "status", "sale", "coverage", "nature"]}),
        ("Valores", {"fields": ["amount", "outstanding_balance"]}),
        ("Ocorrência", {"fields": ["occurred_at", "notified_at", "narrative"]}),
        ("Contato", {"fields": ["requester_name", "contact_name", "contact_email",
                                "contact_phone_area_code", "contact_phone_number"]}),
        ("Pagamento e dados adicionais", {"fields": ["payment_details", "additional_data"]}),
        ("Recusa", {"fields": ["denied_at", "denial_reason"]}),
    ]

    @admin.display(description="segurado")
    def insured(self, claim):
        return claim.sale.insured_name

    @admin.display(description="canal")
    def channel(self, claim):
        return claim.sale.channel


@admin.register(DocumentRequirement)
class DocumentRequirementAdmin(admin.ModelAdmin):
    list_display = ["coverage_name", "nature", "product_combo_id", "doc_type", "title", "is_active"]
    list_filter = ["coverage_name", "nature", "is_active"]
    search_fields = ["doc_type", "title"]


@admin.register(Event)
class EventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["created_at", "name", "claim", "channel"]
    list_filter = ["name", "channel"]
    search_fields = ["=id", "=claim__number"]
    list_select_related = ["claim", "channel"]
