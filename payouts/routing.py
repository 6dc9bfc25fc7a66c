"""Which paying account pays a payment, and how (its form in the file)."""

from claims.models import Payment
from payouts.cnab240.types import Form
from payouts.models import PayingAccount


def account_for(payment: Payment, accounts: list[PayingAccount] | None = None
                ) -> PayingAccount | None:
    """The most specific active account: channel and coverage, then channel, then
    coverage, then the default; None when none is configured (the order waits, and the
    dashboard says so). Ties go to the oldest account."""
    if accounts is None:
        accounts = list(PayingAccount.objects.filter(is_active=True)
                        .prefetch_related("channels").order_by("pk"))
    claim = payment.claim
    channel_id, coverage = claim.channel_id, claim.coverage.name

    def rank(account: PayingAccount) -> int | None:
        channels = {c.pk for c in account.channels.all()}
        by_channel = channel_id in channels
        by_coverage = coverage in (account.coverages or [])
        if channels and not by_channel or account.coverages and not by_coverage:
            return None
        if by_channel and by_coverage:
            return 0
        if by_channel:
            return 1
        if by_coverage:
            return 2
        return 3 if account.is_default else None

    ranked = [(r, account.pk, account) for account in accounts if (r := rank(account)) is not None]
    return min(ranked, key=lambda item: item[:2])[2] if ranked else None


def form_of(payment_method: dict, account: PayingAccount | None) -> Form:
    method = payment_method["method"]
    if method == "pix":
        return Form.PIX_KEY if "key" in payment_method["pix"] else Form.PIX_ACCOUNT
    if method == "ted":
        same = account is not None and payment_method["ted"]["bank"] == account.bank
        return Form.SAME_BANK if same else Form.TED
    if method == "boleto":
        return Form.BOLETO
    return Form.PIX_BRCODE
