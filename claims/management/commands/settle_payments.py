"""Settle payments in bulk from the bank's return file (CSV)."""

import csv
import datetime as dt
import uuid
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from api_common.problem_types import ProblemError
from claims import services

COLUMNS = ("id-pagamento", "id-transacao-financeira", "data-pagamento")
# The history rows' author, "operacao:<command>". Rows written before the rename say
# "operacao:liquidar_pagamentos" and keep it (history is never rewritten): nothing reads
# the name but the timeline, where claims.formatting.OPERATIONS gives both the same words.
ACTOR = "operacao:settle_payments"


class Command(BaseCommand):
    help = (
        "Liquida pagamentos a partir do retorno do banco (CSV com cabeçalho "
        "id-pagamento,id-transacao-financeira,data-pagamento; data AAAA-MM-DD). "
        "Tudo ou nada: uma linha inválida é informada com seu número e nada é liquidado. "
        "Pode ser rodado de novo: pagamentos já liquidados pela mesma transação são ignorados."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        rows = self._read(file)
        problems: list[str] = []
        settled = unchanged = 0
        with transaction.atomic():
            for line, row in rows:
                parsed = self._parse(row)
                if isinstance(parsed, str):
                    problems.append(f"linha {line}: {parsed}")
                    continue
                try:
                    _, changed = services.settle_payment(
                        payment_id=parsed[0], transaction_id=parsed[1], paid_on=parsed[2],
                        user=None, actor=ACTOR,
                    )
                except ProblemError as refusal:
                    problems.append(f"linha {line}: {refusal.detail}")
                    continue
                settled += changed
                unchanged += not changed
            if problems:
                # Raising inside the block undoes every settlement of this file.
                raise CommandError(
                    "Nada foi liquidado. Corrija o arquivo:\n" + "\n".join(problems)
                )
        self.stdout.write(
            f"{len(rows)} linha(s): {settled} pagamento(s) liquidado(s), "
            f"{unchanged} já liquidado(s) pela mesma transação (ignorados)."
        )

    @staticmethod
    def _read(file: Path) -> list[tuple[int, dict]]:
        try:
            text = file.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            raise CommandError(f"Arquivo não encontrado: {file}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"Não foi possível ler {file}: {exc}") from None
        reader = csv.DictReader(text.splitlines())
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise CommandError(f"Cabeçalho esperado: {','.join(COLUMNS)}")
        # Line numbers as a spreadsheet shows them: the header is line 1.
        return [(index, row) for index, row in enumerate(reader, start=2)]

    @staticmethod
    def _parse(row: dict) -> tuple[uuid.UUID, str, dt.date] | str:
        if None in row or any(row.get(column) is None for column in COLUMNS):
            return "número de colunas diferente do cabeçalho."
        try:
            payment_id = uuid.UUID(row["id-pagamento"].strip())
        except ValueError:
            return f"id-pagamento inválido: {row['id-pagamento']!r}."
        transaction_id = row["id-transacao-financeira"].strip()
        if not transaction_id or len(transaction_id) > 100:
            return "id-transacao-financeira vazio ou com mais de 100 caracteres."
        try:
            paid_on = dt.date.fromisoformat(row["data-pagamento"].strip())
        except ValueError:
            return f"data-pagamento inválida (use AAAA-MM-DD): {row['data-pagamento']!r}."
        return payment_id, transaction_id, paid_on
