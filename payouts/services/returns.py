"""Returns: the bank's answer to a remittance, applied order by order.

A return is matched to its remittance by the paying account (bank, agreement, branch and
account, and our CNPJ) and the file sequence it answers; one that answers nothing we
sent, or names an order not in that file, is refused whole and nothing of it applied.
Each order is applied in its own transaction with a ``ReturnLine``: the same return again
changes nothing, and a crash halfway resumes at the first order not yet answered."""

import datetime as dt
import hashlib

from django.db import IntegrityError, transaction
from django.utils import timezone

from api_common.problem_types import ProblemError
from claims import services as claims_services
from claims.formatting import brl
from claims.models import Claim
from payouts import cnab240
from payouts.errors import ReturnRefused
from payouts.cnab240.types import LayoutError, ReturnFile, ReturnItem
from payouts.models import BankReturn, PayingAccount, PaymentOrder, Remittance, ReturnLine
from payouts.services.orders import mark

O = ReturnLine.Outcome


def receive(*, content: bytes, filename: str, source: str, user=None,
            at: dt.datetime | None = None) -> BankReturn:
    """Keep ``content`` and apply it (or say why not, on the row). Idempotent by content:
    a file received again is the same row, resumed if its application was cut short.
    ``at``: when it arrived and is applied, now by default (the demo's past passes its own)."""
    sha = hashlib.sha256(content).hexdigest()
    existing = BankReturn.objects.filter(sha256=sha).first()
    if existing is not None:
        if existing.status == BankReturn.Status.APPLYING:
            apply(existing.pk, at=at)
            existing.refresh_from_db()
        return existing
    row = BankReturn(content=content, sha256=sha, filename=filename[:200], source=source,
                     received_by=user, status=BankReturn.Status.REFUSED,
                     received_at=at or timezone.now())
    try:
        parsed = cnab240.read_return(content)
        row.remittance = _match(parsed)
        row.total_amount = parsed.total_amount
        row.status = BankReturn.Status.APPLYING
    except (LayoutError, ProblemError) as refusal:
        row.problem = str(getattr(refusal, "detail", "") or refusal)
    try:
        row.save()
    except IntegrityError:  # the same file, received at the same moment by another worker
        return BankReturn.objects.get(sha256=sha)
    if row.status == BankReturn.Status.APPLYING:
        apply(row.pk, at=at)
        row.refresh_from_db()
    return row


def _match(parsed: ReturnFile) -> Remittance:
    # The account by bank, branch and account number (a bank's flavour may leave the
    # agreement out of the header, e.g. Itaú: docs/cnab240.md); the agreement when given.
    agreement = parsed.agreement.strip()
    account = next((a for a in PayingAccount.objects.filter(bank=parsed.bank).order_by("pk")
                    if _same_number(a.branch, parsed.branch)
                    and _same_number(a.account, parsed.account)
                    and (not agreement or a.agreement == agreement)), None)
    if account is None:
        raise _refused(f"Nenhuma conta pagadora nossa no banco {parsed.bank}, agência "
                       f"{parsed.branch}, conta {parsed.account}"
                       + (f", convênio {parsed.agreement.strip()}." if parsed.agreement.strip() else "."))
    if parsed.company_tax_id != account.company_tax_id:
        raise _refused(f"O CNPJ do retorno ({parsed.company_tax_id}) não é o da conta "
                       f"pagadora ({account.company_tax_id}).")
    remittance = account.remittances.filter(sequence=parsed.sequence).first()
    if remittance is None or remittance.status not in (Remittance.Status.DROPPED,
                                                         Remittance.Status.ANSWERED):
        raise _refused(f"Não enviamos a remessa nº {parsed.sequence} da conta {account.name}: "
                       "o retorno não responde a nada nosso.")
    sent = set(remittance.lines.filter(live=True).values_list("order__reference", flat=True))
    strangers = [item.reference for item in parsed.items if item.reference not in sent]
    if strangers:
        raise _refused(f"Ordens que não estão na remessa nº {parsed.sequence}: "
                       f"{', '.join(strangers[:5])}.")
    return remittance


def _same_number(ours: str, theirs: str) -> bool:
    """Branch and account numbers compare without their leading zeros."""
    return ours.lstrip("0") == theirs.strip().lstrip("0")


def _refused(detail: str) -> ReturnRefused:
    return ReturnRefused(detail)


