"""``manage.py load_financial_indexes FILE --series correcao|juros``: a series' monthly
rates (% per month) for the art. 88 charges of late payments, all or nothing.

The file is what the Banco Central's SGS exports (``data;valor``, ``01/09/2026;0,48``) or
plain ``mes,taxa`` (``2026-09,0.48``); docs/sro.md names the series and where to get them.
A month already loaded is replaced by the file's rate."""

import csv
import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from claims.models import FinancialIndex

_MONTH = [re.compile(r"^(?P<y>\d{4})-(?P<m>\d{2})(-01)?$"),
          re.compile(r"^(01/)?(?P<m>\d{2})/(?P<y>\d{4})$")]


def _month(text: str) -> dt.date:
    for pattern in _MONTH:
        found = pattern.match(text.strip())
        if found and 1 <= int(found["m"]) <= 12:
            return dt.date(int(found["y"]), int(found["m"]), 1)
    raise ValueError(f"mês ilegível: {text!r} (AAAA-MM ou DD/MM/AAAA)")


def _rate(text: str) -> Decimal:
    try:
        value = Decimal(text.strip().replace(",", "."))
    except InvalidOperation:
        raise ValueError(f"taxa ilegível: {text!r}") from None
    if not -100 < value < 100:
        raise ValueError(f"taxa fora do razoável para % ao mês: {text!r}")
    return value.quantize(Decimal("0.0001"))


class Command(BaseCommand):
    help = "Carrega as taxas mensais de uma série para os encargos do art. 88 (CSV)."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--series", required=True, choices=FinancialIndex.Series.values)

    def handle(self, *args, file: Path, series: str, **options):
        try:
            text = file.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise CommandError(f"Não foi possível ler {file}: {exc.strerror}.") from None
        dialect = ";" if ";" in text.splitlines()[0] else ","
        rows, problems = {}, []
        for number, row in enumerate(csv.reader(text.splitlines(), delimiter=dialect), start=1):
            if not row or not "".join(row).strip():
                continue
            if number == 1 and not any(ch.isdigit() for ch in row[0]):
                continue  # a header
            try:
                if len(row) != 2:
                    raise ValueError("duas colunas esperadas: mês e taxa")
                month = _month(row[0])
                if month in rows:
                    raise ValueError(f"mês {month:%m/%Y} repetido")
                rows[month] = _rate(row[1])
            except ValueError as exc:
                problems.append(f"linha {number}: {exc}")
        if problems:
            raise CommandError("Nada foi carregado. " + "; ".join(problems) + ".")
        with transaction.atomic():
            for month, rate in rows.items():
                FinancialIndex.objects.update_or_create(series=series, month=month,
                                                        defaults={"rate": rate})
        label = FinancialIndex.Series(series).label
        span = f" ({min(rows):%m/%Y} a {max(rows):%m/%Y})" if rows else ""
        self.stdout.write(f"{len(rows)} mês(es) de {label} carregados{span}.")
