"""Benchmark (not a test): the bank's files at 10,000 orders, each against its floor.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/payouts_files.py [--orders 10000] [--claims 100] [--rounds 3]

- Remittance: ``services.remittances.build`` of 10,000 waiting orders into one file (wall
  time, statements, peak Python memory) against the floor: the same file's lines written by
  ``cnab240.write_remittance`` from plain values, no database.
- Return: ``services.returns.receive`` of the bank's answer with "00" on every order (each
  order its own transaction, its payment settled through ``claims.services.settle_payment``)
  against the floor: ``cnab240.read_return`` of the same bytes, no database.

Each round writes fresh orders (in bulk, as tests/payouts/conftest.py ``many_orders`` does)
and times build, its floor, receive and its floor one after the other, so load from
elsewhere slows them alike; the medians of the rounds are printed, then one more round
with tracemalloc on for the build's peak memory and its floor's (tracemalloc slows Python
down: that round is not timed, and its file is not answered). The orders are spread over ``--claims`` claims (100 each by default): settling
locks the payment's claim and reads its payments' sums, so 10,000 payments on one claim
would measure a claim no insurer has.

PostgreSQL only (statements and commits are what the figure is about). Like
bench/api_statements.py it makes a ``test_``-prefixed scratch database from
``DATABASE_URL`` and drops it at the end. A file of 10,000 orders of R$ 100,00 is above
``BANK_REMITTANCE_RELEASE_LIMIT``: it is held, released by a second user and dropped, as
in production (not timed).
"""

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("CELERY_BROKER_URL", "memory://")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--orders", type=int, default=10_000)
    parser.add_argument("--claims", type=int, default=100, help="claims the orders are spread on")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL to a scratch database's server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            from django.conf import settings

            settings.MEDIA_ROOT, settings.DOCUMENT_STORAGE = Path(scratch) / "media", "local"
            settings.BANK_OUTBOX_DIR = Path(scratch) / "outbox"
            settings.BANK_INBOX_DIR = Path(scratch) / "inbox"
            run(args.orders, args.claims, args.rounds)
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


# --- measuring -------------------------------------------------------------------------


