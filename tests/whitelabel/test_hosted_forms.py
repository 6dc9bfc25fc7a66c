"""The hosted forms as a person meets them: a coverage already communicated is shown
with its claim, every mistake of a form in one round, and the payment section in plain
words, one method's fields at a time (the browser half is in test_browser_hosted_pages)."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from claims.models import Claim
from claims.workflow import ClaimStatus
from tests.support.factories import ClaimFactory
from tests.support.hosted import NEW, opening, post_form, text

JARGON = ("ISPB", "COMPE", "BR Code", "alfanumérico", "Credor", "EMV")


def jargon_in(page: str) -> list[str]:
    """The jargon the page shows, as words: a claim number may hold the letters EMV."""
    return [word for word in JARGON if re.search(rf"\b{re.escape(word)}\b", page)]


def errors_of(response) -> dict[str, list[str]]:
    """Field name -> its error messages, as drawn next to each field."""
    html = response.content.decode()
    return {name: re.findall(r"<li>(.*?)</li>", items)
            for name, items in re.findall(r'<ul class="errorlist" id="id_(.+?)_error">(.*?)</ul>',
                                          html, re.S)}


def test_a_coverage_with_a_claim_under_way_is_shown_as_communicated_with_its_link(insured, sale):
    existing = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                            status=ClaimStatus.PENDING_DOCUMENTS)
    ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/perda-de-renda"),
                 status=ClaimStatus.DENIED)  # closed: a new one may be communicated

    page = text(insured.get(NEW))

    assert f'Morte: já comunicado · <a href="/segurado/sinistros/{existing.number}">' \
           f'acompanhe o sinistro {existing.number}</a>' in page
    assert 'value="cobertura/morte"' not in page
    assert 'value="cobertura/perda-de-renda"' in page
    assert 'value="cobertura/invalidez-permanente"' in page
    # Asking for the communicated one by its address shows the chooser again.
    assert "já comunicado" in text(insured.get(NEW, {"cobertura": "cobertura/morte"}))
    refused = post_form(insured, NEW, opening())
    assert "já comunicado" in text(refused) and Claim.objects.count() == 2


def test_with_every_coverage_communicated_there_is_nothing_to_continue(insured, sale):
    for coverage in sale.coverages.all():
        ClaimFactory(sale=sale, coverage=coverage, status=ClaimStatus.UNDER_REGULATION)

    page = text(insured.get(NEW))

    assert page.count("já comunicado") == sale.coverages.count()
    assert "Continuar" not in page
    assert "Todas as coberturas do seu seguro já têm um sinistro em andamento" in page


def test_with_no_active_coverage_there_is_nothing_to_choose(insured, sale):
    sale.coverages.update(is_active=False)

    page = text(insured.get(NEW))

    assert "Nenhuma cobertura do seu seguro está ativa" in page
    assert "Continuar" not in page and "já comunicado" not in page


def test_every_mistake_of_the_opening_shows_in_one_round(insured, sale):
    data = opening(**{
        "requester_name": "",                      # the form's own check
        "contact_phone": "(10) 91234-5678",        # no DDD 10 (claims.phones)
        "requester_cpf": "529.982.247-24",         # the API serializer's check digits
        "occurred_at": "2019-05-01",               # the sale's validity
        "pagamento-metodo_pagamento": "pix",       # the payment section's checks
        "pagamento-beneficiario_nome": "",
        "pagamento-beneficiario_cpf_ou_cnpj": "11111111111",
    })

    response = post_form(insured, f"{NEW}?cobertura=cobertura/morte", data)

    errors = errors_of(response)
    assert set(errors) == {"requester_name", "contact_phone", "requester_cpf", "occurred_at",
                           "pagamento-beneficiario_nome", "pagamento-beneficiario_cpf_ou_cnpj",
                           "pagamento-pix_chave"}
    assert errors["occurred_at"] == ["Esta data está fora do período coberto pelo seu seguro "
                                     "(01/01/2025 a 31/12/2030)."]
    assert errors["pagamento-pix_chave"] == ["Informe a chave PIX ou os dados da conta."]
    assert all(len(messages) == 1 for messages in errors.values()), errors
    assert not Claim.objects.exists()


def test_pix_without_a_key_asks_for_the_key_or_the_account_not_for_bank_fields(insured, sale):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.PENDING_PAYMENT_DATA)
    page = f"/segurado/sinistros/{claim.number}/dados-pagamento"
    data = {"beneficiario_nome": "Maria da Silva", "beneficiario_parentesco": "conjuge",
            "beneficiario_cpf_ou_cnpj": "529.982.247-25", "metodo_pagamento": "pix"}

    response = post_form(insured, page, data)

    assert errors_of(response) == {"pix_chave": ["Informe a chave PIX ou os dados da conta."]}
    with_account = {**data, "banco": "00000000", "agencia": "1234", "conta": "56789",
                    "conta_digito": "0"}
    assert post_form(insured, page, with_account).status_code == 302
    heir = claim.beneficiaries.get()
    assert heir.payment_method["pix"]["bank_account"]["bank"] == "00000000"


@pytest.mark.parametrize("field, typed, words", [
    ("banco", "Banco Inexistente", "Banco não encontrado: digite parte do nome (ex.: Itaú)"),
    ("boleto", "1234", "Confira os números do boleto"),
    ("brcode", "000201xyz", "Este código PIX copia e cola está incompleto ou foi alterado"),
])
def test_the_payment_section_refuses_in_plain_words(insured, sale, field, typed, words):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.PENDING_PAYMENT_DATA)
    method = {"banco": "ted", "boleto": "boleto", "brcode": "pix-brcode"}[field]
    data = {"beneficiario_nome": "Maria da Silva",
            "beneficiario_cpf_ou_cnpj": "52998224725", "metodo_pagamento": method,
            "agencia": "1234", "conta": "5678", field: typed}

    response = post_form(insured, f"/segurado/sinistros/{claim.number}/dados-pagamento", data)

    assert list(errors_of(response)) == [field]
    assert words in errors_of(response)[field][0]
    assert jargon_in(text(response)) == []


def test_the_payment_section_is_in_plain_words_one_group_per_method(insured, sale):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.PENDING_PAYMENT_DATA)

    for url in (f"/segurado/sinistros/{claim.number}/dados-pagamento",
                f"{NEW}?cobertura=cobertura/invalidez-permanente"):
        page = text(insured.get(url))
        assert jargon_in(page) == [], url
        for words in ("Como receber", "Escolha uma forma", "Depósito em conta bancária",
                      "Pagamento de um boleto", "PIX copia e cola"):
            assert words in page
        # Who receives follows from the coverage: nobody picks "the insured" after a death.
        assert "O próprio segurado" not in page
        groups = re.findall(r'data-metodos="([^"]+)"', page)
        assert groups == ["pix", "pix ted", "boleto", "pix-brcode"]
        assert "whitelabel/payment" in page  # the script that shows one method at a time


def test_payment_data_typed_with_punctuation_at_opening_is_stored_as_digits(insured):
    data = opening(**{"pagamento-metodo_pagamento": "ted",
                      "pagamento-beneficiario_nome": "Empresa Ltda",
                      "pagamento-beneficiario_cpf_ou_cnpj": "11.222.333/0001-81",
                      "pagamento-banco": "Banco do Brasil", "pagamento-agencia": "1234-5",
                      "pagamento-conta": "56789-0"})

    response = post_form(insured, f"{NEW}?cobertura=cobertura/morte", data)

    assert response.status_code == 302, errors_of(response)
    heir = Claim.objects.get().beneficiaries.get()
    assert (heir.kind, heir.tax_id, heir.share) == ("outro", "11222333000181", 100)
    assert heir.payment_method["ted"] == {"bank": "001", "branch": "1234",
                                          "branch_check_digit": "5", "account": "56789",
                                          "account_check_digit": "0"}


def test_the_opening_date_is_checked_against_the_local_calendar(insured):
    tomorrow = (timezone.localdate() + dt.timedelta(days=1)).isoformat()

    response = post_form(insured, f"{NEW}?cobertura=cobertura/morte", opening(occurred_at=tomorrow))

    assert errors_of(response) == {"occurred_at": ["A data da ocorrência não pode estar no futuro."]}
