"""Finding a bank as people type it: accents, capitals and punctuation aside, and the
retail banks (claims.banks.RETAIL_BANKS) before brokers and wholesale banks, in the
server's search and in the list the payment forms offer."""

import pytest

from claims.banks import all_banks, find_bank, forget_banks
from claims.forms import PaymentDetailsForm

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_bank_cache():
    forget_banks()
    yield
    forget_banks()


@pytest.mark.parametrize(("typed", "first"), [
    ("itau", "341"), ("ITAU", "341"), ("Itaú", "341"), ("bradesco", "237"),
    ("caixa", "104"), ("santander", "033"), ("nubank", "260"), ("banco do brasil", "001"),
])
def test_the_bank_people_mean_comes_first(typed, first):
    assert find_bank(typed)[0].compe == first


def test_retail_banks_come_before_the_others_of_the_same_name():
    found = [bank.compe for bank in find_bank("itau")]

    assert found[0] == "341" and "652" in found  # the holding company: after
    assert found.index("341") < found.index("652")


def test_the_forms_list_offers_retail_banks_first():
    labels = [bank.label for bank in all_banks()]

    assert labels[:4] == ["001 Banco do Brasil S.A.", "104 Caixa Econômica Federal",
                          "237 Banco Bradesco S.A.", "341 ITAÚ UNIBANCO S.A."]
    assert len(labels) == len(set(labels))  # every bank once


def test_the_forms_field_carries_the_names_people_use():
    html = str(PaymentDetailsForm()["banco"])

    assert 'data-bank-picker' in html
    assert '<option value="260 NU PAGAMENTOS S.A. - INSTITUIÇÃO DE PAGAMENTO" data-apelido="Nubank">' in html


def test_a_name_typed_for_several_banks_lists_the_retail_one_first():
    form = PaymentDetailsForm(data={"metodo_pagamento": "ted", "banco": "itau"})
    form.is_valid()

    assert "escolha um na lista" in form.errors["banco"][0]
    assert "(341 ITAÚ UNIBANCO S.A.;" in form.errors["banco"][0]
