"""Finance's two actions on the books: "Fechar mês" (ledger.services.closing.freeze_month
in the request, then ledger.tasks.finish_close in a worker: keep its reports, reconcile its
entries) and "Relatório em
qualquer data" (ledger.services.closing.flash_report: the same reports at any date,
closing nothing). Both check ``ledger.finance`` before anything else; the close is a
POST with Django's CSRF token, and its refusal is the page's message, never an error
page."""

import datetime as dt

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone

from claims.services.moves import actor_for
from ledger import tasks
from ledger.admin import common
from ledger.errors import CloseRefused
from ledger.models import MonthClose, Report
from ledger.reports import files, movements, psl, triangles
from ledger.services import closing

# What a flash report offers (the close's reports but the entries, which are a close's).
FLASH_KINDS = [(kind, label) for kind, label in Report.Kind.choices
               if kind != Report.Kind.ENTRIES]


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
    form = CloseForm(request.POST)
    back = reverse("admin:ledger_close_month")
    if not form.is_valid():
        messages.error(request, "Mês inválido: abra de novo a página de fechamento.")
        return HttpResponseRedirect(back)
    month = form.cleaned_data["month"]
    words = common.month_words(month)
    actor = actor_for(request.user)
    try:
        close = closing.freeze_month(month, actor=actor)
    except CloseRefused as refusal:
        messages.error(request, f"O fechamento de {words} foi recusado: {refusal.message}")
        return HttpResponseRedirect(back)
    page = reverse("admin:ledger_monthclose_change", args=[close.pk])
    if close.status == MonthClose.Status.CLOSED:
        messages.info(request, f"{words.capitalize()} já estava fechado: nada mudou.")
        return HttpResponseRedirect(page)
    # The reports and the entries take minutes on a large book: a worker writes them
    # (ledger.tasks.finish_close); the month is frozen from now on.
    close_id, user_id = close.pk, request.user.pk
    transaction.on_commit(lambda: tasks.finish_close.delay(close_id, user_id, actor))
    messages.success(request, f"{words.capitalize()} congelado: nenhum movimento novo entra "
                              "nele. Os relatórios e os lançamentos estão sendo gerados; "
                              "atualize esta página em alguns instantes.")
    return HttpResponseRedirect(page)


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
            file = _flash_file(as_of, *wanted)
            if file is not None:
                return common.file_response(file.content, file.filename, file.file_format)
            messages.error(request, "Relatório desconhecido.")
        kinds = FLASH_KINDS
    return TemplateResponse(request, "admin/ledger/flash_report.html", {
        **admin.site.each_context(request), "title": "Relatório em qualquer data",
        "form": form, "kinds": kinds, "formats": ["csv", "xlsx"],
        "as_of": form.cleaned_data["as_of"] if kinds else None, "opts": MonthClose._meta})


def _flash_file(as_of: dt.date, kind: str, file_format: str) -> files.File | None:
    """One report of ``as_of``, built alone (the same builders as the close's and
    ``closing.flash_report``'s): a download costs its own report, not all four."""
    builders = {
        Report.Kind.PSL: lambda: psl.sheets(as_of),
        Report.Kind.MOVEMENTS: lambda: movements.sheets(as_of),
        Report.Kind.PAID_TRIANGLE: lambda: triangles.sheets(
            triangles.build(as_of, closing.TRIANGLE_MONTHS), "pago"),
        Report.Kind.INCURRED_TRIANGLE: lambda: triangles.sheets(
            triangles.build(as_of, closing.TRIANGLE_MONTHS), "incorrido"),
    }
    if kind not in builders or file_format not in ("csv", "xlsx"):
        return None
    # The main CSV and the XLSX (whose later sheets hold the totals), as a close keeps.
    for file in files.files_of(builders[kind]()):
        if file.file_format == file_format and not file.filename.endswith("-totais.csv"):
            return file
    return None
