"""A partner's developer integrates alone: a sandbox channel made by the command, its
token, its sales, a subscription to every event, a claim opened and moved by the
channel's own calls through every step, and each event received over real HTTP and
validated against the schema's ``webhooks`` (and nothing more than the schema says)."""

import io
import json

import jsonschema
import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient
from standardwebhooks import Webhook

from claims.models import Channel, Claim
from claims.workflow import EventName
from tests.support.api import opening_body
from tests.support.lifecycle import send_document
from tests.support.receiver import Receiver
from webhooks import engine

pytestmark = pytest.mark.django_db

HEIR = {
    "beneficiario": {"tipo": "outro", "nome": "Maria da Silva", "cpf-ou-cnpj": "52998224725",
                     "parentesco": "conjuge", "participacao": 100},
    "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}},
}


@pytest.fixture(autouse=True)
def _local(settings, tmp_path):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


def sandbox_partner() -> tuple[APIClient, dict]:
    """What the partner is given: the command's JSON, then its own token request."""
    out = io.StringIO()
    call_command("create_channel", "Banco Parceiro Testes", "--sandbox", "--json", stdout=out)
    credentials = json.loads(out.getvalue())
    token = Client().post("/oauth/token", {
        "grant_type": "client_credentials", "client_id": credentials["client_id"],
        "client_secret": credentials["client_secret"]}, content_type="application/json")
    assert token.status_code == 200, token.content
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token.json()['access_token']}")
    return api, credentials


