"""Reading the OpenAPI document: the contract's operations, the schemas of a request or
response body with their references followed, and whether a body is one the schema
accepts."""

import jsonschema

SCHEMA_URL = "/api/v1/schema/"

CONTRACT_OPERATIONS = [
    ("/api/v1/vendas", "get"),
    ("/api/v1/vendas/{id-venda}", "get"),
    ("/api/v1/vendas/{id-venda}/abrir-sinistro", "post"),
    ("/api/v1/sinistros/{numero-sinistro}", "get"),
    ("/api/v1/sinistros/{numero-sinistro}/saldo-devedor", "post"),
    ("/api/v1/sinistros/{numero-sinistro}/detalhes-pagamento", "post"),
    ("/api/v1/sinistros/{numero-sinistro}/documentos/{id}", "get"),
    ("/api/v1/sinistros/whitelabel/gerar-url", "post"),
    ("/api/v1/webhooks", "post"),
    ("/api/v1/webhooks", "get"),
    ("/api/v1/webhooks/{id-webhook}", "get"),
    ("/api/v1/webhooks/{id-webhook}", "patch"),
    ("/api/v1/webhooks/{id-webhook}", "delete"),
    ("/api/v1/webhooks/{id-webhook}/rotacionar-chave-hmac", "post"),
    ("/api/v1/webhooks/{id-webhook}/ping", "post"),
    ("/api/v1/webhooks/{id-webhook}/entregas", "get"),
    ("/api/v1/webhooks/{id-webhook}/entregas/{id-entrega}/reenviar", "post"),
]
WEBHOOK_OPERATIONS = [op for op in CONTRACT_OPERATIONS if op[0].startswith("/api/v1/webhooks")]


def resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        name = node["$ref"].removeprefix("#/components/schemas/")
        node = schema["components"]["schemas"][name]
    return node


def request_schema(schema, path, method) -> dict:
    body = schema["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    return resolve(schema, body)


def response_schema(schema, path, method, status="200") -> dict:
    """The JSON body of a response (``status`` "201", "202"... for the others)."""
    content = schema["paths"][path][method]["responses"][status]["content"]
    return resolve(schema, content["application/json"]["schema"])



def inline_refs(schema: dict, node):
    """``node`` with every ``$ref`` replaced by its component (the schemas have no cycles)."""
    if isinstance(node, dict):
        if "$ref" in node:
            return inline_refs(schema, resolve(schema, node))
        return {key: inline_refs(schema, value) for key, value in node.items()}
    if isinstance(node, list):
        return [inline_refs(schema, value) for value in node]
    return node


def nullable(schema: dict, node: dict) -> bool:
    """OpenAPI 3.1 (JSON Schema 2020-12) says null in the type or in one of the choices."""
    types = node.get("type", [])
    choices = node.get("oneOf", []) + node.get("anyOf", [])
    return "null" in (types if isinstance(types, list) else [types]) or any(
        nullable(schema, resolve(schema, choice)) for choice in choices)


def accepts(schema: dict, path: str, method: str, body) -> bool:
    """Whether the request body schema of an operation allows ``body`` (JSON Schema)."""
    validator = jsonschema.Draft4Validator(inline_refs(schema, request_schema(schema, path, method)))
    return validator.is_valid(body)


OPEN_CLAIM = "/api/v1/vendas/{id-venda}/abrir-sinistro"
PAYMENT_DATA = "/api/v1/sinistros/{numero-sinistro}/detalhes-pagamento"
CONTACT = {"nome": "Pedro", "email": "pedro@example.com"}
BENEFICIARY = {"tipo": "segurado", "nome": "Maria", "cpf-ou-cnpj": "11144477735"}


def open_claim_body(**changes):
    body = {"pessoa-para-contato": CONTACT, "solicitante": {"nome": "Pedro"},
            "cobertura": "cobertura/morte", "natureza": "morte-natural",
            "data-ocorrencia": "2026-11-01T10:00:00-03:00"}
    return {key: value for key, value in {**body, **changes}.items() if value is not None}
