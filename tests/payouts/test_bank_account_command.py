"""manage.py bank_account: ops create the insurer's paying accounts and list them."""

import json

import pytest
from django.core.management import CommandError, call_command

from payouts.models import PayingAccount

pytestmark = pytest.mark.django_db
ITAU = ["add", "--bank", "341", "--branch", "1234", "--account", "56789-7", "--agreement",
        "PAGSEG01", "--cnpj", "11.222.333/0001-81", "--name", "Seguradora Exemplo S.A."]


def test_add_creates_the_account_and_says_so(capsys):
    call_command("bank_account", *ITAU, "--default")

    account = PayingAccount.objects.get()
    assert (account.bank, account.branch, account.account, account.account_digit) == (
        "341", "1234", "56789", "7")
    assert (account.company_tax_id, account.flavour, account.is_default) == (
        "11222333000181", "itau", True)
    assert "Conta pagadora criada" in capsys.readouterr().out


def test_json_output_and_routing_by_channel_and_coverage(capsys, channel):
    call_command("bank_account", *ITAU, "--channel", channel.slug, "--coverage",
                 "cobertura/morte", "--json")

    body = json.loads(capsys.readouterr().out)
    assert body["canais"] == [channel.slug] and body["coberturas"] == ["cobertura/morte"]
    call_command("bank_account", "list", "--json")
    assert json.loads(capsys.readouterr().out)[0]["convenio"] == "PAGSEG01"


@pytest.mark.parametrize("field, value, says", [
    ("--cnpj", "11222333000182", "--cnpj"),
    ("--bank", "34", "--bank: O banco é o código COMPE"),
    ("--account", "56789-77x", "--account"),
])
def test_bad_input_creates_nothing_and_names_the_option(field, value, says):
    args = list(ITAU)
    args[args.index(field) + 1] = value

    with pytest.raises(CommandError, match=says):
        call_command("bank_account", *args)

    assert not PayingAccount.objects.exists()


def test_an_unknown_channel_is_refused():
    with pytest.raises(CommandError, match="Canal desconhecido: nenhum"):
        call_command("bank_account", *ITAU, "--channel", "nenhum")


def test_a_second_default_takes_over_from_the_first():
    call_command("bank_account", *ITAU, "--default")
    other = list(ITAU)
    other[other.index("--account") + 1] = "11111-1"
    call_command("bank_account", *other, "--default")

    assert PayingAccount.objects.filter(is_default=True).get().account == "11111"
