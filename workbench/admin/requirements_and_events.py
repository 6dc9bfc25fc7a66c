"""Document requirements (what each coverage asks for) and the events outbox."""

import json

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from workbench.admin.base import ReadOnlyMixin
from workbench.admin.filters import RequirementCoverageFilter, coverage_names
from workbench.admin.pagination import LongListAdmin
from workbench.admin.search import event_search
from claims.coverages import CATALOGUE, coverage_label
from claims.models import DocumentRequirement, Event


class DocumentRequirementForm(forms.ModelForm):
    """The coverage is chosen by its name in words, among the contract's coverages and
    those the sales carry, never typed as a code."""

    coverage_name = forms.ChoiceField(label="Cobertura")

    class Meta:
        model = DocumentRequirement
        fields = ["coverage_name", "nature", "doc_type", "title", "product_combo_id", "is_active"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        names = {*CATALOGUE, *coverage_names()}
        if self.instance.coverage_name:
            names.add(self.instance.coverage_name)
        self.fields["coverage_name"].choices = [("", "---------")] + sorted(
            ((name, coverage_label(name)) for name in names), key=lambda choice: choice[1])


@admin.register(DocumentRequirement)
class DocumentRequirementAdmin(admin.ModelAdmin):
    form = DocumentRequirementForm
    list_display = ["coverage", "nature", "title", "doc_type", "product_combo_id", "is_active"]
    list_filter = [RequirementCoverageFilter, "nature", "is_active"]
    search_fields = ["doc_type", "title"]

    @admin.display(description="cobertura", ordering="coverage_name")
    def coverage(self, requirement):
        return coverage_label(requirement.coverage_name)


@admin.register(Event)
class EventAdmin(ReadOnlyMixin, LongListAdmin, admin.ModelAdmin):
    list_display = ["created_at", "event_label", "code", "claim_link", "channel"]
    list_filter = ["name", "channel"]
    search_fields = ["id", "claim__number"]  # see get_search_results
    search_help_text = "Id do evento ou número do sinistro."
    list_select_related = ["claim", "channel"]
    ordering = ["-created_at", "-id"]
    fields = ["id", "event_label", "code", "claim_link", "channel", "created_at", "envelope_json"]

    def get_queryset(self, request):
        # A partner's sandbox claims are none of the insurer's people's (docs/sandbox.md).
        return super().get_queryset(request).exclude(channel__is_sandbox=True)

    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        return queryset.filter(event_search(search_term)), False

    @admin.display(description="evento", ordering="name")
    def event_label(self, event):
        return event.get_name_display()

    @admin.display(description="código (webhook)")
    def code(self, event):
        return format_html("<code>{}</code>", event.name)

    @admin.display(description="sinistro", ordering="claim__number")
    def claim_link(self, event):
        return format_html('<a href="{}">{}</a>',
                           reverse("admin:claims_claim_change", args=[event.claim_id]),
                           event.claim.number)

    @admin.display(description="envelope (como enviado ao canal)")
    def envelope_json(self, event):
        return format_html("<pre>{}</pre>", json.dumps(event.envelope(), indent=2, ensure_ascii=False))