def simulate(api, number: str, action: str, **body) -> dict:
    response = api.post(f"/api/v1/sandbox/sinistros/{number}/simular",
                        {"acao": action, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def published(schema: dict, event: str) -> dict:
    """The body schema of ``event`` in the schema's webhooks, every $ref inlined."""
    def inline(node):
        if isinstance(node, dict):
            if "$ref" in node:
                return inline(schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node
    body = schema["webhooks"][event]["post"]["requestBody"]["content"]["application/json"]
    return inline(body["schema"])


def undeclared(body_schema: dict, body) -> list[str]:
    """Members of ``body`` its schema does not declare (a compatible addition the schema
    forgot is still a gap in the docs)."""
    if not isinstance(body, dict):
        return []
    properties = body_schema.get("properties", {})
    missing = [name for name in body if name not in properties]
    return missing + [f"{name}.{inner}" for name, value in body.items() if name in properties
                      for inner in undeclared(properties[name], value)]


def test_a_partner_moves_its_claims_alone_and_receives_every_event_as_the_schema_says():
    api, credentials = sandbox_partner()
    assert credentials["sandbox"] is True and len(credentials["vendas"]) == 10
    sales = api.get("/api/v1/vendas").json()["dados"]
    assert {sale["id-venda"] for sale in sales} == set(credentials["vendas"])

    with Receiver() as receiver:
        created = api.post("/api/v1/webhooks", {
            "url": receiver.url, "eventos-habilitados": list(EventName.values)}, format="json")
        assert created.status_code == 201, created.content
        secret = created.json()["segredo"]

        # A death: documents asked and sent, approved, payment data asked and given, the
        # reserve adjusted, paid, settled, finalized, reopened.
        death = api.post(f"/api/v1/vendas/{sales[0]['id-venda']}/abrir-sinistro",
                         opening_body(), format="json").json()["numero-sinistro"]
        claim = simulate(api, death, "solicitar-documentos",
                         documentos=[{"tipo": "certidao-de-obito", "titulo": "Certidão de óbito"}])
        assert claim["status"] == "pendente-de-documentacao"
        send_document(api, Claim.objects.get(number=death), "certidao-de-obito")
        assert simulate(api, death, "aprovar-documentacao")["status"] == "em-regulacao"
        claim = simulate(api, death, "solicitar-dados-de-pagamento")
        assert claim["status"] == "pendente-de-dados-de-pagamento"
        supplied = api.post(f"/api/v1/sinistros/{death}/detalhes-pagamento", HEIR, format="json")
        assert supplied.json()["status"] == "em-regulacao", supplied.content
        assert simulate(api, death, "ajustar-reserva", valor=40000)["valor"] == 40000
        claim = simulate(api, death, "registrar-pagamento")
        assert [p["valor"] for p in claim["pagamentos"]] == [40000]
        claim = simulate(api, death, "liquidar-pagamento", **{"id-transacao-financeira": "E123"})
        assert claim["pagamentos"][0]["status"] == "concluido"
        assert simulate(api, death, "finalizar")["status"] == "finalizado"
        assert simulate(api, death, "reabrir", motivo="Novo documento")["status"] == "em-regulacao"

        # A disability claim denied, its reconsideration asked by the channel, kept.
        denied = api.post(f"/api/v1/vendas/{sales[1]['id-venda']}/abrir-sinistro", opening_body(
            cobertura="cobertura/invalidez-permanente", natureza=None), format="json"
        ).json()["numero-sinistro"]
        claim = simulate(api, denied, "recusar", codigo=1, clausula="Cláusula 5.2")
        assert claim["status"] == "recusado" and claim["recusa"]["codigo"] == 1
        asked = api.post(f"/api/v1/sinistros/{denied}/reconsideracao",
                         {"motivo": "O laudo novo mostra outra data."}, format="json")
        assert asked.status_code in (200, 201), asked.content
        simulate(api, denied, "manter-recusa", motivo="O laudo não muda a exclusão.")

        engine.drain()
        assert receiver.wait_for(len(EventName.values) + 1, timeout=10)

    schema = json.loads(Client().get("/api/v1/schema/", {"format": "json"}).content)
    names = []
    for request in receiver.requests:
        Webhook(secret).verify(request.body, request.headers)  # signed like production
        body = json.loads(request.body)
        names.append(body["evento"])
        body_schema = published(schema, body["evento"])
        jsonschema.Draft202012Validator(
            body_schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        ).validate(body)
        assert undeclared(body_schema, body) == [], body["evento"]
    # Every event once, the opening twice (two claims).
    assert sorted(names) == sorted([*EventName.values, "sinistro-criado"])


def test_the_sandbox_refuses_what_the_workflow_refuses_as_the_admin_would():
    api, credentials = sandbox_partner()
    number = api.post(f"/api/v1/vendas/{credentials['vendas'][0]}/abrir-sinistro",
                      opening_body(), format="json").json()["numero-sinistro"]

    response = api.post(f"/api/v1/sandbox/sinistros/{number}/simular",
                        {"acao": "liquidar-pagamento"}, format="json")
    assert response.status_code == 422
    assert response.json()["problem-id"] == "payment-not-allowed"
    response = api.post(f"/api/v1/sandbox/sinistros/{number}/simular", {"acao": "reabrir"},
                        format="json")
    assert response.status_code == 422
    assert response.json()["problem-id"] == "transition-not-allowed"
    response = api.post(f"/api/v1/sandbox/sinistros/{number}/simular", {"acao": "recusar"},
                        format="json")
    assert response.status_code == 400
    assert response.json()["campos-invalidos"][0]["campo"] == "codigo"
    response = api.post(f"/api/v1/sandbox/sinistros/{number}/simular", {"acao": "voar"},
                        format="json")
    assert response.status_code == 400
    assert Channel.objects.get(slug=credentials["channel"]).is_sandbox


def test_on_credit_life_the_simulated_payments_go_to_the_creditor_first():
    api, credentials = sandbox_partner()
    creditor = {"beneficiario": {"tipo": "credor", "nome": "Banco Parceiro S.A.",
                                 "cpf-ou-cnpj": "11222333000181"},
                "dados-pagamento": {"metodo-pagamento": "ted", "ted": {
                    "banco": "001", "agencia": "1234", "conta": "567890"}}}
    number = api.post(f"/api/v1/vendas/{credentials['vendas'][0]}/abrir-sinistro",
                      opening_body(**{"saldo-devedor": 8000, "detalhes-pagamento": HEIR}),
                      format="json").json()["numero-sinistro"]
    assert api.post(f"/api/v1/sinistros/{number}/detalhes-pagamento", creditor,
                    format="json").status_code == 200
    simulate(api, number, "aprovar-documentacao")
    simulate(api, number, "ajustar-reserva", valor=50000)

    first = simulate(api, number, "registrar-pagamento")["pagamentos"]
    second = simulate(api, number, "registrar-pagamento")["pagamentos"]

    assert [(p["beneficiario"]["tipo"], p["valor"]) for p in first] == [("credor", 8000)]
    assert [(p["beneficiario"]["tipo"], p["valor"]) for p in second] == [
        ("credor", 8000), ("outro", 42000)]


def test_the_payment_simulation_says_why_it_cannot_pay():
    api, credentials = sandbox_partner()
    number = api.post(f"/api/v1/vendas/{credentials['vendas'][0]}/abrir-sinistro",
                      opening_body(**{"detalhes-pagamento": HEIR}), format="json"
                      ).json()["numero-sinistro"]
    simulate(api, number, "aprovar-documentacao")

    # Whose share, typed with punctuation as people type it.
    paid = simulate(api, number, "registrar-pagamento", **{"cpf-ou-cnpj": "529.982.247-25"})
    assert paid["pagamentos"][0]["valor"] == 50000
    again = api.post(f"/api/v1/sandbox/sinistros/{number}/simular",
                     {"acao": "registrar-pagamento"}, format="json")
    assert again.status_code == 422 and "Nada mais a pagar" in again.json()["detail"]
    simulate(api, number, "liquidar-pagamento")
    simulate(api, number, "finalizar")
    closed = api.post(f"/api/v1/sandbox/sinistros/{number}/simular",
                      {"acao": "registrar-pagamento"}, format="json")
    assert closed.status_code == 422
    assert closed.json()["problem-id"] == "transition-not-allowed"
