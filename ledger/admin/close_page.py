"""Finance's two actions on the books: "Fechar mês" (ledger.services.closing.close_month:
freeze the next month, keep its reports, reconcile its entries) and "Relatório em
qualquer data" (ledger.services.closing.flash_report: the same reports at any date,
closing nothing). Both check ``ledger.finance`` before anything else; the close is a
POST with Django's CSRF token, and its refusal is the page's message, never an error
page."""

import datetime as dt

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone

from claims.services.moves import actor_for
from ledger.admin import common
from ledger.admin.closes import file_response
from ledger.models import MonthClose, Report


class CloseForm(forms.Form):
    month = forms.DateField(input_formats=["%Y-%m"], widget=forms.HiddenInput)


class FlashForm(forms.Form):
    as_of = forms.DateField(label="Data", widget=forms.DateInput(attrs={"type": "date"}),
                            input_formats=["%Y-%m-%d", "%d/%m/%Y"],
                            help_text="O livro como estava no fim deste dia.")

    def clean_as_of(self):
        as_of = self.cleaned_data["as_of"]
        if as_of > timezone.localdate():
            raise forms.ValidationError("Escolha hoje ou uma data passada.")
        return as_of


def _finance(request) -> None:
    if not common.is_finance(request.user):
        raise PermissionDenied


def close_view(request):
    _finance(request)
    if request.method == "POST":
        return _close(request)
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET", "POST"])
    last = common.last_close()
    # A close that stopped (its entries did not reconcile) is finished by closing the
    # same month again once the cause is corrected.
    month = last.month if last and last.status == MonthClose.Status.FROZEN else \
        common.next_to_close()
    pending = common.months_to_close()
    return TemplateResponse(request, "admin/ledger/close_month.html", {
        **admin.site.each_context(request), "title": "Fechar mês",
        "month": month, "month_words": common.month_words(month),
        "month_value": f"{month:%Y-%m}", "retry": month == getattr(last, "month", None),
        "can_close": month < common.first_of_month(timezone.localdate()),
        "pending": [common.month_words(m) for m in pending], "last": last,
        "last_words": common.month_words(last.month) if last else "",
        "opts": MonthClose._meta})


def _close(request):
    from ledger.errors import CloseRefused
    from ledger.services.closing import close_month

    form = CloseForm(request.POST)
    back = reverse("admin:ledger_close_month")
    if not form.is_valid():
        messages.error(request, "Mês inválido: abra de novo a página de fechamento.")
        return HttpResponseRedirect(back)
    month = form.cleaned_data["month"]
    try:
        close = close_month(month, user=request.user, actor=actor_for(request.user))
    except CloseRefused as refusal:
        messages.error(request, f"O fechamento de {common.month_words(month)} foi recusado: "
                                f"{getattr(refusal, 'detail', None) or refusal}")
        return HttpResponseRedirect(back)
    close = MonthClose.objects.get(month=month) if not isinstance(close, MonthClose) else close
    files = list(Report.objects.filter(close=close).order_by("kind", "file_format")
                 .values_list("filename", flat=True))
    if close.status == MonthClose.Status.CLOSED:
        messages.success(request, f"{common.month_words(month).capitalize()} fechado. "
                                  f"Relatórios: {', '.join(files) or 'nenhum'}.")
    else:
        messages.warning(request, f"{common.month_words(month).capitalize()} congelado, mas o "
                                  "fechamento parou: veja as divergências abaixo.")
    return HttpResponseRedirect(reverse("admin:ledger_monthclose_change", args=[close.pk]))


def flash_view(request):
    """A date's reports, built when asked: the page lists them; a link downloads one."""
    _finance(request)
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    form = FlashForm(request.GET if "as_of" in request.GET else None,
                     initial={"as_of": timezone.localdate()})
    kinds = []
    if form.is_bound and form.is_valid():
        as_of = form.cleaned_data["as_of"]
        wanted = (request.GET.get("relatorio"), request.GET.get("formato"))
        if all(wanted):
            for report in _flash(as_of):
                if (report.kind, report.file_format) == wanted:
                    return file_response(report.content, report.filename, report.file_format)
            messages.error(request, "Relatório desconhecido.")
        kinds = [(kind, label) for kind, label in Report.Kind.choices
                 if kind != Report.Kind.ENTRIES]
    return TemplateResponse(request, "admin/ledger/flash_report.html", {
        **admin.site.each_context(request), "title": "Relatório em qualquer data",
        "form": form, "kinds": kinds, "formats": ["csv", "xlsx"],
        "as_of": form.cleaned_data["as_of"] if kinds else None, "opts": MonthClose._meta})


def _flash(as_of: dt.date):
    from ledger.services.closing import flash_report

    return flash_report(as_of)
