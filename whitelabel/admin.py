"""Ops configure each channel's hosted pages (name, colour, logo, link lifetime) and can
look up the links a channel generated; no token is ever stored or shown."""

import base64

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html

from whitelabel.branding import InvalidLogo, contrast_ratio, reencoded_logo, text_color_on
from whitelabel.models import AccessLink, DocumentDownload, HostedPages


class HostedPagesForm(forms.ModelForm):
    logo = forms.FileField(
        label="Logotipo", required=False,
        help_text="PNG, JPEG, WebP ou GIF de até 1 MB; guardado como PNG de até 480 × 160 px.",
    )
    remove_logo = forms.BooleanField(label="Remover o logotipo", required=False)

    class Meta:
        model = HostedPages
        fields = ["channel", "display_name", "primary_color", "link_lifetime_hours",
                  "sender_name", "reply_to"]
        widgets = {"primary_color": forms.TextInput(attrs={"type": "color"})}

    def clean_logo(self):
        upload = self.cleaned_data.get("logo")
        if not upload:
            return None
        try:
            return reencoded_logo(upload)
        except InvalidLogo as problem:
            raise forms.ValidationError(str(problem)) from None

    def save(self, commit=True):
        pages = super().save(commit=False)
        if self.cleaned_data.get("remove_logo"):
            pages.set_logo(None)
        elif self.cleaned_data.get("logo"):
            pages.set_logo(self.cleaned_data["logo"])
        if commit:
            pages.save()
        return pages


@admin.register(HostedPages)
class HostedPagesAdmin(admin.ModelAdmin):
    form = HostedPagesForm
    list_display = ["channel", "display_name", "primary_color", "link_lifetime_hours", "updated_at"]
    readonly_fields = ["preview"]
    fields = ["channel", "display_name", "primary_color", "logo", "remove_logo", "preview",
              "link_lifetime_hours", "sender_name", "reply_to"]

    def get_readonly_fields(self, request, obj=None):
        # The channel of an existing entry does not change (it is the primary key).
        return ["channel", "preview"] if obj else ["preview"]

    @admin.display(description="como fica")
    def preview(self, pages):
        if not pages or not pages.pk:
            return "—"
        text = text_color_on(pages.primary_color)
        logo = ""
        if pages.logo_png:
            data = base64.b64encode(bytes(pages.logo_png)).decode()
            logo = format_html('<img src="data:image/png;base64,{}" alt="Logotipo atual" '
                               'class="brand-preview-logo">', data)
        return format_html(
            '{} <span>Cor {} com texto {} (contraste {}:1).</span>', logo,
            pages.primary_color.upper(), "branco" if text == "#FFFFFF" else "preto",
            f"{contrast_ratio(pages.primary_color, text):.1f}".replace(".", ","),
        )


class DocumentDownloadInline(admin.TabularInline):
    """What the person took from "Seus documentos" through this link (the claim page's
    timeline shows the same, claim by claim)."""

    model = DocumentDownload
    fields = ["downloaded_at", "claim", "kind", "file_name"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AccessLink)
class AccessLinkAdmin(admin.ModelAdmin):
    """Support looks a link up by sale or id-usuario; links are made by the API only."""

    inlines = [DocumentDownloadInline]

    list_display = ["created_at", "channel", "sale", "user_reference", "expires_at",
                    "exchanged_at", "situation"]
    list_select_related = ["sale__channel"]
    search_fields = ["=sale__id", "=user_reference"]
    list_filter = ["sale__channel"]
    fields = ["sale", "user_reference", "created_at", "expires_at", "exchanged_at", "ended_at"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="canal")
    def channel(self, link):
        return link.sale.channel

    @admin.display(description="situação")
    def situation(self, link):
        if link.ended_at:
            return "Sessão encerrada"
        if link.expires_at <= timezone.now():
            return "Expirado"
        return "Em uso" if link.exchanged_at else "Não usado"
