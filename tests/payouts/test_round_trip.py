"""A claim's money from "registered" to "settled" with nobody typing bank data: the
remittance goes to the local bank (a real process on the outbox and inbox folders), its
return comes back through the beat's inbox reader; a refused payment is paid again from the
beneficiary's new data, and the claim is finalized."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from claims.models import Payment
from payouts.models import PaymentOrder
from payouts.services import cycle
from tests.payouts.conftest import register
from tests.support.lifecycle import acted

pytestmark = pytest.mark.usefixtures("local_media")
ROOT = Path(__file__).resolve().parents[2]
NEW_DATA = {
    "beneficiario": {"tipo": "outro", "nome": "Maria da Silva", "cpf-ou-cnpj": "52998224725",
                     "parentesco": "conjuge", "participacao": 100},
    "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "52998224725"}},
}


def the_bank_answers(bank_dirs, *extra: str) -> None:
    outbox, inbox = bank_dirs
    subprocess.run([sys.executable, "-m", "localdev.localbank", "--outbox", str(outbox),
                    "--inbox", str(inbox), "--once", *extra], cwd=ROOT, check=True,
                   timeout=60, capture_output=True)


def send_and_answer(bank_dirs, capsys, *extra: str) -> None:
    call_command("bank_remittance")
    assert capsys.readouterr().out.strip().endswith(".rem")
    the_bank_answers(bank_dirs, *extra)
    cycle.read_inbox()


def test_paid_settled_and_finalized_with_nobody_typing_bank_data(
        claim_in_regulation, boss, paying_account, bank_dirs, capsys, analyst, api):
    heir = claim_in_regulation.beneficiaries.get()
    payment = register(claim_in_regulation, boss, amount=str(claim_in_regulation.amount))

    send_and_answer(bank_dirs, capsys)

    payment.refresh_from_db()
    assert payment.status == "concluido"
    assert PaymentOrder.objects.get().status == "liquidada"
    claim = acted(analyst, claim_in_regulation, "finalizar", {"reason": "Pago."})
    assert claim.status == "finalizado"
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert body["pagamentos"][0]["id-transacao-financeira"].startswith("341:")
    assert heir.pk == payment.beneficiary_id


def test_a_refused_payment_is_paid_again_from_new_data(
        claim_in_regulation, boss, paying_account, bank_dirs, capsys, api):
    heir = claim_in_regulation.beneficiaries.get()
    heir.payment_method = {"method": "ted", "ted": {"bank": "237", "branch": "1",
                                                     "account": "4560", "account_check_digit": "1"}}
    heir.save()
    register(claim_in_regulation, boss)

    send_and_answer(bank_dirs, capsys, "--refuse-accounts-ending", "0")

    refused = Payment.objects.get()
    assert refused.status == "devolvido"
    assert "Agência/Conta Corrente/DV Inválido" in refused.return_reason
    response = api.post(f"/api/v1/sinistros/{claim_in_regulation.number}/detalhes-pagamento",
                        NEW_DATA, format="json")
    assert response.status_code == 200

    send_and_answer(bank_dirs, capsys, "--refuse-accounts-ending", "0")

    again = Payment.objects.get(replaces=refused)
    assert again.status == "concluido" and again.amount == refused.amount
    statuses = dict(PaymentOrder.objects.values_list("payment_id", "status"))
    assert statuses == {refused.pk: "recusada", again.pk: "liquidada"}


def test_an_order_the_bank_schedules_settles_on_a_later_return(
        claim_in_regulation, boss, paying_account, bank_dirs, capsys):
    register(claim_in_regulation, boss, amount="20000.00")

    send_and_answer(bank_dirs, capsys, "--schedule-above", "10000")
    assert PaymentOrder.objects.get().status == "agendada"

    # The bank's next file: the same remittance, answered again, now paid.
    outbox, _ = bank_dirs
    processed = outbox / "processados"
    for path in processed.glob("*.rem"):
        path.rename(outbox / path.name)
    the_bank_answers(bank_dirs)
    for path in bank_dirs[1].glob("*.ret"):  # a second answer to the same file: new name
        path.rename(path.with_name("segundo-" + path.name))
    cycle.read_inbox()

    assert PaymentOrder.objects.get().status == "liquidada"
    assert Payment.objects.get().status == "concluido"


def test_the_commands_say_what_they_did_and_running_them_again_changes_nothing(
        claim_in_regulation, boss, paying_account, bank_dirs, capsys, tmp_path):
    register(claim_in_regulation, boss)
    call_command("bank_remittance")
    first = capsys.readouterr().out
    assert "remessa nº 1, 1 ordem(ns), R$ 10.000,00" in first

    call_command("bank_remittance")
    assert "nenhuma ordem aguardando remessa" in capsys.readouterr().out

    the_bank_answers(bank_dirs)
    returned = next(bank_dirs[1].glob("*.ret"))
    call_command("bank_return", str(returned))
    assert "1 liquidada(s)" in capsys.readouterr().out
    call_command("bank_return", str(returned))
    assert "nada mudou" in capsys.readouterr().out


def test_one_return_that_fails_leaves_the_others_applied(
        claim_in_regulation, boss, paying_account, bank_dirs, capsys, monkeypatch):
    register(claim_in_regulation, boss)
    call_command("bank_remittance")
    the_bank_answers(bank_dirs)
    inbox = bank_dirs[1]
    (inbox / "AAA-quebrado.ret").write_bytes(b"x")
    real = cycle.returns.receive

    def fails_on_the_broken_one(*, content, filename, **kwargs):
        if filename.startswith("AAA"):
            raise RuntimeError("disk error")
        return real(content=content, filename=filename, **kwargs)

    monkeypatch.setattr(cycle.returns, "receive", fails_on_the_broken_one)
    said = cycle.read_inbox()

    assert said[0] == "AAA-quebrado.ret: erro, fica na pasta"
    assert (inbox / "AAA-quebrado.ret").exists()
    assert PaymentOrder.objects.get().status == "liquidada"


def test_one_account_whose_file_fails_never_stops_the_others(paying_account, monkeypatch,
                                                            bank_dirs):
    import datetime as dt

    from payouts.services import remittances
    from payouts.services.accounts import add_account
    from tests.payouts.conftest import INSURER_CNPJ, many_orders

    other = add_account(bank="237", branch="0001", account="12345-6", agreement="B1",
                        cnpj=INSURER_CNPJ, company_name="Seguradora Exemplo S.A.")
    many_orders(2, paying_account)
    many_orders(2, other)
    real = remittances.build

    def broken_for_the_first(*, account_id, **kwargs):
        if account_id == paying_account.pk:
            raise ValueError("layout")
        return real(account_id=account_id, **kwargs)

    monkeypatch.setattr(remittances, "build", broken_for_the_first)
    result = cycle.run(dt.datetime.fromisoformat("2026-11-27T12:00:00-03:00"))

    assert len(result["remittances"]) == 1 and result["remittances"][0].startswith("PAG237")
    assert set(PaymentOrder.objects.filter(account=paying_account)
               .values_list("status", flat=True)) == {"aguardando"}
