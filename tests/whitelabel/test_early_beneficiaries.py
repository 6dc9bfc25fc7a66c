"""On a death, the family names the heirs on the hosted pages at any step while the claim
is open, not only when the insurer asks, through the same service and checks; the claim
page shows who will be paid, their share and where it stands, the CPF masked as the API
masks it."""

import pytest
from django.db import connection
from django.utils import timezone
from django.test.utils import CaptureQueriesContext

from claims.models import ClaimHistory
from claims.workflow import ClaimStatus
from tests.support.factories import ClaimFactory, PaymentFactory
from tests.support.hosted import post_form, text

ANA = {"beneficiario_nome": "Ana Souza", "beneficiario_cpf_ou_cnpj": "529.982.247-25",
       "beneficiario_parentesco": "conjuge", "beneficiario_participacao": "50"}
BRUNO = {"beneficiario_nome": "Bruno Souza", "beneficiario_cpf_ou_cnpj": "111.444.777-35",
         "beneficiario_parentesco": "filho", "beneficiario_participacao": "50"}


def death(sale, status=ClaimStatus.DOCUMENTS_UNDER_REVIEW):
    return ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                        status=status, requester_name="Pedro Souza")


def pages(claim) -> tuple[str, str]:
    return (f"/segurado/sinistros/{claim.number}",
            f"/segurado/sinistros/{claim.number}/dados-pagamento")


def test_an_open_death_claim_offers_to_name_the_heirs_before_the_insurer_asks(insured, sale):
    claim = death(sale)
    claim_page, form_page = pages(claim)

    page = text(insured.get(claim_page))
    form = text(insured.get(form_page))

    assert "Quem vai receber" in page and "Ninguém informado ainda." in page
    assert f'href="{form_page}">Informar beneficiários</a>' in page
    assert "<h1>Informar beneficiários</h1>" in form and "Informar depois" in form


def test_heirs_named_early_keep_the_claim_where_it_was_and_show_on_its_page(insured, sale):
    claim = death(sale)
    claim_page, form_page = pages(claim)

    first = post_form(insured, form_page, ANA)  # no payment data yet
    second = post_form(insured, form_page, {**BRUNO, "metodo_pagamento": "pix",
                                            "pix_chave": "(11) 91234-5678"})
    page = text(insured.get(second["Location"]))

    assert first["Location"] == form_page  # 50%: the next person
    assert second["Location"] == claim_page
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DOCUMENTS_UNDER_REVIEW
    assert ClaimHistory.objects.filter(claim=claim, action="informar-beneficiario").count() == 2
    assert "Beneficiários informados. Obrigado!" in page
    # Once people are named, the page no longer asks as if nobody were.
    assert "Falta alguém, ou algum dado mudou?" in page and "Já sabe quem são" not in page
    assert ("<strong>Ana Souza</strong> · Cônjuge<br> <span class=\"muted\">CPF ***.982.247-**"
            "</span> · 50% da indenização<br> <span class=\"badge\">Aguardando dados de "
            "pagamento</span>") in page
    assert "<strong>Bruno Souza</strong> · Filho(a)" in page
    assert "CPF ***.444.777-**" in page and "Dados de pagamento informados" in page
    assert "52998224725" not in page and "529.982.247-25" not in page


def test_the_same_checks_hold_early_parts_up_to_100_and_never_the_deceased(insured, sale):
    claim = death(sale)
    _, form_page = pages(claim)
    post_form(insured, form_page, ANA)

    too_much = text(post_form(insured, form_page, {**BRUNO, "beneficiario_participacao": "60"}))
    deceased = text(post_form(insured, form_page, {
        **BRUNO, "beneficiario_cpf_ou_cnpj": sale.insured_cpf}))

    assert "somariam 110%" in too_much
    assert "que faleceu" in deceased
    assert claim.beneficiaries.count() == 1


def test_a_share_paid_reads_as_paid(insured, sale):
    claim = death(sale, status=ClaimStatus.UNDER_REGULATION)
    post_form(insured, pages(claim)[1], {**ANA, "beneficiario_participacao": "100",
                                         "metodo_pagamento": "pix", "pix_chave": "ana@example.com"})
    PaymentFactory(claim=claim, beneficiary=claim.beneficiaries.get(), amount=claim.amount,
                   status="concluido", paid_on=timezone.localdate(), financial_transaction_id="TX-1")

    page = text(insured.get(pages(claim)[0]))

    assert '<span class="badge">Pago</span>' in page


@pytest.mark.parametrize("status", [ClaimStatus.DENIED, ClaimStatus.FINALIZED])
def test_a_closed_claim_takes_no_more_names(insured, sale, status):
    claim = death(sale, status=status)
    claim_page, form_page = pages(claim)

    assert "Informar beneficiários" not in text(insured.get(claim_page))
    assert insured.get(form_page).status_code == 302
    assert post_form(insured, claim_page, ANA, action=form_page).status_code == 302
    assert not claim.beneficiaries.exists()


def test_a_living_claim_has_no_heirs_to_name(insured, sale):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/invalidez-permanente"),
                         nature="", status=ClaimStatus.UNDER_REGULATION)
    claim_page, form_page = pages(claim)

    assert "Quem vai receber" not in text(insured.get(claim_page))
    assert insured.get(form_page).status_code == 302


def test_the_claim_page_reads_the_same_queries_for_one_heir_or_three(insured, sale):
    claim = death(sale)
    claim_page, form_page = pages(claim)
    post_form(insured, form_page, {**ANA, "beneficiario_participacao": "30"})
    with CaptureQueriesContext(connection) as one:
        insured.get(claim_page)
    post_form(insured, form_page, {**BRUNO, "beneficiario_participacao": "30"})
    post_form(insured, form_page, {"beneficiario_nome": "Carla Souza",
                                   "beneficiario_cpf_ou_cnpj": "390.533.447-05",
                                   "beneficiario_parentesco": "filho",
                                   "beneficiario_participacao": "40"})
    with CaptureQueriesContext(connection) as three:
        page = text(insured.get(claim_page))

    assert "Carla Souza" in page
    assert len(three) == len(one)
