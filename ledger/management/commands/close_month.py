"""manage.py close_month 2026-11 [--out DIR]: close an accounting month."""

import datetime as dt
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from claims.formatting import brl
from ledger.errors import CloseRefused
from ledger.models import MonthClose
from ledger.services import close_month


def month_argument(text: str) -> dt.date:
    try:
        return dt.datetime.strptime(text, "%Y-%m").date()
    except ValueError:
        raise CommandError(f"Mês inválido: {text!r}. Use AAAA-MM, por exemplo 2026-11.") \
            from None


class Command(BaseCommand):
    help = ("Fecha o mês contábil: congela o mês (fatos posteriores dele vão para o mês "
            "seguinte) e guarda o inventário da PSL, os movimentos e os triângulos.")

    def add_arguments(self, parser):
        parser.add_argument("month", help="O mês, AAAA-MM (ex.: 2026-11).")
        parser.add_argument("--out", type=Path, default=None,
                            help="Grava também os arquivos dos relatórios nesta pasta.")

    def handle(self, *args, month, out=None, **options):
        first_day = month_argument(month)
        was_closed = MonthClose.objects.filter(
            month=first_day, status=MonthClose.Status.CLOSED).exists()
        try:
            close = close_month(first_day, actor="manage.py close_month", out=out)
        except CloseRefused as refusal:
            raise CommandError(refusal.message) from None
        summary = close.summary
        state = "já estava fechado" if was_closed else "fechado"
        self.stdout.write(f"Mês {close.month:%m/%Y} {state}: PSL de "
                          f"{brl(summary.get('psl_total', '0'))} em "
                          f"{summary.get('psl_claims', 0)} sinistro(s), "
                          f"{summary.get('movements', 0)} movimento(s).")
        for path in close.paths:
            self.stdout.write(str(path))
