"""Requests to /api/v1/webhooks for the subscription API's tests, and how their answers
read (a 400's fields: tests.support.api.invalid_fields)."""

URL = "https://hooks.example.com/sinistros"
BODY = {
    "descricao": "Notificações do CRM",
    "ativo": True,
    "url": URL,
    "eventos-habilitados": ["sinistro-criado", "sinistro-finalizado"],
}
SUBSCRIPTION_KEYS = {
    "id-webhook", "descricao", "ativo", "url", "eventos-habilitados", "criado-em",
    "desativado-em", "motivo-desativacao", "ultimo-sucesso-em", "falhas-seguidas",
    "disjuntor",
}
UNKNOWN = "00000000-0000-4000-8000-000000000000"


def create(api, **overrides):
    return api.post("/api/v1/webhooks", {**BODY, **overrides}, format="json")


def created(api, **overrides) -> dict:
    response = create(api, **overrides)
    assert response.status_code == 201, response.content
    return response.json()


def without_instance(response) -> dict:
    return {k: v for k, v in response.json().items() if k != "instance"}
