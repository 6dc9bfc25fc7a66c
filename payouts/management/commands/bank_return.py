"""Apply a bank's CNAB 240 return file."""

import hashlib
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from payouts.models import BankReturn
from payouts.services import returns


class Command(BaseCommand):
    help = ("Aplica um arquivo de retorno CNAB 240 do banco: liquida, agenda ou devolve cada "
            "ordem. Pode ser rodado de novo com o mesmo arquivo: nada muda.")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        try:
            content = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"Não foi possível ler {file}: {exc.strerror or exc}") from None
        before = BankReturn.objects.filter(status=BankReturn.Status.APPLIED,
                                           sha256=hashlib.sha256(content).hexdigest()).first()
        row = returns.receive(content=content, filename=file.name, source="comando")
        if row.status == BankReturn.Status.REFUSED:
            raise CommandError(f"Retorno recusado, nada aplicado: {row.problem}")
        if before is not None:
            self.stdout.write(f"{file.name}: já aplicado em {before.applied_at:%d/%m/%Y %H:%M}; "
                              "nada mudou.")
            return
        counts = Counter(row.lines.values_list("outcome", flat=True))
        self.stdout.write(
            f"{file.name}: retorno da remessa nº {row.remittance.sequence} aplicado: "
            f"{counts['liquidada']} liquidada(s), {counts['agendada']} agendada(s), "
            f"{counts['recusada']} recusada(s), {counts['divergente']} com valor divergente, "
            f"{counts['ignorada']} sem efeito.")
