"""``solicitar-documentos`` without ``documentos`` asks a sandbox claim for the documents
of its own coverage and nature (docs/claims.md, "Default requirements"): a death claim is
asked for the death certificate, never a "Laudo médico"."""

import io
import json

import pytest
from django.core.management import call_command

from claims.models import Channel
from tests.support.api import client_for, opening_body

pytestmark = pytest.mark.django_db

SIMULATE = "/api/v1/sandbox/sinistros/{}/simular"


def sandbox_api():
    out = io.StringIO()
    call_command("create_channel", "Parceiro em Testes", "--sandbox", "--json", stdout=out)
    credentials = json.loads(out.getvalue())
    channel = Channel.objects.get(slug=credentials["channel"])
    channel.plain_secret = credentials["client_secret"]
    return client_for(channel), credentials["vendas"]


def asked(api, sale, **opening) -> dict:
    """The claim after opening it and simulating ``solicitar-documentos`` with no list."""
    opened = api.post(f"/api/v1/vendas/{sale}/abrir-sinistro", opening_body(**opening),
                      format="json")
    assert opened.status_code == 200, opened.content
    number = opened.json()["numero-sinistro"]
    answer = api.post(SIMULATE.format(number), {"acao": "solicitar-documentos"}, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()


def pending(claim: dict) -> list[tuple[str, str]]:
    return [(d["tipo"], d["titulo"]) for d in claim["documentacao"]["documentos-pendentes"]]


def test_a_sandbox_death_claim_is_asked_for_the_death_certificate_not_a_medical_report():
    api, sales = sandbox_api()

    claim = asked(api, sales[0])

    assert claim["status"] == "pendente-de-documentacao"
    assert pending(claim) == [
        ("certidao-de-obito", "Certidão de óbito"),
        ("cpf-cnpj", "Documento de identificação do segurado com CPF"),
        ("documentos-dos-beneficiarios", "Documento de identificação com CPF de cada beneficiário"),
    ]
    assert "Laudo médico" not in json.dumps(claim, ensure_ascii=False)
    assert "laudo-medico" not in json.dumps(claim)


def test_an_accidental_death_is_also_asked_for_the_police_and_autopsy_reports():
    api, sales = sandbox_api()

    claim = asked(api, sales[0], natureza="morte-acidental")

    assert [tipo for tipo, _ in pending(claim)] == [
        "certidao-de-obito", "cpf-cnpj", "documentos-dos-beneficiarios",
        "boletim-de-ocorrencia", "laudo-iml"]


@pytest.mark.parametrize(("cobertura", "natureza", "types"), [
    ("cobertura/invalidez-permanente", None, ["cpf-cnpj", "laudo-medico", "exames"]),
    ("cobertura/perda-de-renda", "perda-de-renda-desemprego",
     ["cpf-cnpj", "termo-de-rescisao", "carteira-de-trabalho"]),
])
def test_other_coverages_are_asked_for_their_own_documents(cobertura, natureza, types):
    api, sales = sandbox_api()

    claim = asked(api, sales[0], cobertura=cobertura, natureza=natureza)

    assert [tipo for tipo, _ in pending(claim)] == types


def test_with_the_defaults_loaded_the_opening_asks_them_and_the_request_adds_nothing_twice():
    call_command("load_default_requirements", stdout=io.StringIO())
    api, sales = sandbox_api()
    opened = api.post(f"/api/v1/vendas/{sales[0]}/abrir-sinistro", opening_body(), format="json")
    assert sorted(t for t, _ in pending(opened.json())) == [
        "certidao-de-obito", "cpf-cnpj", "documentos-dos-beneficiarios"]

    claim = asked(api, sales[1])

    assert len(pending(claim)) == 3
    assert "Laudo médico" not in json.dumps(claim, ensure_ascii=False)


def test_a_list_sent_with_the_request_still_wins():
    api, sales = sandbox_api()
    number = api.post(f"/api/v1/vendas/{sales[0]}/abrir-sinistro", opening_body(),
                      format="json").json()["numero-sinistro"]

    claim = api.post(SIMULATE.format(number), {
        "acao": "solicitar-documentos",
        "documentos": [{"tipo": "certidao-de-casamento", "titulo": "Certidão de casamento"}],
    }, format="json").json()

    assert pending(claim) == [("certidao-de-casamento", "Certidão de casamento")]
