"""Write the due remittances now, on any day (only the beat keeps to business days)."""

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from claims.formatting import brl
from payouts.models import PayingAccount, Remittance
from payouts.services import remittances

ACTOR = "operacao:bank_remittance"


class Command(BaseCommand):
    help = ("Gera agora a remessa CNAB 240 de cada conta pagadora (ou de --account) com as "
            "ordens que aguardam remessa, e a entrega em BANK_OUTBOX_DIR; a data de pagamento "
            "no arquivo é o próximo dia útil. Pode ser rodado de novo: sem ordens novas, nada "
            "é gerado. Acima de BANK_REMITTANCE_RELEASE_LIMIT, a remessa aguarda a liberação "
            "da tesouraria.")

    def add_arguments(self, parser):
        parser.add_argument("--account", help="Nome ou id da conta pagadora.")

    def handle(self, *args, account=None, **options):
        accounts = PayingAccount.objects.filter(is_active=True)
        if account:
            match = Q(name=account) | (Q(pk=int(account)) if account.isdigit() else Q())
            accounts = PayingAccount.objects.filter(match)
            if not accounts:
                raise CommandError(f"Conta pagadora não encontrada: {account}.")
        if not accounts:
            raise CommandError("Nenhuma conta pagadora ativa: crie uma com manage.py bank_account add.")
        remittances.drop_released()
        for paying in accounts:
            remittance = remittances.build(account_id=paying.pk, actor=ACTOR)
            if remittance is None:
                self.stdout.write(f"{paying.name}: nenhuma ordem aguardando remessa.")
                continue
            what = (f"{paying.name}: remessa nº {remittance.sequence}, {remittance.orders_count} "
                    f"ordem(ns), {brl(remittance.total)}, pagamento em "
                    f"{remittance.payment_date:%d/%m/%Y}")
            if remittance.status == Remittance.Status.AWAITING_RELEASE:
                self.stdout.write(f"{what}: aguarda liberação da tesouraria (acima do limite).")
            else:
                remittance.refresh_from_db()
                path = remittances.drop(remittance.pk)
                self.stdout.write(f"{what}.")
                self.stdout.write(str(path))
