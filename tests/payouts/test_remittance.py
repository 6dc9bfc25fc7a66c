"""The remittance: the due orders of one paying account in one CNAB 240 file, dropped
whole in the outbox, numbered without repeats or gaps, held above the release limit."""

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from claims import business_days
from payouts import errors
from payouts.models import PaymentOrder, Remittance, RemittanceLine
from payouts.services import remittances
from tests.payouts import cnab_reader
from tests.payouts.conftest import register
from tests.support.lifecycle import staff

pytestmark = pytest.mark.usefixtures("local_media", "bank_dirs")


def test_the_due_orders_go_in_one_file_dropped_in_the_outbox(
        claim_in_regulation, boss, paying_account, bank_dirs, django_capture_on_commit_callbacks):
    order = register(claim_in_regulation, boss).order

    with django_capture_on_commit_callbacks(execute=True):  # dropped once it commits
        remittance = remittances.build(account_id=paying_account.pk)

    outbox, _ = bank_dirs
    dropped = outbox / remittance.filename
    assert dropped.read_bytes() == bytes(remittance.content)
    assert dropped.stat().st_mode & 0o777 == 0o640  # bank data: no one else on the machine
    assert [p.name for p in outbox.glob("*.rem")] == [remittance.filename]
    assert not any((outbox / remittances.PARTIAL).iterdir())  # no temporary left
    kinds = cnab_reader.records(dropped.read_bytes())
    header = kinds[0][1]
    assert (header["bank"], header["tax_id"], header["sequence"]) == (
        "341", "11222333000181", "000001")
    segment_a = next(fields for kind, fields in kinds if kind == "A")
    assert segment_a["reference"] == order.reference
    assert segment_a["name"].strip() == "MARIA DA SILVA"
    assert int(segment_a["amount"]) == 1000000
    segment_b = next(fields for kind, fields in kinds if kind == "B")
    assert segment_b["pix_key"].strip() == "maria@example.com"
    order.refresh_from_db()
    assert order.status == "enviada"
    assert order.payment_date == business_days.add_business_days(timezone.localdate(), 1)
    assert remittance.status == "liberada"
    remittance.refresh_from_db()
    assert remittance.status == "enviada" and remittance.dropped_at is not None


def test_nothing_due_writes_nothing_and_takes_no_number(paying_account, bank_dirs):
    assert remittances.build(account_id=paying_account.pk) is None

    paying_account.refresh_from_db()
    assert paying_account.last_sequence == 0
    assert not bank_dirs[0].exists() or not any(bank_dirs[0].iterdir())


def test_sequences_never_repeat_and_have_no_gaps(claim_in_regulation, boss, paying_account,
                                                 monkeypatch):
    register(claim_in_regulation, boss, amount="1000.00")
    first = remittances.build(account_id=paying_account.pk)
    register(claim_in_regulation, boss, amount="1000.00")
    from payouts import cnab240

    monkeypatch.setattr(cnab240, "write_remittance",
                        lambda *a, **k: (_ for _ in ()).throw(OSError("disco cheio")))
    with pytest.raises(OSError):
        remittances.build(account_id=paying_account.pk)  # rolled back: no number taken
    monkeypatch.undo()
    second = remittances.build(account_id=paying_account.pk)

    assert (first.sequence, second.sequence) == (1, 2)


def test_an_order_is_in_at_most_one_live_remittance(claim_in_regulation, boss, paying_account):
    order = register(claim_in_regulation, boss).order
    remittance = remittances.build(account_id=paying_account.pk)

    with pytest.raises(IntegrityError), transaction.atomic():
        RemittanceLine.objects.create(remittance=remittance, order=order)


def test_above_the_limit_a_file_waits_for_a_second_treasury_user(
        claim_in_regulation, paying_account, bank_dirs, settings, boss,
        django_capture_on_commit_callbacks):
    settings.BANK_REMITTANCE_RELEASE_LIMIT = Decimal("5000.00")
    register(claim_in_regulation, boss)
    maker, checker = staff("tesoureira", None), staff("tesoureiro", None)

    remittance = remittances.build(account_id=paying_account.pk, user=maker)

    assert remittance.status == "aguardando-liberacao"
    assert not bank_dirs[0].exists() or not any(bank_dirs[0].iterdir())
    with pytest.raises(errors.RemittanceNotAllowed, match="não pode ser baixada"):
        remittances.download(remittance_id=remittance.pk, user=checker, ip="10.0.0.1")
    with pytest.raises(errors.RemittanceNotAllowed, match="Quem gerou a remessa não a libera"):
        remittances.release(remittance_id=remittance.pk, user=maker)
    with django_capture_on_commit_callbacks(execute=True):
        remittances.release(remittance_id=remittance.pk, user=checker)

    remittance.refresh_from_db()
    assert (remittance.status, remittance.released_by) == ("enviada", checker)
    assert (bank_dirs[0] / remittance.filename).exists()


def test_a_held_file_cancelled_gives_its_orders_to_the_next_one(
        claim_in_regulation, paying_account, settings, boss):
    settings.BANK_REMITTANCE_RELEASE_LIMIT = Decimal("5000.00")
    order = register(claim_in_regulation, boss).order
    held = remittances.build(account_id=paying_account.pk)

    remittances.cancel(remittance_id=held.pk, user=boss, reason="Conta errada na tesouraria.")

    order.refresh_from_db()
    assert order.status == "aguardando"
    settings.BANK_REMITTANCE_RELEASE_LIMIT = Decimal("50000.00")
    again = remittances.build(account_id=paying_account.pk)
    assert again.sequence == 2 and list(again.lines.values_list("order", flat=True)) == [order.pk]


def test_every_download_is_logged(claim_in_regulation, boss, paying_account):
    register(claim_in_regulation, boss)
    remittance = remittances.build(account_id=paying_account.pk)

    remittances.download(remittance_id=remittance.pk, user=boss, ip="10.0.0.9")

    log = remittance.downloads.get()
    assert (log.user, log.ip) == (boss, "10.0.0.9")


def test_a_committed_file_that_never_reached_the_outbox_is_dropped_by_the_next_run(
        claim_in_regulation, boss, paying_account, bank_dirs, monkeypatch):
    register(claim_in_regulation, boss)
    monkeypatch.setattr(remittances, "drop", lambda pk, **moment: None)  # the worker died after commit
    remittance = remittances.build(account_id=paying_account.pk)
    monkeypatch.undo()
    assert Remittance.objects.get(pk=remittance.pk).status == "liberada"

    assert remittances.drop_released() == 1

    assert (bank_dirs[0] / remittance.filename).read_bytes() == bytes(remittance.content)
    assert PaymentOrder.objects.get().status == "enviada"


def test_a_pix_key_no_bank_would_take_is_refused_before_sending_and_holds_up_nothing(
        claim_in_regulation, boss, paying_account):
    good = register(claim_in_regulation, boss, amount="1000.00").order
    bad = register(claim_in_regulation, boss, amount="1000.00").order
    bad.payment.payment_method_details = {"method": "pix", "pix": {"key": "sem formato"}}
    bad.payment.save()

    remittance = remittances.build(account_id=paying_account.pk)

    assert list(remittance.lines.values_list("order", flat=True)) == [good.pk]
    bad.refresh_from_db()
    bad.payment.refresh_from_db()
    assert bad.status == "recusada" and "verificada antes do envio" in bad.bank_reason
    assert bad.payment.status == "devolvido"
