"""Paying accounts from the command line (the admin edits them too)."""

import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from payouts.models import Flavour, PayingAccount
from payouts.services.accounts import add_account

FIELDS = {"bank": "--bank", "branch": "--branch", "account": "--account", "cnpj": "--cnpj",
          "channel": "--channel", "name": "--label"}


def as_dict(account: PayingAccount) -> dict:
    return {"id": account.pk, "nome": account.name, "banco": account.bank,
            "agencia": account.branch, "agencia-digito": account.branch_digit,
            "conta": account.account, "conta-digito": account.account_digit,
            "convenio": account.agreement, "cnpj": account.company_tax_id,
            "empresa": account.company_name, "layout": account.flavour,
            "padrao": account.is_default, "ativa": account.is_active,
            "canais": sorted(c.slug for c in account.channels.all()),
            "coberturas": account.coverages, "ultimo-nsa": account.last_sequence}


class Command(BaseCommand):
    help = ("Contas pagadoras da seguradora. `add` cria uma (banco, agência, conta, convênio, "
            "CNPJ e nome da empresa; quais pagamentos ela paga: canais, coberturas ou padrão); "
            "`list` mostra as que existem.")

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="verb", required=True)
        add = sub.add_parser("add", help="Cria uma conta pagadora.")
        add.add_argument("--bank", required=True, help="Código COMPE, 3 dígitos (341).")
        add.add_argument("--branch", required=True, help="Agência, com o dígito se houver (1234 ou 1234-5).")
        add.add_argument("--account", required=True, help="Conta com o dígito (56789-0).")
        add.add_argument("--agreement", required=True, help="Código do convênio com o banco.")
        add.add_argument("--cnpj", required=True, help="CNPJ da empresa pagadora.")
        add.add_argument("--name", required=True, help="Nome da empresa, como no banco.")
        add.add_argument("--label", default="", help="Como a tesouraria chama a conta.")
        add.add_argument("--flavour", choices=Flavour.values, default="",
                         help="Layout (padrão: o do banco, ou FEBRABAN).")
        add.add_argument("--default", action="store_true", help="Paga o que nenhuma outra reclama.")
        add.add_argument("--channel", action="append", default=[], help="Canal (slug) que ela paga.")
        add.add_argument("--coverage", action="append", default=[], help="Cobertura que ela paga.")
        add.add_argument("--json", action="store_true", dest="as_json")
        listing = sub.add_parser("list", help="Lista as contas pagadoras.")
        listing.add_argument("--json", action="store_true", dest="as_json")

    def handle(self, *args, verb, as_json=False, **options):
        if verb == "list":
            accounts = [as_dict(a) for a in PayingAccount.objects.prefetch_related("channels")]
            if as_json:
                self.stdout.write(json.dumps(accounts, ensure_ascii=False))
            for account in [] if as_json else accounts:
                self.stdout.write(f"{account['id']}: {account['nome']} (NSA {account['ultimo-nsa']})")
            return
        try:
            account = add_account(
                bank=options["bank"], branch=options["branch"], account=options["account"],
                agreement=options["agreement"], cnpj=options["cnpj"],
                company_name=options["name"], name=options["label"],
                flavour=options["flavour"], is_default=options["default"],
                channels=options["channel"], coverages=options["coverage"])
        except ValidationError as exc:
            lines = [f"{FIELDS.get(field, '--' + field)}: {' '.join(messages)}"
                     for field, messages in exc.message_dict.items()]
            raise CommandError("Conta não criada:\n" + "\n".join(lines)) from None
        if as_json:
            self.stdout.write(json.dumps(as_dict(account), ensure_ascii=False))
            return
        self.stdout.write(f"Conta pagadora criada: {account} (id {account.pk}, layout "
                          f"{account.get_flavour_display()}).")
