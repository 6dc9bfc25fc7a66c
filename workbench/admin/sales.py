"""Channels, sales (with the operator's claim opening) and their coverages and claims."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from api_common.problem_types import ProblemError
from claims import errors, services
from workbench.admin.pagination import LongListAdmin
from workbench.admin.base import ReadOnlyMixin
from workbench.admin.search import sale_search
from claims.coverages import coverage_label
from claims.formatting import brl, phone, tax_id
from claims.forms import OpenClaimForm
from claims.models import Channel, Claim, Coverage, Sale
from claims.permissions import Permission
from claims.workflow import OPEN_STATUSES


@admin.register(Channel)
class ChannelAdmin(admin.ModelAdmin):
    """Client secrets are stored hashed and never shown (``create_channel`` prints the
    secret once); the OAuth application is not editable here."""

    list_display = ["name", "slug", "client_id", "is_active", "claims_api_enabled", "created_at"]
    list_filter = ["is_active", "claims_api_enabled"]
    search_fields = ["name", "slug", "application__client_id"]
    readonly_fields = ["client_id", "created_at"]
    fields = [
        "name", "slug", "is_active", "claims_api_enabled",
        "api_requests_per_minute", "upload_urls_per_minute", "client_id", "created_at",
    ]

    def has_add_permission(self, request):
        return False  # channels are created with `manage.py create_channel` (secret shown once)

    @admin.display(description="client_id")
    def client_id(self, channel):
        return channel.application.client_id

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("application")


class CoverageInline(ReadOnlyMixin, admin.TabularInline):
    model = Coverage
    fields = ["label", "lmi", "is_active"]
    extra = 0
    verbose_name_plural = "coberturas"

    @admin.display(description="cobertura")
    def label(self, coverage):
        return coverage_label(coverage.name)

    @admin.display(description="LMI")
    def lmi(self, coverage):
        return brl(coverage.max_indemnity)


class ClaimInline(ReadOnlyMixin, admin.TabularInline):
    """The sale's claims, each a link to its page."""

    model = Claim
    fields = ["claim_link", "coverage_label", "status_label", "amount_brl", "notified_at"]
    extra = 0
    verbose_name_plural = "sinistros desta venda"
    show_change_link = False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("coverage")

    @admin.display(description="sinistro")
    def claim_link(self, claim):
        return format_html('<a href="{}">{}</a>',
                           reverse("admin:claims_claim_change", args=[claim.pk]), claim.number)

    @admin.display(description="cobertura")
    def coverage_label(self, claim):
        return coverage_label(claim.coverage.name)

    @admin.display(description="status")
    def status_label(self, claim):
        return claim.get_status_display()

    @admin.display(description="valor")
    def amount_brl(self, claim):
        return brl(claim.amount)


@admin.register(Sale)
class SaleAdmin(ReadOnlyMixin, LongListAdmin, admin.ModelAdmin):
    list_display = ["id", "insured_name", "cpf", "channel", "status", "valid_until", "lmg"]
    list_filter = ["status", "channel"]
    # Searched by workbench.admin.search.sale_search (each word by its shape, each through an
    # index); listed only so the admin shows the search box.
    search_fields = ["search_name"]
    search_help_text = ("Nome do segurado (qualquer parte de cada palavra, com ou sem "
                        "acento), CPF (com ou sem pontuação), id da venda ou da proposta.")
    list_select_related = ["channel"]
    # A million sales: LongListAdmin counts up to ADMIN_LIST_COUNT_LIMIT ("mais de 10.000
    # vendas"), as the claim list does, and never the total of every sale beside a
    # search's (it read the whole table on each search).
    inlines = [CoverageInline, ClaimInline]
    fieldsets = [
        (None, {"fields": ["id", "channel", "status", "proposal_id", "product_combo_id",
                           "affiliation_id"]}),
        ("Segurado", {"fields": ["insured_name", "cpf", "insured_email", "insured_phone"]}),
        ("Vigência e limite", {"fields": ["valid_from", "valid_until", "lmg"]}),
    ]

    class Media:
        css = {"all": ["claims/admin.css"]}

    def get_queryset(self, request):
        # A partner's sandbox sales are its own test data, not the insurer's policies. A
        # subquery, not a join: joined, the planner walked each channel's sales and
        # filtered their names rather than asking the name's trigram index.
        return super().get_queryset(request).exclude(
            channel__in=Channel.objects.filter(is_sandbox=True))

    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        return queryset.filter(sale_search(search_term)), False

    @admin.display(description="CPF do segurado", ordering="insured_cpf")
    def cpf(self, sale):
        return tax_id(sale.insured_cpf)

    @admin.display(description="telefone do segurado")
    def insured_phone(self, sale):
        return phone(sale.insured_phone_number, sale.insured_phone_area_code) or "—"

    @admin.display(description="LMG", ordering="max_guarantee")
    def lmg(self, sale):
        return brl(sale.max_guarantee)

    def get_urls(self):
        return [
            path("<path:object_id>/abrir-sinistro/", self.admin_site.admin_view(self.open_claim_view),
                 name="claims_sale_open_claim"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {**(extra_context or {}),
                         "can_open_claim": request.user.has_perm(Permission.OPEN_CLAIM.perm)}
        return super().change_view(request, object_id, form_url, extra_context)

    def open_claim_view(self, request, object_id):
        """The operator opens a claim for this sale, with the API's rules and service."""
        if not request.user.has_perm(Permission.OPEN_CLAIM.perm):
            raise PermissionDenied
        sale = self.get_object(request, object_id)
        if sale is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        # A coverage with an open claim would only be refused after submitting.
        kwargs = {"coverage_choices": [
            (c.name, f"{coverage_label(c.name)} (LMI {brl(c.max_indemnity)})")
            for c in sale.coverages.filter(is_active=True).exclude(claims__status__in=OPEN_STATUSES)
        ]}
        if request.method == "POST":
            form = OpenClaimForm(request.POST, **kwargs)
            if form.is_valid():
                try:
                    claim = services.open_claim(
                        channel=sale.channel, sale_id=sale.pk,
                        actor=services.actor_for(request.user), user=request.user,
                        **form.cleaned_data["opening"],
                    )
                except errors.ActionNotPermitted:
                    raise PermissionDenied from None
                except errors.ClaimAlreadyOpenedForCoverage as refusal:
                    number = refusal.extra["numero-sinistro"]
                    open_claim = Claim.objects.filter(number=number).values_list("pk", flat=True).first()
                    form.add_error(None, format_html(
                        '{} <a href="{}">Ver o sinistro {}</a>.', refusal.detail,
                        reverse("admin:claims_claim_change", args=[open_claim]), number))
                except ProblemError as refusal:
                    form.add_error(None, refusal.detail)
                else:
                    messages.success(request, f"Sinistro {claim.number} aberto.")
                    return HttpResponseRedirect(
                        reverse("admin:claims_claim_change", args=[claim.pk]))
        else:
            form = OpenClaimForm(initial={
                "requester_name": sale.insured_name, "contact_name": sale.insured_name,
                "contact_email": sale.insured_email,
                "contact_area_code": sale.insured_phone_area_code,
                "contact_phone": sale.insured_phone_number,
            }, **kwargs)
        return TemplateResponse(request, "admin/claims/sale/open_claim.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "sale": sale,
            "form": form, "title": f"Abrir sinistro: {sale.insured_name}",
        })
