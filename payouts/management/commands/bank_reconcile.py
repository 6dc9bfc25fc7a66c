"""``manage.py bank_reconcile --date D [--json]``: the day's reconciliation with the bank
(payouts.reconciliation, the "Conciliação" page's figures): per paying account and per
file the orders sent, settled, refused, divergent and still open past the limit, and the
day's settled sum against the returns' trailers. With ``--check`` it exits 1 when the sums
differ or an order is late, for a cron or a monitoring probe."""

import datetime as dt
import json
from decimal import Decimal

from django.core.management.base import BaseCommand, CommandError

from claims.formatting import brl
from payouts.reconciliation import Figures, Reconciliation, reconcile

CENTS = Decimal("0.01")


def figures_words(figures: Figures) -> str:
    return (f"{figures.sent} enviada(s) ({brl(figures.sent_total)}), {figures.settled} "
            f"liquidada(s) ({brl(figures.settled_total)}), {figures.refused} recusada(s), "
            f"{figures.divergent} divergente(s), {figures.open} em aberto, "
            f"{figures.late} atrasada(s)")


def figures_json(figures: Figures) -> dict:
    return {"enviadas": figures.sent, "valor-enviado": _money(figures.sent_total),
            "liquidadas": figures.settled, "valor-liquidado": _money(figures.settled_total),
            "recusadas": figures.refused, "divergentes": figures.divergent,
            "em-aberto": figures.open, "atrasadas": figures.late}


def as_json(result: Reconciliation) -> dict:
    return {
        "data": result.day.isoformat(),
        "dias-uteis-para-atraso": result.late_after,
        "total": figures_json(result.figures),
        "contas": [{
            "conta": account.name,
            **figures_json(account.figures),
            "arquivos": [{"nsa": row.remittance.sequence, "arquivo": row.remittance.filename,
                          "data-pagamento": row.remittance.payment_date.isoformat(),
                          "situacao": row.remittance.status, **figures_json(row.figures)}
                         for row in account.files],
        } for account in result.accounts],
        "dias": [{"data": row.day.isoformat(), "liquidado": _money(row.settled),
                  "trailers": _money(row.trailers), "retornos": row.returns,
                  "diferenca": _money(row.difference), "confere": row.matches}
                 for row in result.days],
    }


class Command(BaseCommand):
    help = "Conciliação com o banco de um dia: ordens por conta e arquivo, liquidado x trailers."

    def add_arguments(self, parser):
        parser.add_argument("--date", required=True, help="O dia (AAAA-MM-DD).")
        parser.add_argument("--json", action="store_true", help="Saída em JSON.")
        parser.add_argument("--check", action="store_true",
                            help="Sai com 1 se as somas não conferem ou há ordem atrasada.")

    def handle(self, *args, date: str, json: bool = False, check: bool = False, **options):
        try:
            day = dt.date.fromisoformat(date)
        except ValueError:
            raise CommandError(f"Data inválida: {date} (use AAAA-MM-DD).") from None
        result = reconcile(day)
        if json:
            self.stdout.write(_dumps(as_json(result)))
        else:
            self._write_text(result)
        if check and (result.differing_days or result.figures.late):
            raise SystemExit(1)

    def _write_text(self, result: Reconciliation) -> None:
        out = self.stdout.write
        out(f"Conciliação de {result.day:%d/%m/%Y} (atraso: mais de {result.late_after} "
            "dias úteis após a data de pagamento)")
        if not result.accounts:
            out("Nenhuma remessa com pagamento nesse dia nem ordens em aberto.")
        for account in result.accounts:
            out(f"{account.name}: {figures_words(account.figures)}")
            for row in account.files:
                remittance = row.remittance
                out(f"  {remittance.filename} (NSA {remittance.sequence}, pagamento "
                    f"{remittance.payment_date:%d/%m/%Y}, {remittance.get_status_display()}): "
                    f"{figures_words(row.figures)}")
        for row in result.days:
            words = (f"{row.day:%d/%m/%Y}: liquidado {brl(row.settled)}; trailers dos "
                     f"{row.returns} retorno(s) aplicados {brl(row.trailers)}")
            if row.matches:
                out(words + " — confere.")
            else:
                out(words + f" — NÃO CONFERE: diferença de {brl(row.difference)}.")


def _money(value: Decimal) -> str:
    # Two places whatever the database's sum gave (SQLite's drops them: "300").
    return str(Decimal(value).quantize(CENTS))


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