class Counter:
    """Django execute wrapper: statements sent, transaction control and savepoints apart
    (each order's transaction and settle_payment's savepoint are not work per row)."""

    def __init__(self):
        self.statements = self.control = 0

    def __call__(self, execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO")):
            self.control += 1
        else:
            self.statements += 1
        return execute(sql, params, many, context)


def counted(function):
    """(result, seconds, statements) of ``function()``."""
    counter = Counter()
    with connection.execute_wrapper(counter):
        started = time.perf_counter()
        result = function()
        seconds = time.perf_counter() - started
    return result, seconds, counter.statements


def timed(function):
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started


def peak(function) -> int:
    """Peak bytes Python allocated while ``function()`` ran."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- data ------------------------------------------------------------------------------


def heirs(claims: int) -> list:
    """``claims`` death claims, each with its heir (PIX key), in an open status."""
    from tests.support.factories import BeneficiaryFactory

    return [BeneficiaryFactory() for _ in range(claims)]


def waiting_orders(count: int, account, beneficiaries: list) -> None:
    """``count`` waiting orders of R$ 100,00, round robin over ``beneficiaries``' claims,
    written in bulk (the services register them one at a time, as analysts do)."""
    from claims.models import Payment
    from payouts.models import PaymentOrder

    pix = {"method": "pix", "pix": {"key": "maria@example.com"}}
    payments = Payment.objects.bulk_create(
        Payment(claim_id=heir.claim_id, beneficiary=heir, amount=Decimal("100.00"),
                beneficiary_name=heir.name, beneficiary_tax_id=heir.tax_id, method="pix",
                payment_method_details=pix, destination="pix:maria@example.com")
        for heir in (beneficiaries[i % len(beneficiaries)] for i in range(count)))
    orders = PaymentOrder.objects.bulk_create(
        PaymentOrder(payment=payment, account=account, amount=payment.amount, form="pix-chave")
        for payment in payments)
    for order in orders:
        order.reference = f"OP{order.pk:018d}"
    PaymentOrder.objects.bulk_update(orders, ["reference"], batch_size=2000)


def bank_answer(remittance) -> bytes:
    """The bank's return with "00" (paid today, the whole amount) on every order (the
    local bank's "Nosso Número" carries the file's sequence: each round's are its own)."""
    from django.utils import timezone

    from payouts import cnab240

    today = timezone.localdate()
    _, _, _, orders = cnab240.read_remittance(bytes(remittance.content))
    content = cnab240.write_return(
        bytes(remittance.content), generated_at=dt.datetime.combine(today, dt.time(18, 0)),
        outcomes={order.reference: (("00",), today, None) for order in orders})
    return content


# --- the run ---------------------------------------------------------------------------


def one_round(number: int, orders: int, account, beneficiaries: list, releaser,
              memory: bool = False) -> dict:
    from payouts import cnab240
    from payouts.models import PaymentOrder
    from payouts.services import remittances, returns
    from payouts.services.remittances import company_of

    waiting_orders(orders, account, beneficiaries)
    figures = {}
    if memory:
        holder = {}
        figures["build_peak"] = peak(lambda: holder.setdefault(
            "r", remittances.build(account_id=account.pk)))
        remittance = holder["r"]
    else:
        remittance, figures["build_s"], figures["build_q"] = counted(
            lambda: remittances.build(account_id=account.pk))
    assert remittance.orders_count == orders, remittance.orders_count
    # The floor: the same lines from plain values (read back from the file, so they are
    # exactly the orders build wrote), no database.
    company, sequence, generated_at, plain = cnab240.read_remittance(bytes(remittance.content))
    company = company_of(account)
    write = lambda: cnab240.write_remittance(company, sequence=sequence,  # noqa: E731
                                             generated_at=generated_at, orders=plain)
    if memory:
        figures["floor_peak"] = peak(write)
        return figures  # the return's memory is not among the figures: its orders wait
    content, figures["write_s"] = timed(write)
    assert content == bytes(remittance.content), "the floor wrote another file"
    if remittance.status == remittances.Remittance.Status.AWAITING_RELEASE:
        remittances.release(remittance_id=remittance.pk, user=releaser)
    remittance.refresh_from_db()
    assert remittance.status == remittances.Remittance.Status.DROPPED, remittance.status
    answer = bank_answer(remittance)
    row, figures["receive_s"], figures["receive_q"] = counted(
        lambda: returns.receive(content=answer, filename=f"r{number}.ret", source="bench"))
    assert row.status == "aplicado", (row.status, row.problem)
    _, figures["read_s"] = timed(lambda: cnab240.read_return(answer))
    settled = PaymentOrder.objects.filter(lines__remittance=remittance, status="liquidada").count()
    assert settled == orders, f"{settled} of {orders} settled"
    return figures


def run(orders: int, claims: int, rounds: int) -> None:
    from django.contrib.auth.models import User

    from payouts.services.accounts import add_account

    account = add_account(bank="341", branch="1234", account="56789-7", agreement="PAGSEG01",
                          cnpj="11222333000181", company_name="Seguradora Exemplo S.A.",
                          name="Itaú pagamentos", is_default=True)
    releaser = User.objects.create(username="bench-tesouraria-2", is_staff=True)
    beneficiaries = heirs(claims)
    print(f"{orders} orders on {claims} claims, {rounds} rounds; PostgreSQL "
          f"{connection.pg_version // 10000}")
    results = []
    for number in range(1, rounds + 1):
        figures = one_round(number, orders, account, beneficiaries, releaser)
        results.append(figures)
        print(f"round {number}: build {figures['build_s']:.2f} s ({figures['build_q']} statements), "
              f"write {figures['write_s']:.2f} s; receive {figures['receive_s']:.1f} s "
              f"({figures['receive_q']} statements), read {figures['read_s']:.2f} s", flush=True)
    memory = one_round(rounds + 1, orders, account, beneficiaries, releaser, memory=True)

    def median(key):
        return statistics.median(r[key] for r in results)

    per_k = 1000 / orders
    build_s, write_s = median("build_s"), median("write_s")
    receive_s, read_s = median("receive_s"), median("read_s")
    mib = 1024 * 1024
    print()
    print(f"medians of {rounds} rounds, {orders} orders")
    print(f"remittance  build  {build_s * per_k * 1000:8.1f} ms / 1,000 orders   "
          f"statements {median('build_q'):.0f} per file   peak {memory['build_peak'] / mib:.1f} MiB")
    print(f"            floor  {write_s * per_k * 1000:8.1f} ms / 1,000 orders   "
          f"(write_remittance, no database)    peak {memory['floor_peak'] / mib:.1f} MiB")
    print(f"            build/floor {build_s / write_s:.1f}")
    print(f"return      apply  {receive_s * per_k:8.2f} s / 1,000 orders    "
          f"statements {median('receive_q') / orders:.2f} per order")
    print(f"            floor  {read_s * per_k * 1000:8.1f} ms / 1,000 orders   "
          f"(read_return, no database)")
    print(f"            apply/floor {receive_s / read_s:.0f}")


if __name__ == "__main__":
    main()
