"""`manage.py settle_payments` (the bank's CSV) and its old name `liquidar_pagamentos`
were removed: for one release they do nothing and fail, pointing at the bank's CNAB 240
return (`manage.py bank_return`) and at the admin's "Liquidar pagamento" with a reason."""

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from claims.formatting import actor_label
from claims.models import ClaimHistory, Event, Payment
from tests.support.factories import ClaimFactory, PaymentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def return_csv(tmp_path) -> Path:
    """A file in the removed command's format, settling a registered payment."""
    payment = PaymentFactory(claim=ClaimFactory(status="em-regulacao",
                                                amount=Decimal("5000.00")))
    file = tmp_path / "retorno.csv"
    file.write_text("id-pagamento,id-transacao-financeira,data-pagamento\n"
                    f"{payment.pk},E1,{payment.created_at:%Y-%m-%d}\n", encoding="utf-8")
    return file


@pytest.mark.parametrize("name", ["settle_payments", "liquidar_pagamentos"])
def test_the_removed_command_settles_nothing_and_says_what_to_do_instead(name, return_csv):
    with pytest.raises(CommandError) as refusal:
        call_command(name, str(return_csv))

    message = str(refusal.value)
    assert message.startswith(f"O comando {name} foi removido e não faz mais nada.")
    assert "manage.py bank_return ARQUIVO" in message
    assert "“Liquidar pagamento”, com o motivo" in message
    assert set(Payment.objects.values_list("status", flat=True)) == {"registrado"}
    assert not ClaimHistory.objects.filter(action="liquidar-pagamento").exists()
    assert not Event.objects.filter(name="sinistro-pagamento-concluido").exists()


@pytest.mark.parametrize("name", ["settle_payments", "liquidar_pagamentos"])
def test_a_cron_line_still_naming_it_fails_with_the_message(name, tmp_path):
    # As cron runs it: a process of its own, whose exit status the scheduler sees.
    done = subprocess.run(
        [sys.executable, "manage.py", name, str(tmp_path / "retorno.csv")],
        cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "DJANGO_DEBUG": "true"})

    assert done.returncode == 1
    assert f"O comando {name} foi removido" in done.stderr
    assert "manage.py bank_return ARQUIVO" in done.stderr


def test_its_help_says_it_was_removed():
    from claims.management.commands.settle_payments import Command

    help_text = Command().create_parser("manage.py", "settle_payments").format_help()

    assert "Removido: O que foi pago por arquivo" in " ".join(help_text.split())


def test_history_rows_it_wrote_still_read_as_the_banks_return():
    # History is never rewritten: rows of either name keep reading as the same operation.
    assert actor_label("operacao:settle_payments") == "Operação (retorno do banco)"
    assert actor_label("operacao:liquidar_pagamentos") == "Operação (retorno do banco)"
