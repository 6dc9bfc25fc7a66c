"""What the bank's return does to a claim when it refuses a payment: the payment paid
nothing, the beneficiary's data were wrong, so the share is owed again and the claim asks
for new data; once they come, the share is paid again, by the system, for the amount
that was approved (the decision stands; only where the money goes changed).

The bank's file itself is read by the payouts app, which calls these services."""

import datetime as dt

from django.db import transaction

from claims import errors, red_flags
from claims.formatting import brl
from claims.models import Beneficiary, Payment
from claims.services.analysis import _join
from claims.services.beneficiaries import missing_payment_data
from claims.services.moves import lock_claim, move
from claims.services.recording import record_move, standard_event_details
from claims.workflow import Action, allows

@transaction.atomic
def return_payment(*, payment_id, reason: str, actor: str,
                   at: dt.datetime | None = None) -> tuple[Payment, bool]:
    """The bank refused ``payment`` for ``reason`` (its occurrences, in words).

    The payment is marked returned (it no longer counts towards the share), the
    beneficiary's payment data are cleared (they are what the bank refused), and the claim
    asks for new ones: the ``pendente-de-dados-de-pagamento`` move, its event naming what
    is missing and the bank's reason for the analyst and the channel. Idempotent: a payment
    already returned changes nothing (``False``); a settled one is never returned. ``at``:
    when the refusal is recorded, now by default (a bank return's own moment)."""
    claim_id = Payment.objects.filter(pk=payment_id).values_list("claim_id", flat=True).first()
    if claim_id is None:
        raise errors.PaymentNotAllowed("Pagamento não encontrado.")
    claim = lock_claim(claim_id=claim_id)
    payment = Payment.objects.select_for_update().select_related("beneficiary").get(pk=payment_id)
    if payment.status == Payment.Status.RETURNED:
        return payment, False
    if payment.status == Payment.Status.SETTLED:
        raise errors.PaymentAlreadySettled(
            f"O pagamento já foi liquidado pela transação {payment.financial_transaction_id}: "
            "uma devolução do banco não o desfaz.")
    payment.status = Payment.Status.RETURNED
    payment.return_reason = reason
    payment.save(update_fields=["status", "return_reason"])
    beneficiary = Beneficiary.objects.select_for_update().get(pk=payment.beneficiary_id)
    beneficiary.payment_method = None
    beneficiary.destination = ""
    beneficiary.save(update_fields=["payment_method", "destination"])
    said = (f"O banco devolveu o pagamento de {brl(payment.total)} a "
            f"{payment.beneficiary_name}: {reason}")
    missing = missing_payment_data(claim, list(claim.beneficiaries.all()))
    if allows(Action.REQUEST_PAYMENT_DATA, claim.status):
        from_status = move(claim, Action.REQUEST_PAYMENT_DATA)
        details = {**standard_event_details(claim), "dados-faltantes": missing,
                   # Beyond the contract's list (a compatible addition): why the bank refused.
                   "motivo-devolucao": reason}
        record_move(claim, action=Action.REQUEST_PAYMENT_DATA, from_status=from_status, actor=actor,
               note=_join(said, f"Faltam: {'; '.join(missing)}." if missing else ""),
               event_details=details, subject=payment, at=at)
    else:  # already waiting for payment data (another share's): the timeline says it
        record_move(claim, action=Action.REQUEST_PAYMENT_DATA, from_status=claim.status,
               actor=actor, note=said, emit_event=False, changed=(), subject=payment, at=at)
    red_flags.refresh(claim)
    return payment, True
