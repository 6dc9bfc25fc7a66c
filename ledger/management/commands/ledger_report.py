"""manage.py ledger_report --as-of 2026-11-15 [--out DIR]: the close's reports for any
day, closing nothing."""

import datetime as dt
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ledger.services import flash_report


class Command(BaseCommand):
    help = ("Gera o inventário da PSL, os movimentos do mês até a data e os triângulos "
            "numa data qualquer, sem fechar nada.")

    def add_arguments(self, parser):
        parser.add_argument("--as-of", required=True, dest="as_of",
                            help="A data, AAAA-MM-DD (ex.: 2026-11-15).")
        parser.add_argument("--out", type=Path, default=Path("."),
                            help="A pasta dos arquivos (padrão: a pasta atual).")

    def handle(self, *args, as_of, out, **options):
        try:
            day = dt.date.fromisoformat(as_of)
        except ValueError:
            raise CommandError(f"Data inválida: {as_of!r}. Use AAAA-MM-DD, por exemplo "
                               "2026-11-15.") from None
        for path in flash_report(day, out):
            self.stdout.write(str(path))
