"""A claim with its heir named and a paying account, for the bank's tests."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission

from claims import roles, services
from payouts import roles as payouts_roles
from payouts.services.accounts import add_account
from tests.support.lifecycle import HEIR_DETAILS, acted, claim_under_review, staff

INSURER_CNPJ = "11222333000181"


@pytest.fixture(autouse=True)
def treasury_roles(request):
    """The roles as the migrations leave them: a transactional test elsewhere flushes the
    tables, and the claims roles rebuilt after it (tests.support.lifecycle.staff) carry
    none of the payouts permissions. Only for tests that use the database."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None and not {"db", "transactional_db"} & set(request.fixturenames):
        return
    transactional = marker is not None and marker.kwargs.get("transaction")
    request.getfixturevalue("transactional_db" if transactional else "db")
    if not Group.objects.filter(name=roles.SUPERVISOR).exists():
        roles.sync_roles(Group, Permission)
    payouts_roles.sync_roles(Group, Permission)


@pytest.fixture
def paying_account(db):
    """The insurer's default account at Itaú (341), branch 1234, account 56789-7."""
    return add_account(bank="341", branch="1234", account="56789-7", agreement="PAGSEG01",
                       cnpj=INSURER_CNPJ, company_name="Seguradora Exemplo S.A.",
                       name="Itaú pagamentos", is_default=True)


@pytest.fixture
def boss(db):
    """A supervisor (a user, for the services)."""
    return staff("sonia", roles.SUPERVISOR)


@pytest.fixture
def claim_in_regulation(analyst, api, sale):
    """A death claim in regulation whose heir Maria da Silva (100%, PIX maria@example.com)
    the channel named at opening."""
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    return acted(analyst, claim, "aprovar-documentacao")


def register(claim, user, amount="10000.00"):
    """Register a payment to the claim's heir (her stored data)."""
    heir = claim.beneficiaries.get()
    return services.register_payment(claim_id=claim.pk, beneficiary_id=heir.pk, user=user,
                                     amount=Decimal(amount))


@pytest.fixture
def bank_dirs(settings, tmp_path):
    """The outbox the bank's client picks files from and the inbox it leaves returns in."""
    settings.BANK_OUTBOX_DIR = tmp_path / "outbox"
    settings.BANK_INBOX_DIR = tmp_path / "inbox"
    return settings.BANK_OUTBOX_DIR, settings.BANK_INBOX_DIR


def answer(remittance, outcomes: dict, *, today=None) -> bytes:
    """The bank's return to ``remittance``: ``outcomes`` by reference, each (codes,
    amount or None); settled ones dated ``today``."""
    import datetime as dt

    from django.utils import timezone

    from payouts import cnab240

    today = today or timezone.localdate()
    return cnab240.write_return(
        bytes(remittance.content), generated_at=dt.datetime.combine(today, dt.time(18, 0)),
        outcomes={ref: (codes, today if codes == ("00",) else None, amount)
                  for ref, (codes, amount) in outcomes.items()})


def many_orders(count: int, account, *, amount="100.00") -> list:
    """``count`` waiting orders on one claim, written in bulk (for races and volume: the
    services make them one at a time)."""
    from claims.models import Payment
    from payouts.models import PaymentOrder
    from tests.support.factories import BeneficiaryFactory

    heir = BeneficiaryFactory()
    pix = {"method": "pix", "pix": {"key": "maria@example.com"}}
    payments = Payment.objects.bulk_create(
        Payment(claim=heir.claim, beneficiary=heir, amount=Decimal(amount),
                beneficiary_name=heir.name, beneficiary_tax_id=heir.tax_id, method="pix",
                payment_method_details=pix, destination="pix:maria@example.com")
        for _ in range(count))
    orders = PaymentOrder.objects.bulk_create(
        PaymentOrder(payment=payment, account=account, amount=payment.amount, form="pix-chave")
        for payment in payments)
    for order in orders:
        if order.pk is None:  # SQLite's bulk_create gives no ids back
            order.pk = PaymentOrder.objects.get(payment=order.payment).pk
        order.reference = f"OP{order.pk:018d}"
    PaymentOrder.objects.bulk_update(orders, ["reference"])
    return orders
