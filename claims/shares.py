"""What each beneficiary of a claim is owed, from the claim's value, the creditor's
outstanding balance and the shares: pure arithmetic, no database.

- Credit life (Res. CNSP 365/2018): the creditor first, up to the outstanding balance
  (within the claim's value).
- The rest is split by share (participação, percent). When the shares add up to 100%
  the amounts add up to the rest exactly: the cents that rounding leaves go one by one
  to the largest remainders (the largest-remainder method), so R$ 100,00 in three equal
  thirds is 33,34 + 33,33 + 33,33. Below 100% each amount is rounded down and the
  difference stays unallocated until the shares are completed.
- A held share is owed but not paid while held; it counts as done for finalizing.
"""

from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
WHOLE = Decimal("100")


@dataclass(frozen=True)
class Entitlement:
    beneficiary: object  # claims.models.Beneficiary
    due: Decimal
    paid: Decimal  # registered, settled or not

    @property
    def left(self) -> Decimal:
        return ZERO if self.beneficiary.is_held else max(self.due - self.paid, ZERO)

    @property
    def done(self) -> bool:
        """Nothing more to pay: the whole share paid, or the share held."""
        return self.beneficiary.is_held or self.paid >= self.due


def creditor_due(amount: Decimal, outstanding_balance: Decimal | None) -> Decimal:
    if outstanding_balance is None:
        return ZERO
    return max(min(outstanding_balance, amount), ZERO)


def split(rest: Decimal, shares: list[Decimal]) -> list[Decimal]:
    """``rest`` split by ``shares`` (percent), in the same order."""
    if not shares:
        return []
    exact = [rest * share / WHOLE for share in shares]
    floors = [value.quantize(CENT, rounding=ROUND_DOWN) for value in exact]
    if sum(shares) != WHOLE:
        return floors
    cents_left = int((rest - sum(floors)) / CENT)
    by_remainder = sorted(range(len(shares)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in by_remainder[:cents_left]:
        floors[i] += CENT
    return floors


def entitlements(*, amount: Decimal, outstanding_balance: Decimal | None, beneficiaries,
                 payments) -> list[Entitlement]:
    """Each beneficiary's due and paid amounts, in the beneficiaries' order. A
    beneficiary without a share (not yet given) is due nothing yet."""
    paid: dict = {}
    for payment in payments:
        # Returned by the bank, or cancelled before it was sent: it paid nothing.
        if getattr(payment, "status", "") in ("devolvido", "cancelado"):
            continue
        paid[payment.beneficiary_id] = paid.get(payment.beneficiary_id, ZERO) + payment.amount
    creditor = creditor_due(amount, outstanding_balance)
    sharing = [b for b in beneficiaries if b.kind != "credor" and b.share is not None]
    amounts = dict(zip((b.pk for b in sharing),
                       split(amount - creditor, [b.share for b in sharing]), strict=True))
    result = []
    for beneficiary in beneficiaries:
        if beneficiary.kind == "credor":
            due = creditor
        else:
            due = amounts.get(beneficiary.pk, ZERO)
        result.append(Entitlement(beneficiary, due, paid.get(beneficiary.pk, ZERO)))
    return result


def total_share(beneficiaries) -> Decimal:
    return sum((b.share for b in beneficiaries if b.kind != "credor" and b.share is not None),
               Decimal("0"))


def payee_of(beneficiary) -> dict:
    """Who a payment to ``beneficiary`` goes to by default: their legal representative
    when they have one (a minor), else themselves."""
    if beneficiary.representative_tax_id:
        return {"name": beneficiary.representative_name, "tax_id": beneficiary.representative_tax_id}
    return {"name": beneficiary.name, "tax_id": beneficiary.tax_id}


def fully_paid(claim) -> bool:
    """Every share paid (registered) or held, the shares at 100%."""
    beneficiaries = list(claim.beneficiaries.all())
    sharing = [b for b in beneficiaries if b.kind != "credor"]
    if not sharing or total_share(sharing) < WHOLE:
        return False
    return all(e.done for e in entitlements(
        amount=claim.amount, outstanding_balance=claim.outstanding_balance,
        beneficiaries=beneficiaries, payments=list(claim.payments.all())))
