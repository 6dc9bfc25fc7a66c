"""manage.py ledger_check: does every claim's ledger sum to what it owes?"""

from django.core.management.base import BaseCommand

from claims.formatting import brl
from ledger.check import differences


class Command(BaseCommand):
    help = ("Confere o livro de sinistros: a soma dos movimentos de cada sinistro é a sua "
            "reserva pendente. Sai com 1 e lista os sinistros que divergem.")

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=None,
                            help="Lista no máximo N sinistros divergentes.")

    def handle(self, *args, limit=None, **options):
        found = differences(limit=limit)
        if not found:
            self.stdout.write("Livro conferido: todo sinistro soma a sua reserva pendente.")
            return
        for row in found:
            self.stdout.write(f"{row.number}: reserva pendente {brl(row.owed)}, movimentos "
                              f"somam {brl(row.booked)} (diferença {brl(row.owed - row.booked)})")
        self.stderr.write(f"{len(found)} sinistro(s) com o livro divergente.")
        raise SystemExit(1)
