"""Anonymising one claim, or one sale, in one transaction, with its evidence.

The claim's row is locked first and everything is checked again under the lock: its
clock (run out, no hold) and its evidence (not anonymised yet). Two workers on one claim
therefore queue on the lock and the second finds the evidence and does nothing; the
evidence's one-per-claim constraint would refuse it anyway.
"""

import datetime as dt
from collections import Counter

from dateutil.relativedelta import relativedelta
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from claims.models import Claim, Event, Sale
from privacy import clock
from privacy.forgetting.claim_data import scrub_texts, scrub_claim, secrets_of, secrets_of_sale
from privacy.forgetting.other_data import scrub_other_apps
from privacy.forgetting.redaction import ANONYMISED_CPF, ANONYMISED_NAME
from privacy.models import Anonymisation, DataRequest, LegalHold, RetentionRun
from privacy.requests.delivery import forget_exports
from whitelabel.models import AccessLink

RETENTION_RULE = ("Circular SUSEP 605/2020 (guarda dos registros de sinistros pelo prazo "
                  "de {years} anos) e LGPD, arts. 15 e 16 (término do tratamento): "
                  "anonimização após o fim do prazo, sem retenção legal ativa.")


def retention_rule() -> str:
    return RETENTION_RULE.format(years=clock.years())


@transaction.atomic
def anonymise_claim(claim: Claim, *, run: RetentionRun | None = None,
                    data_request: DataRequest | None = None, rule: str | None = None,
                    today: dt.date | None = None) -> Anonymisation | None:
    """Replace the claim's personal data with placeholders everywhere it went, delete its
    files and letters' PDFs, and write the evidence. None when, under the lock, the claim
    is already anonymised or its clock no longer allows it (a hold placed meanwhile).

    On a person's request (``data_request``) the clock is not read: the request's answer
    decided what need not be kept."""
    locked = Claim.objects.select_for_update().select_related("sale").get(pk=claim.pk)
    if Anonymisation.objects.filter(claim=locked).exists():
        return None
    ended_on = None
    if data_request is None:
        state = clock.clock_for(locked, today=today)
        if not state.run_out:
            return None
        ended_on = state.ends_on
    secrets = secrets_of(locked)  # before any column changes
    removed = Counter()
    scrub_claim(locked, secrets, removed)
    scrub_other_apps(locked, secrets, removed)
    # A person's stored exports (LGPD art. 18) are copies of what just ended.
    exports = forget_exports(cpfs=[key for key in secrets.replacements
                                   if len(key) == 11 and key.isdigit()])
    if exports:
        removed["exportacoes_de_titulares"] += exports
    return Anonymisation.objects.create(
        claim=locked, run=run, data_request=data_request, clock_ended_on=ended_on,
        rule=rule or retention_rule(), removed=dict(sorted(removed.items())),
        anonymised_at=timezone.now())


def sale_ends_on(sale: Sale) -> dt.date:
    return sale.valid_until + relativedelta(years=clock.years())


def sale_is_held(sale: Sale) -> bool:
    """An active hold on the sale or on its insured's CPF (one query)."""
    return LegalHold.objects.filter(released_at__isnull=True).filter(
        Q(sale=sale) | Q(cpf=sale.insured_cpf)).exists()


def sale_may_end(sale: Sale, *, today: dt.date) -> bool:
    """A sale ends after its own term (the end of its coverage plus the retention
    years), when every one of its claims has ended, and no hold keeps it."""
    if sale_ends_on(sale) > today or sale_is_held(sale):
        return False
    return not Claim.objects.filter(sale=sale).exclude(
        Exists(Anonymisation.objects.filter(claim=OuterRef("pk")))).exists()


@transaction.atomic
def anonymise_sale(sale: Sale, *, run: RetentionRun | None = None,
                   data_request: DataRequest | None = None, rule: str | None = None,
                   today: dt.date | None = None) -> Anonymisation | None:
    """The insured person's data on the sale (and the hosted pages' links of the sale),
    with the evidence; None when already done or no longer allowed under the lock."""
    today = today or timezone.localdate()
    locked = Sale.objects.select_for_update().get(pk=sale.pk)
    if Anonymisation.objects.filter(sale=locked).exists():
        return None
    if data_request is None and not sale_may_end(locked, today=today):
        return None
    secrets = secrets_of_sale(locked)
    removed = Counter()
    links = AccessLink.objects.filter(sale=locked)
    removed["links_de_acesso"] += links.update(payment_details={}, user_reference="")
    locked.insured_name = ANONYMISED_NAME
    locked.insured_cpf = ANONYMISED_CPF
    locked.insured_email = ""
    locked.insured_phone_area_code = ""
    locked.insured_phone_number = ""
    locked.save()  # Sale.save folds search_name from the placeholder
    removed["venda"] += 1
    _events_of_sale(locked, secrets, removed)
    return Anonymisation.objects.create(
        sale=locked, run=run, data_request=data_request,
        clock_ended_on=None if data_request else sale_ends_on(locked),
        rule=rule or retention_rule(), removed=dict(sorted(removed.items())),
        anonymised_at=timezone.now())


def _events_of_sale(sale: Sale, secrets, removed) -> None:
    """The events of the sale's claims were cleaned with each claim; a claim of another
    sale never names this insured person, so nothing else is searched."""
    scrub_texts(Event.objects.filter(claim__sale=sale), secrets, ["details"], removed, "eventos",
           json_fields=("details",))
