"""``manage.py retention_run [--dry-run] [--today AAAA-MM-DD]``: anonymise the claims
whose retention clock ran out and that no legal hold keeps (docs/privacy-forgetting.md).
Prints claim numbers and counts, never a name."""

import argparse
import datetime as dt

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from privacy.forgetting import runs


def _day(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        # argparse turns this into the command's usage line and message, no traceback.
        raise argparse.ArgumentTypeError(f"data inválida: {value!r} (use AAAA-MM-DD)") from None


class Command(BaseCommand):
    help = ("Anonimiza os sinistros cujo prazo de guarda terminou e que nenhuma retenção "
            "legal mantém; --dry-run só lista o que seria anonimizado.")

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true",
                            help="Só listar o que seria anonimizado, sem alterar nada.")
        parser.add_argument("--today", type=_day, default=None,
                            help="Data de referência (AAAA-MM-DD); padrão: hoje. Uma data futura só "
                                 "com --dry-run.")

    def handle(self, *args, dry_run=False, today=None, **options):
        if today is not None and today > timezone.localdate() and not dry_run:
            # Reading the clocks on a later day would end records before their term.
            raise CommandError("Uma data futura só vale com --dry-run (para ver o que "
                               "sairá): anonimizar antes do fim do prazo de guarda "
                               "descumpriria a Circular SUSEP 605/2020.")
        outcome = runs.run_retention(today=today, dry_run=dry_run,
                                     started_by="operacao:retention_run")
        if outcome.locked_out:
            raise CommandError("Outra execução de retenção está em andamento; tente mais tarde.")
        run = outcome.run
        verb = "seria anonimizado" if dry_run else "anonimizado"
        title = "Simulação" if dry_run else "Execução"
        self.stdout.write(f"{title} {run.pk} de {run.today:%d/%m/%Y} "
                          f"(prazo de guarda: {run.retention_years} anos).")
        for number in outcome.claims:
            self.stdout.write(f"Sinistro {number}: {verb}.")
        for sale in outcome.sales:
            self.stdout.write(f"Venda {sale}: {verb[:-1]}a.")
        self.stdout.write(
            f"{len(outcome.claims)} sinistro(s) e {len(outcome.sales)} venda(s) "
            f"{'seriam anonimizados' if dry_run else 'anonimizados'}; "
            f"{outcome.held} sinistro(s) com prazo vencido mantido(s) por retenção legal.")
        if not dry_run:
            self.stdout.write(f"{run.files_deleted} arquivo(s) apagado(s) do armazenamento.")