def apply(bank_return_id, *, at: dt.datetime | None = None) -> None:
    bank_return = BankReturn.objects.select_related("remittance__account").get(pk=bank_return_id)
    parsed = cnab240.read_return(bytes(bank_return.content))
    orders = dict(PaymentOrder.objects.filter(reference__in=[i.reference for i in parsed.items])
                  .values_list("reference", "pk"))
    done = set(bank_return.lines.values_list("order_id", flat=True))
    bank = bank_return.remittance.account.bank
    for item in parsed.items:
        if orders[item.reference] not in done:
            _apply_item(bank_return, orders[item.reference], item, bank, at=at)
    with transaction.atomic():
        BankReturn.objects.filter(pk=bank_return.pk).update(
            status=BankReturn.Status.APPLIED, applied_at=at or timezone.now())
        Remittance.objects.filter(pk=bank_return.remittance_id).update(
            status=Remittance.Status.ANSWERED)


@transaction.atomic
def _apply_item(bank_return: BankReturn, order_id, item: ReturnItem, bank: str, *,
                at: dt.datetime | None) -> None:
    # The house's lock order: the claim first, then its rows (a manual settlement takes
    # the claim, then the order: taking them the other way round could deadlock).
    list(Claim.objects.select_for_update(of=("self",))
         .filter(payments__order__pk=order_id).values_list("pk", flat=True))
    order = PaymentOrder.objects.select_for_update().get(pk=order_id)
    if ReturnLine.objects.filter(bank_return=bank_return, order=order).exists():
        return
    codes = "".join(item.occurrences)
    words = cnab240.describe(item.occurrences)
    kind = cnab240.outcome(item.occurrences)
    actor = f"banco:{bank}"
    outcome, note = O.IGNORED, ""
    if order.status in (PaymentOrder.Status.SETTLED, PaymentOrder.Status.REFUSED,
                        PaymentOrder.Status.CANCELLED):
        note = f"A ordem já estava {order.get_status_display().lower()}: sem efeito."
    elif kind == "settled" and item.amount != order.amount:
        outcome = O.DIVERGENT
        note = (f"O banco pagou {brl(item.amount)}; a ordem é de {brl(order.amount)}. "
                "Não liquidado: um supervisor confere.")
        mark(order, PaymentOrder.Status.DIVERGENT, bank_occurrences=codes, bank_reason=note,
             effective_amount=item.amount, effective_date=item.paid_on,
             bank_reference=item.bank_reference, at=at)
    elif kind == "settled":
        outcome, note = _settle(order, item, bank, codes, actor, at=at)
    elif kind == "scheduled":
        outcome = O.SCHEDULED
        mark(order, PaymentOrder.Status.SCHEDULED, bank_occurrences=codes, bank_reason=words,
             bank_reference=item.bank_reference, at=at)
    else:
        outcome = O.REFUSED
        reason = f"{words} (ocorrência {', '.join(item.occurrences)} do banco)"
        claims_services.return_payment(payment_id=order.payment_id, reason=reason, actor=actor,
                                       at=at)
        mark(order, PaymentOrder.Status.REFUSED, bank_occurrences=codes, bank_reason=reason,
             at=at)
    ReturnLine.objects.create(bank_return=bank_return, order=order, occurrences=codes,
                              outcome=outcome, amount=item.amount, paid_on=item.paid_on,
                              note=note, applied_at=at or timezone.now())


def _settle(order, item: ReturnItem, bank: str, codes: str, actor: str, *, at):
    transaction_id = f"{bank}:{item.bank_reference.strip() or order.reference}"
    try:
        with transaction.atomic():
            claims_services.settle_payment(payment_id=order.payment_id,
                                           transaction_id=transaction_id,
                                           paid_on=item.paid_on, user=None, actor=actor, at=at)
    except ProblemError as refusal:
        note = f"O banco pagou, mas a liquidação foi recusada: {refusal.detail}"
        mark(order, PaymentOrder.Status.DIVERGENT, bank_occurrences=codes, bank_reason=note,
             effective_amount=item.amount, effective_date=item.paid_on,
             bank_reference=item.bank_reference, at=at)
        return O.DIVERGENT, note
    mark(order, PaymentOrder.Status.SETTLED, bank_occurrences=codes, bank_reason="",
         effective_amount=item.amount, effective_date=item.paid_on,
         bank_reference=item.bank_reference, at=at)
    return O.SETTLED, ""
