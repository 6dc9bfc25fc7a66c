""""Fechamentos mensais": the months finance closed, each with its kept reports to
download, its summary (the PSL per ramo), its triangles as a table and a chart, and the
problems of a close that stopped. The close itself and the flash report are pages of
their own (ledger.admin.close_page); nobody adds, changes or deletes a close here."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from claims.formatting import actor_label, brl, local_moment, person
from ledger.admin import close_data
from ledger.admin.close_page import close_view, flash_view
from ledger.admin.common import file_response, is_finance, month_words
from ledger.admin.movements import FinanceReads
from ledger.models import MonthClose, Report

@admin.register(MonthClose)
class MonthCloseAdmin(FinanceReads, admin.ModelAdmin):
    list_display = ["month_link", "status", "psl_total", "paid_total", "movements_count",
                    "closed_by_words", "closed_at_words"]
    list_filter = ["status"]
    list_select_related = ["closed_by"]
    ordering = ["-month"]
    empty_value_display = "—"

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("fechar/", wrap(close_view), name="ledger_close_month"),
            path("relatorio-em-qualquer-data/", wrap(flash_view), name="ledger_flash_report"),
            path("<int:close_id>/relatorios/<int:report_id>/", wrap(self.download_view),
                 name="ledger_report_download"),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {"title": "Fechamentos mensais",
                                                 **(extra_context or {})})

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The close's page: read only, with its reports, summary and triangles."""
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        if not is_finance(request.user):
            raise PermissionDenied
        close = MonthClose.objects.select_related("closed_by").filter(pk=object_id).first()
        if close is None:
            raise Http404("Fechamento não encontrado.")
        context = {
            **self.admin_site.each_context(request), "opts": self.opts,
            "title": f"Fechamento de {month_words(close.month)}", "close": close,
            "month_words": month_words(close.month),
            **close_data.page_context(close),
        }
        return TemplateResponse(request, "admin/ledger/monthclose/detail.html", context)

    def download_view(self, request, close_id, report_id):
        """A kept report's bytes, as the close wrote them."""
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        if not is_finance(request.user):
            raise PermissionDenied
        report = get_object_or_404(Report, pk=report_id, close_id=close_id)
        return file_response(report.content, report.filename, report.file_format)

    @admin.display(description="mês", ordering="month")
    def month_link(self, obj):
        return format_html('<a href="{}">{}</a>',
                           reverse("admin:ledger_monthclose_change", args=[obj.pk]),
                           month_words(obj.month))

    @admin.display(description="PSL no último dia")
    def psl_total(self, obj):
        value = close_data.figures(obj).get("psl")
        return format_html('<span class="money">{}</span>', brl(value)) if value is not None else "—"

    @admin.display(description="pago no mês")
    def paid_total(self, obj):
        value = close_data.figures(obj).get("paid")
        return format_html('<span class="money">{}</span>', brl(value)) if value is not None else "—"

    @admin.display(description="movimentos no mês")
    def movements_count(self, obj):
        value = close_data.figures(obj).get("movements")
        return "—" if value is None else f"{value:,}".replace(",", ".")

    @admin.display(description="fechado por", ordering="closed_by")
    def closed_by_words(self, obj):
        return person(obj.closed_by) if obj.closed_by else actor_label(obj.actor)

    @admin.display(description="fechado em", ordering="closed_at")
    def closed_at_words(self, obj):
        return local_moment(obj.closed_at) if obj.closed_at else "—"
