"""``manage.py sro_status``: where the SRO registrations stand, the claims registered and
the submissions sent after their deadline, per month of the deadline; with ``--check``
it exits 1 when any is late, refused or incomplete, for a cron or a monitoring probe
(docs/sro.md, "Operators"). One sent late is history, not an alarm: it never fails the
check."""

from decimal import Decimal

from django.conf import settings
from django.core.management.base import BaseCommand

from claims.formatting import percent
from sro.overview import Period, lateness, lateness_by_month, overview


def period_words(period: Period) -> str:
    """``11/2026: 3 de 118 enviados (2,54%); 2 ainda não enviados após o prazo``."""
    if not period.due:
        return f"{period.label}: nenhum prazo"
    share = (f" ({percent(Decimal(100 * period.sent_late) / period.sent)})"
             if period.sent else "")
    return (f"{period.label}: {period.sent_late} de {period.sent} enviado"
            f"{'s' if period.sent != 1 else ''}{share}; {period.late_unsent} ainda não "
            f"enviado{'s' if period.late_unsent != 1 else ''} após o prazo")


class Command(BaseCommand):
    help = "Situação dos registros SRO: na fila, atrasados, recusados, incompletos."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="Sai com código 1 se houver registro atrasado, recusado "
                                 "ou incompleto.")

    def handle(self, *args, check=False, **options):
        figures = overview()
        if not settings.SRO_API_URL:
            self.stdout.write("Nenhuma registradora configurada (SRO_API_URL vazio): os "
                              "registros são guardados, não enviados.")
        if settings.SUSEP_CODIGO_SEGURADORA == "00000":
            self.stdout.write("O código SUSEP da seguradora é o de exemplo (00000): defina "
                              "SUSEP_CODIGO_SEGURADORA.")
        self.stdout.write(f"Na fila de envio: {figures.pending}")
        late = f"Atrasados: {figures.late}"
        if figures.oldest_late_deadline:
            late += f" (prazo mais antigo: {figures.oldest_late_deadline:%d/%m/%Y})"
        self.stdout.write(late)
        self.stdout.write(f"Recusados pela registradora: {figures.refused}")
        self.stdout.write(f"Incompletos (sem códigos ou dados): {figures.incomplete}")
        kept = lateness()
        self.stdout.write(f"Sinistros registrados na registradora: {kept.registered_claims}")
        self.stdout.write("Enviados com atraso (aceitos depois do dia do prazo), pela data "
                          "do prazo:")
        for period in [kept.recent, *lateness_by_month()]:
            self.stdout.write(f"  {period_words(period)}")
        if check and figures.needs_attention:
            self.stderr.write("SRO: há registros que precisam de atenção.")
            raise SystemExit(1)
