"""`manage.py settle_payments FILE`: settle payments from the bank's return file."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from claims.formatting import actor_label
from claims.models import ClaimHistory, Event, Payment
from tests.support.factories import ClaimFactory, PaymentFactory

pytestmark = pytest.mark.django_db
HEADER = "id-pagamento,id-transacao-financeira,data-pagamento\n"


@pytest.fixture
def payments():
    claim = ClaimFactory(status="em-regulacao", amount=Decimal("5000.00"))
    return [PaymentFactory(claim=claim, amount=Decimal("1000.00")) for _ in range(3)]


def run(tmp_path, text: str) -> str:
    file = tmp_path / "retorno.csv"
    file.write_text(text, encoding="utf-8")
    out = StringIO()
    call_command("settle_payments", str(file), stdout=out)
    return out.getvalue()


def csv_for(payments, day=None) -> str:
    day = (day or timezone.localdate()).isoformat()
    return HEADER + "".join(f"{p.pk},E{i:030d},{day}\n" for i, p in enumerate(payments))


def test_every_line_settles_its_payment_with_its_event(tmp_path, payments):
    out = run(tmp_path, csv_for(payments))

    assert "3 linha(s): 3 pagamento(s) liquidado(s), 0 já liquidado(s)" in out
    assert set(Payment.objects.values_list("status", flat=True)) == {"concluido"}
    events = Event.objects.filter(name="sinistro-pagamento-concluido")
    assert events.count() == 3
    assert {e.details["id-transacao-financeira"] for e in events} == {
        f"E{i:030d}" for i in range(3)}


def test_running_the_same_file_again_changes_nothing(tmp_path, payments):
    run(tmp_path, csv_for(payments))

    out = run(tmp_path, csv_for(payments))

    assert "0 pagamento(s) liquidado(s), 3 já liquidado(s) pela mesma transação" in out
    assert Event.objects.filter(name="sinistro-pagamento-concluido").count() == 3


def test_a_bad_line_is_reported_with_its_number_and_nothing_is_settled(tmp_path, payments):
    text = csv_for(payments[:2]) + "não-é-uuid,E9,2026-11-01\n" + \
        f"{payments[2].pk},E8,01/11/2026\n"

    with pytest.raises(CommandError) as refused:
        run(tmp_path, text)

    message = str(refused.value)
    assert "Nada foi liquidado" in message
    assert "linha 4: id-pagamento inválido" in message
    assert "linha 5: data-pagamento inválida (use AAAA-MM-DD)" in message
    assert not Payment.objects.filter(status="concluido").exists()
    assert not Event.objects.exists()


def test_a_line_the_service_refuses_undoes_the_whole_file(tmp_path, payments):
    tomorrow = timezone.localdate() + timezone.timedelta(days=1)
    text = csv_for(payments[:2]) + f"{payments[2].pk},E7,{tomorrow.isoformat()}\n"

    with pytest.raises(CommandError, match="linha 4: A data do pagamento deve estar entre"):
        run(tmp_path, text)

    assert not Payment.objects.filter(status="concluido").exists()


def test_a_transaction_already_used_by_another_payment_is_refused(tmp_path, payments):
    day = timezone.localdate().isoformat()
    text = HEADER + f"{payments[0].pk},E1,{day}\n{payments[1].pk},E1,{day}\n"

    with pytest.raises(CommandError, match="linha 3: A transação E1 já liquidou outro pagamento"):
        run(tmp_path, text)


def test_a_payment_settled_by_another_transaction_is_refused(tmp_path, payments):
    run(tmp_path, csv_for(payments[:1]))
    day = timezone.localdate().isoformat()

    with pytest.raises(CommandError, match="linha 2: O pagamento já foi liquidado pela transação"):
        run(tmp_path, HEADER + f"{payments[0].pk},OUTRA,{day}\n")


@pytest.mark.parametrize("text, message", [
    ("a,b\n1,2\n", "Cabeçalho esperado"),
    (HEADER + "00000000-0000-0000-0000-000000000000,E1,2026-11-01\n",
     "linha 2: Pagamento não encontrado"),
    (HEADER + "x,y\n", "linha 2: número de colunas diferente do cabeçalho"),
])
def test_malformed_files_say_what_is_wrong(tmp_path, text, message, payments):
    with pytest.raises(CommandError, match=message):
        run(tmp_path, text)


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="Arquivo não encontrado"):
        call_command("settle_payments", str(tmp_path / "nada.csv"))


def test_the_history_names_the_command_and_reads_as_the_old_name_did(tmp_path, payments):
    run(tmp_path, csv_for(payments[:1]))

    row = ClaimHistory.objects.get(action="liquidar-pagamento")
    assert row.actor == "operacao:settle_payments"
    # Rows the command wrote under its old name are never rewritten: both read alike.
    assert actor_label(row.actor) == actor_label("operacao:liquidar_pagamentos") == (
        "Operação (retorno do banco)")


# --- the old name, liquidar_pagamentos: an alias for one release -----------------------


def test_the_old_name_still_settles_and_says_on_stderr_it_is_deprecated(tmp_path, payments,
                                                                         capsys):
    file = tmp_path / "retorno.csv"
    file.write_text(csv_for(payments), encoding="utf-8")

    # No stdout/stderr given: the command writes to the process's own streams.
    call_command("liquidar_pagamentos", str(file))

    out, err = capsys.readouterr()
    assert "3 linha(s): 3 pagamento(s) liquidado(s)" in out
    assert set(Payment.objects.values_list("status", flat=True)) == {"concluido"}
    assert Event.objects.filter(name="sinistro-pagamento-concluido").count() == 3
    assert err.splitlines() == [
        "Aviso: o comando liquidar_pagamentos está obsoleto e será removido na próxima "
        "versão; use settle_payments (mesmos argumentos)."]


def test_the_old_name_refuses_a_bad_file_as_the_new_one_does(tmp_path, payments):
    with pytest.raises(CommandError, match="Arquivo não encontrado"):
        call_command("liquidar_pagamentos", str(tmp_path / "nada.csv"), stderr=StringIO())
