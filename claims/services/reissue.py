"""Paying again a share whose payment the bank returned (claims.services.bank_returns),
once the beneficiary's new payment data are stored: by the system, for the amount and
charges that were approved (the decision stands; only where the money goes changed).
The new data passed every check of the door they came through
(claims.services.beneficiaries.inform_beneficiary: never the deceased, the shapes)."""

import datetime as dt

from django.utils import timezone

from claims import red_flags
from claims.formatting import brl
from claims.models import Beneficiary, Claim, Payment
from claims.workflow import ClaimStatus
from claims.services.moves import move
from claims.services.recording import record_move
from claims.shares import payee_of
from claims.workflow import Action

# Who pays a share again: no person typed anything.
REISSUE_ACTOR = "sistema:reemissao"


def reissue_returned(claim: Claim, beneficiary: Beneficiary, *, actor: str = REISSUE_ACTOR,
                     at: dt.datetime | None = None) -> list[Payment]:
    """Pay again, from ``beneficiary``'s new data, each of their payments the bank
    returned and nothing has replaced yet (the caller holds the claim's lock and has just
    stored the data). The amount and the art. 88 charges are the approved ones; the new
    payment goes out as any registered payment does (claims.signals.claim_moved). ``at``:
    the moment of the new data, now by default."""
    if not beneficiary.has_payment_data or claim.status in (ClaimStatus.FINALIZED,):
        return []
    returned = list(Payment.objects.select_for_update(of=("self",)).filter(
        beneficiary=beneficiary, status=Payment.Status.RETURNED, replaced_by__isnull=True))
    reissued = []
    for old in returned:
        payee = payee_of(beneficiary)
        from_status = move(claim, Action.REGISTER_PAYMENT)
        payment = Payment.objects.create(
            claim=claim, beneficiary=beneficiary, amount=old.amount, late_fine=old.late_fine,
            monetary_correction=old.monetary_correction, late_interest=old.late_interest,
            late_charges_basis=old.late_charges_basis, beneficiary_name=payee["name"],
            beneficiary_tax_id=payee["tax_id"], method=beneficiary.payment_method["method"],
            payment_method_details=beneficiary.payment_method,
            destination=red_flags.destination_of(beneficiary.payment_method),
            note=f"Reemissão do pagamento devolvido pelo banco ({old.return_reason})",
            registered_by=old.registered_by, proposed_by=old.proposed_by, replaces=old,
            created_at=at or timezone.now(),
        )
        record_move(claim, action=Action.REGISTER_PAYMENT, from_status=from_status, actor=actor,
               note=f"{brl(payment.total)} para {payee['name']}, com os novos dados de "
                    f"pagamento: reemissão do pagamento que o banco devolveu.",
               subject=payment, at=payment.created_at)
        reissued.append(payment)
    return reissued
