"""Red flags on who is paid (claims.red_flags): warnings on the claim page, in the
proposal and in the list's filter; never a block."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from claims.models import Claim
from tests.support.api import client_for
from tests.support.factories import CoverageFactory, SaleFactory, make_channel
from tests.support.lifecycle import (
    HEIR_DETAILS, acted, claim_under_review, open_claim, proposed,
)

pytestmark = pytest.mark.usefixtures("local_media")


def codes(claim) -> list[str]:
    claim.refresh_from_db()
    return [alert["codigo"] for alert in claim.alerts]


def heir(name, tax_id, key):
    return {"beneficiario": {"tipo": "outro", "nome": name, "cpf-ou-cnpj": tax_id},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": key}}}


def test_a_claim_soon_after_the_sale_starts_is_flagged_by_the_setting(api, sale, settings):
    sale.valid_from = timezone.localdate() - dt.timedelta(days=30)
    sale.save()

    yesterday = {"data-ocorrencia": (timezone.now() - dt.timedelta(days=1)).isoformat()}

    flagged = open_claim(api, sale, **yesterday)
    settings.RED_FLAG_EARLY_CLAIM_DAYS = 30
    not_flagged = open_claim(api, sale, cobertura="cobertura/invalidez-permanente",
                             natureza=None, **yesterday)

    assert codes(flagged) == ["sinistro-precoce"]
    assert "Aviso 30 dia(s) depois do início da vigência" in flagged.alerts[0]["texto"]
    assert codes(not_flagged) == []


def test_the_same_cpf_through_two_channels_flags_both_claims(api, sale):
    first = open_claim(api, sale)
    other_channel = make_channel("Varejo Dois")
    other_sale = SaleFactory(channel=other_channel, insured_cpf=sale.insured_cpf)
    CoverageFactory(sale=other_sale, name="cobertura/morte")

    second = open_claim(client_for(other_channel), other_sale)

    assert codes(second) == codes(first) == ["cpf-em-varios-canais"]
    assert "2 canais" in second.alerts[0]["texto"] and "Varejo Dois" in second.alerts[0]["texto"]


def test_a_pix_key_that_receives_for_someone_else_in_another_claim_flags_both(api, sale):
    first = open_claim(api, sale, **{"detalhes-pagamento": heir(
        "Ana Souza", "52998224725", "conta.compartilhada@example.com")})
    other_sale = SaleFactory(channel=sale.channel)
    CoverageFactory(sale=other_sale, name="cobertura/morte")
    second = open_claim(api, other_sale)

    api.post(f"/api/v1/sinistros/{second.number}/detalhes-pagamento", heir(
        "Bruno Lima", "11144477735", "Conta.Compartilhada@example.com"), format="json")

    assert codes(second) == ["destino-compartilhado"]
    assert codes(first) == ["destino-compartilhado"]
    text = second.alerts[0]["texto"]
    assert "A chave PIX co***@example.com também recebe por outra(s) pessoa(s)" in text
    assert f"***.982.247-** no sinistro {first.number}" in text


def test_the_same_person_in_two_claims_is_no_flag(api, sale):
    open_claim(api, sale, **{"detalhes-pagamento": heir("Ana", "52998224725", "ana@example.com")})
    other_sale = SaleFactory(channel=sale.channel)
    CoverageFactory(sale=other_sale, name="cobertura/morte")

    second = open_claim(api, other_sale, **{"detalhes-pagamento": heir(
        "Ana", "52998224725", "ana@example.com")})

    assert codes(second) == []


def test_the_list_filters_claims_with_alerts(analyst, api, sale, settings):
    settings.RED_FLAG_EARLY_CLAIM_DAYS = 10_000
    flagged = open_claim(api, sale)
    settings.RED_FLAG_EARLY_CLAIM_DAYS = 0
    calm = open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)

    page = analyst.get("/admin/claims/claim/?fila=todos&alertas=sim").content.decode()

    assert flagged.number in page and calm.number not in page
    assert "Com alertas" in page


def test_the_supervisor_sees_the_payee_destination_share_and_flags_in_the_proposal(
        analyst, supervisor, api, sale, settings):
    settings.PAYMENT_AUTHORITY_LIMIT = Decimal("10000.00")
    claim = acted(analyst, claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS}),
                  "aprovar-documentacao")
    heir_row = claim.beneficiaries.get()
    proposed(analyst, claim, "registrar-pagamento", {
        "beneficiary": str(heir_row.pk), "amount": "20.000,00", "beneficiario_nome": "Carlos Lima",
        "beneficiario_cpf_ou_cnpj": "111.444.777-35", "metodo_pagamento": "pix",
        "pix_chave": "(11) 91234-5678"})

    page = supervisor.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    board = supervisor.get("/admin/").content.decode()

    # The decision box: whole, for the one who approves the money leaving.
    for fact in ("<dt>Será pago</dt><dd>R$ 20.000,00 de indenização",
                 "<dt>A quem</dt><dd>Carlos Lima, CPF 111.444.777-35</dd>",
                 "<dt>Beneficiário</dt><dd>Maria da Silva (cônjuge, participação de 100%)</dd>",
                 "<dt>Onde</dt><dd>PIX, chave telefone +5511912345678</dd>",
                 "<dt>Parte do beneficiário</dt><dd>R$ 50.000,00 que lhe cabem; já registrado "
                 "R$ 0,00; depois deste, restará R$ 30.000,00</dd>",
                 "<dt>Alerta</dt><dd>O favorecido Carlos Lima (***.444.777-**) não é o beneficiário"):
        assert fact in page, fact
    assert "pagar R$ 20.000,00 a Carlos Lima (***.444.777-**), PIX, chave +55 (11) 9****-5678" \
        in board
    assert Claim.objects.get(pk=claim.pk).payments.count() == 0  # a warning, not a payment
