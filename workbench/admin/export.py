"""Exportar: the claim list as it is on screen (queue, filters, search, order), as a CSV
file for a spreadsheet.

- The rows come from the admin's own ChangeList built from the list's query string, so
  the file holds exactly what the list pages through; no filter is written twice.
- Streamed: a server-side cursor read in chunks (``iterator``), lines sent as they are
  written, so memory stays flat and the statements are the same for 10 rows or 100,000.
- For a spreadsheet in pt-BR: ``;`` between fields, a UTF-8 BOM (Excel reads the accents),
  headers in Portuguese, dates ``dd/mm/aaaa``, money as plain numbers with a decimal
  comma (``1234,56``: no ``R$`` and no thousands dots, so it sums), status, coverage,
  nature and Aguardando in words.
- The first decision on cover: its date and how many days after the art. 86 deadline it
  came (``0`` in time; empty before any decision), so a spreadsheet sums the late ones.
- The insured person's CPF is whole (``529.982.247-25``: punctuated, so a spreadsheet
  keeps it as text with its leading zeros) only for holders of ``claims.export_full_cpf``
  (supervisors); everyone else gets it masked, ``***.982.247-**`` (docs/workbench.md).
- Every export is logged on ``claims.export``: who, what the list showed, how many rows;
  and the claims it wrote are recorded as read (``claims.signals.personal_data_read``,
  kind ``exportacao``, LGPD art. 37) when the download ends, in one signal.
"""

import csv
import logging

from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ERROR_FLAG
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed, HttpResponseRedirect, StreamingHttpResponse
from django.urls import path, reverse
from django.utils import timezone

from workbench.admin.filters import QueueFilter
from claims.coverages import coverage_label
from claims.formatting import person, tax_id
from claims.models import Claim
from claims.permissions import Permission
from claims.regulatory_clock import ClockKind
from claims.signals import ReadKind, data_read
from claims.validators import mask_tax_id
from claims.workflow import CLOSED_STATUSES

logger = logging.getLogger("claims.export")

CHUNK = 2000  # rows per fetch from the cursor
LINES_PER_WRITE = 500  # lines per piece handed to the server
# Not in the file: long texts and JSON nobody reads in a spreadsheet.
UNREAD = ("narrative", "additional_data", "denial_reason", "search_text", "alerts")

HEADERS = [
    "Número do sinistro", "Status", "Aguardando", "Segurado", "CPF do segurado",
    "Id da venda", "Canal", "Cobertura", "Natureza", "Solicitante", "Contato", "Valor (R$)",
    "Saldo devedor (R$)", "Data da ocorrência", "Data do aviso", "Prazo regulatório",
    "Prazo vence em", "Prazo suspenso", "Dias em aberto", "Responsável", "Equipe",
    "Decidido em", "Dias de atraso na decisão",
]
_CLOCK_WORDS = {ClockKind.DECISION: "decisão", ClockKind.PAYMENT: "pagamento"}


def number(value) -> str:
    """``Decimal("1234.5")`` -> ``1234,50``; None -> empty."""
    return "" if value is None else f"{value:.2f}".replace(".", ",")


def date(value) -> str:
    """A moment as its local date, ``dd/mm/aaaa``; None -> empty."""
    return "" if value is None else f"{timezone.localdate(value):%d/%m/%Y}"


def text(value: str) -> str:
    """Free text as typed by channels and insured people, never as a formula: a cell
    starting with ``=``, ``+``, ``-`` or ``@`` would run in the analyst's spreadsheet
    (CSV injection), so it gets a leading apostrophe, which spreadsheets hide."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def row(claim: Claim, *, whole_cpf: bool, today) -> list[str]:
    sale = claim.sale
    is_open = claim.status not in CLOSED_STATUSES
    return [
        claim.number,
        claim.get_status_display(),
        claim.get_awaiting_display(),
        text(sale.insured_name),
        tax_id(sale.insured_cpf) if whole_cpf else mask_tax_id(sale.insured_cpf),
        str(sale.pk),
        text(claim.channel.name),
        coverage_label(claim.coverage.name),
        claim.get_nature_display(),
        text(claim.requester_name),
        text(claim.contact_name),
        number(claim.amount),
        number(claim.outstanding_balance),
        date(claim.occurred_at),
        date(claim.notified_at),
        _CLOCK_WORDS.get(claim.clock_kind, ""),
        date(claim.clock_deadline),
        "sim" if claim.clock_paused else "não",
        str((today - timezone.localdate(claim.notified_at)).days) if is_open else "",
        text(person(claim.owner)) if claim.owner_id else "Sem responsável",
        text(claim.team.name) if claim.team_id else "",
        date(claim.decided_at),
        "" if claim.decided_late_days is None else str(claim.decided_late_days),
    ]


class _Lines:
    """csv.writer's file: hands each written line back instead of keeping it."""

    def write(self, line: str) -> str:
        return line


class ExportView:
    """Mixed into ClaimAdmin: ``exportar/`` and its view."""

    def export_urls(self):
        return [path("exportar/", self.admin_site.admin_view(self.export_view),
                     name="claims_claim_export")]

    def export_view(self, request):
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        try:
            changelist = self.get_changelist_instance(request)
        except IncorrectLookupParameters:
            # What the list itself does with a parameter it cannot read.
            return HttpResponseRedirect(
                f"{reverse('admin:claims_claim_changelist')}?{ERROR_FLAG}=1")
        claims = changelist.queryset.select_related("team").defer(*UNREAD)
        whole_cpf = request.user.has_perm(Permission.EXPORT_FULL_CPF.perm)
        shown = _what_the_list_shows(request, changelist)
        response = StreamingHttpResponse(
            _csv_lines(claims, whole_cpf=whole_cpf, user=request.user, shown=shown),
            content_type="text/csv; charset=utf-8")
        stamp = f"{timezone.localtime():%Y%m%d-%H%M}"
        response["Content-Disposition"] = f'attachment; filename="sinistros-{stamp}.csv"'
        return response


def _what_the_list_shows(request, changelist) -> dict:
    """The query string as the list read it, with the queue actually applied (a queue
    left unchosen is the person's default, which the query string does not say)."""
    shown = {key: values[0] if len(values) == 1 else values
             for key, values in request.GET.lists()}
    for spec in changelist.filter_specs:
        if isinstance(spec, QueueFilter):
            shown[spec.parameter_name] = spec.value()
    return shown


def _csv_lines(claims, *, whole_cpf: bool, user, shown: dict):
    writer = csv.writer(_Lines(), delimiter=";")
    today = timezone.localdate()
    rows, finished, written = 0, False, []
    try:
        yield "\ufeff" + writer.writerow(HEADERS)
        lines = []
        for claim in claims.iterator(chunk_size=CHUNK):
            lines.append(writer.writerow(row(claim, whole_cpf=whole_cpf, today=today)))
            written.append(claim.pk)
            rows += 1
            if len(lines) == LINES_PER_WRITE:
                yield "".join(lines)
                lines.clear()
        yield "".join(lines)
        finished = True
    finally:
        # When the download ended (or was cut short), with what left the service.
        logger.info("claim list exported", extra={
            "user": user.get_username(), "rows": rows, "finished": finished,
            "whole_cpf": whole_cpf, "filters": shown})
        # What left the service, even when cut short.
        data_read(written, kind=ReadKind.EXPORT, user=user)
