"""``manage.py refresh_banks FILE``: replace the table of banks with a newer one."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from claims.banks import forget_banks, read_table
from claims.models import Bank


class Command(BaseCommand):
    help = (
        "Atualiza a tabela de bancos (COMPE e ISPB) a partir de um CSV: o bancos.csv do "
        "conjunto BancosBrasileiros ou uma tabela no formato de claims/data/banks.csv."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="Arquivo CSV com a tabela de bancos.")

    def handle(self, *args, file: Path, **options):
        if not file.is_file():
            raise CommandError(f"Arquivo não encontrado: {file}")
        try:
            rows = read_table(file)
        except (ValueError, UnicodeDecodeError) as error:
            raise CommandError(str(error)) from None
        if not rows:
            raise CommandError(f"{file} não tem nenhum banco: nada foi alterado.")
        ispbs = [row["ispb"] for row in rows]
        if len(set(ispbs)) != len(ispbs):
            raise CommandError(f"{file} repete um ISPB: nada foi alterado.")
        with transaction.atomic():
            before = Bank.objects.count()
            # Payments keep the code they were made with, not a reference to this table,
            # so banks that left the list can go.
            Bank.objects.exclude(ispb__in=ispbs).delete()
            Bank.objects.bulk_create([Bank(**row) for row in rows], update_conflicts=True,
                                     unique_fields=["ispb"],
                                     update_fields=["compe", "name", "short_name"])
        forget_banks()
        self.stdout.write(f"Tabela de bancos atualizada: {len(rows)} bancos (antes {before}).")
