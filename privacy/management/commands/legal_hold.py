"""manage.py legal_hold: place a legal hold from the shell, or list the holds.

Releasing is done in the admin only: it takes two people, and only the admin knows who
each one is (a shell's login is shared by whoever holds it)."""

import getpass

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from claims.models import Claim, Sale
from privacy.admin.common import actors_in_words
from privacy.errors import HoldRefused
from privacy.models import LegalHold
from privacy.services.holds import place_hold


class Command(BaseCommand):
    help = ("Coloca uma retenção legal (suspende o prazo de guarda de um sinistro, de uma "
            "venda ou de um CPF) ou lista as retenções. A liberação é feita no admin, por "
            "duas pessoas.")

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        place = actions.add_parser("place", help="Coloca uma retenção.")
        target = place.add_mutually_exclusive_group(required=True)
        target.add_argument("--claim", help="Número do sinistro (SIN-...).")
        target.add_argument("--sale", help="Id da venda.")
        target.add_argument("--cpf", help="CPF (com ou sem pontuação).")
        place.add_argument("--reason", required=True, help="Motivo da retenção.")
        place.add_argument("--reference", required=True,
                           help="Número do processo judicial ou administrativo (SUSEP).")
        listing = actions.add_parser("list", help="Lista as retenções.")
        listing.add_argument("--all", action="store_true",
                             help="Inclui as liberadas (por padrão, só as ativas).")

    def handle(self, *args, action, **options):
        if action == "place":
            self._place(**options)
        else:
            self._list(every=options["all"])

    def _place(self, *, claim=None, sale=None, cpf=None, reason, reference, **options):
        target = {}
        if claim:
            target["claim"] = Claim.objects.filter(number=claim.strip().upper()).first()
            if target["claim"] is None:
                raise CommandError(f"Sinistro {claim} não encontrado.")
        elif sale:
            try:
                target["sale"] = Sale.objects.filter(pk=sale.strip()).first()
            except Exception:  # not a UUID: Django's lookup says ValidationError
                target["sale"] = None
            if target["sale"] is None:
                raise CommandError(f"Venda {sale} não encontrada.")
        else:
            target["cpf"] = cpf
        try:
            hold = place_hold(reason=reason, reference=reference,
                              actor=f"operacao:{getpass.getuser()}", **target)
        except HoldRefused as refused:
            raise CommandError(refused.message) from None
        self.stdout.write(f"Retenção {hold.pk} colocada ({describe(hold)}): {hold.reference}.")

    def _list(self, *, every: bool):
        holds = LegalHold.objects.select_related("claim", "sale")
        if not every:
            holds = holds.filter(released_at__isnull=True)
        shown = 0
        holds = list(holds.order_by("placed_at", "id"))
        names = actors_in_words(hold.placed_by for hold in holds)
        for hold in holds:
            shown += 1
            state = (f"liberada em {timezone.localdate(hold.released_at):%d/%m/%Y}"
                     if hold.released_at
                     else "liberação pedida" if hold.release_requested_at else "ativa")
            self.stdout.write(f"{hold.pk}\t{describe(hold)}\t{hold.reference}\t"
                              f"colocada em {timezone.localdate(hold.placed_at):%d/%m/%Y} por "
                              f"{names[hold.placed_by]}"
                              f"\t{state}")
        if not shown:
            self.stdout.write("Nenhuma retenção ativa." if not every else "Nenhuma retenção.")


def describe(hold: LegalHold) -> str:
    if hold.claim_id:
        return f"sinistro {hold.claim.number}"
    if hold.sale_id:
        return f"venda {hold.sale_id}"
    return f"CPF {hold.cpf[:3]}.{hold.cpf[3:6]}.{hold.cpf[6:9]}-{hold.cpf[9:]}"
