"""drf-spectacular post-processing: what the views cannot say about themselves.

- path parameters named as in the contract (Django converters need identifiers);
- the answers every operation can give (405, 406, 415, 429), as problem JSON;
- links between operations (a sale -> its claim -> the claim's documents...), so
  clients and stateful testers can follow the flow with values from responses;
- the two operations outside DRF: the OAuth token endpoint and the local upload URL.

Listed in ``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``, in this module's order.
"""

from django.conf import settings

from api_common.problems import PROBLEM_CONTENT_TYPE

CONTRACT_PATH_PARAMETERS = {
    "sale_id": "id-venda",
    "number": "numero-sinistro",
    "subscription_id": "id-webhook",
    "delivery_id": "id-entrega",
    "file_id": "id",
}
PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def _operations(result):
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                yield path, method, operation


def problem_response(description: str, headers: dict | None = None) -> dict:
    response = {"description": description,
                "content": {PROBLEM_CONTENT_TYPE: {"schema": PROBLEM_REF}}}
    if headers:
        response["headers"] = headers
    return response


def contract_path_parameters(result, generator, request, public):
    paths = {}
    for path, operations in result.get("paths", {}).items():
        for code_name, contract_name in CONTRACT_PATH_PARAMETERS.items():
            path = path.replace(f"{{{code_name}}}", f"{{{contract_name}}}")
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path":
                    parameter["name"] = CONTRACT_PATH_PARAMETERS.get(
                        parameter["name"], parameter["name"]
                    )
        paths[path] = operations
    result["paths"] = paths
    return result


# --- request strings as DRF reads them --------------------------------------------------

NO_NUL = r"^[^\u0000]*$"
NOT_BLANK = r"^[^\u0000]*[^\s\u0000][^\u0000]*$"


def _string_rules(schema: dict) -> None:
    if schema.get("type") == "string" and not (
        {"pattern", "format", "enum", "anyOf", "oneOf", "$ref"} & set(schema)
    ):
        schema["pattern"] = NOT_BLANK if schema.get("minLength", 0) >= 1 else NO_NUL
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in schema.get(key, []):
            _string_rules(branch)
    for member in schema.get("properties", {}).values():
        _string_rules(member)
    if isinstance(schema.get("items"), dict):
        _string_rules(schema["items"])


def request_string_rules(result, generator, request, public):
    """DRF's ``CharField`` refuses NUL characters and strips surrounding whitespace, so a
    required text of only spaces is blank: request strings without a pattern of their own
    get one saying so (``minLength`` alone would promise that " " is accepted)."""
    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request"):
            _string_rules(schema)
    return result


# --- answers every operation can give ----------------------------------------------------

RETRY_AFTER = {"Retry-After": {
    "description": "Segundos até poder tentar de novo.",
    "schema": {"type": "integer", "minimum": 0},
}}
ALLOW = {"Allow": {"description": "Os métodos aceitos neste endereço.",
                   "schema": {"type": "string"}}}


def common_responses(result, generator, request, public):
    """405 (with ``Allow``), 406 and 429 (with ``Retry-After``) on every operation; 415
    on those with a body. Each is problem JSON, like every error of the API."""
    for path, _method, operation in _operations(result):
        if not path.startswith("/api/"):
            continue  # the token and upload views answer for themselves (see below)
        responses = operation.setdefault("responses", {})
        responses.setdefault("405", problem_response(
            "Método não permitido neste endereço (`method-not-allowed`).", ALLOW))
        responses.setdefault("406", problem_response(
            "`Accept` não admite JSON (`not-acceptable`)."))
        responses.setdefault("429", problem_response(
            "Limite de requisições excedido (`too-many-requests`).", RETRY_AFTER))
        if "requestBody" in operation:
            responses.setdefault("415", problem_response(
                "Corpo em formato não aceito (`unsupported-media-type`)."))
    return result


# --- links: follow the flow with values from the responses ------------------------------


def _link(operation_id: str, description: str, **parameters: str) -> dict:
    return {"operationId": operation_id, "description": description, "parameters": parameters}


def _claim_links(number: str) -> dict:
    return {
        "ConsultarSinistro": _link("consultar-sinistro", "O sinistro.",
                                   **{"numero-sinistro": number}),
        "EnviarDocumento": _link("enviar-documento", "Um documento pendente do sinistro.",
                                 **{"numero-sinistro": number}),
        "AtualizarSaldoDevedor": _link("atualizar-saldo-devedor", "O saldo devedor.",
                                       **{"numero-sinistro": number}),
        "InformarDetalhesPagamento": _link(
            "informar-detalhes-pagamento", "Beneficiário e método de pagamento.",
            **{"numero-sinistro": number}),
    }


def _webhook_links(webhook: str) -> dict:
    return {
        name: _link(operation_id, description, **{"id-webhook": webhook})
        for name, operation_id, description in (
            ("ConsultarWebhook", "consultar-webhook", "A assinatura."),
            ("AtualizarWebhook", "atualizar-webhook", "Alterar a assinatura."),
            ("RemoverWebhook", "remover-webhook", "Remover a assinatura."),
            ("RotacionarChaveHmac", "rotacionar-chave-hmac", "Nova chave HMAC."),
            ("EnviarPing", "enviar-ping", "Um evento de teste."),
            ("ListarEntregas", "listar-entregas", "As entregas da assinatura."),
        )
    }


CLAIM_NUMBER = "$response.body#/numero-sinistro"
LINKS = {
    ("listar-vendas", "200"): {
        "ConsultarVenda": _link("consultar-venda", "A primeira venda da página.",
                                **{"id-venda": "$response.body#/dados/0/id-venda"}),
        "AbrirSinistro": _link("abrir-sinistro", "Um sinistro na primeira venda da página.",
                               **{"id-venda": "$response.body#/dados/0/id-venda"}),
        "PaginaSeguinte": _link("listar-vendas", "A página seguinte.",
                                **{"pagina-seguinte": "$response.body#/pagina-seguinte"}),
    },
    ("consultar-venda", "200"): {
        "AbrirSinistro": _link("abrir-sinistro", "Um sinistro nesta venda.",
                               **{"id-venda": "$response.body#/id-venda"}),
    },
    ("abrir-sinistro", "200"): _claim_links(CLAIM_NUMBER),
    ("consultar-sinistro", "200"): _claim_links(CLAIM_NUMBER),
    ("atualizar-saldo-devedor", "200"): _claim_links(CLAIM_NUMBER),
    ("informar-detalhes-pagamento", "200"): _claim_links(CLAIM_NUMBER),
    ("enviar-documento", "200"): {
        "ConsultarSinistro": _link(
            "consultar-sinistro", "O sinistro, com o arquivo em `documentos-recebidos` "
            "depois do PUT em `url-envio`.",
            **{"numero-sinistro": "$request.path.numero-sinistro"}),
    },
    ("listar-webhooks", "200"): {
        "ConsultarWebhook": _link("consultar-webhook", "A primeira assinatura.",
                                  **{"id-webhook": "$response.body#/dados/0/id-webhook"}),
    },
    ("criar-webhook", "201"): _webhook_links("$response.body#/id-webhook"),
    ("consultar-webhook", "200"): _webhook_links("$response.body#/id-webhook"),
    ("atualizar-webhook", "200"): _webhook_links("$response.body#/id-webhook"),
    ("rotacionar-chave-hmac", "200"): _webhook_links("$response.body#/id-webhook"),
    ("enviar-ping", "202"): {
        "ReenviarEntrega": _link("reenviar-entrega", "Reenviar o ping.", **{
            "id-webhook": "$request.path.id-webhook",
            "id-entrega": "$response.body#/id-entrega"}),
    },
    ("listar-entregas", "200"): {
        "ReenviarEntrega": _link("reenviar-entrega", "Reenviar a primeira entrega.", **{
            "id-webhook": "$request.path.id-webhook",
            "id-entrega": "$response.body#/dados/0/id-entrega"}),
        "PaginaSeguinte": _link("listar-entregas", "A página seguinte.", **{
            "id-webhook": "$request.path.id-webhook",
            "pagina-seguinte": "$response.body#/pagina-seguinte"}),
    },
}


def operation_links(result, generator, request, public):
    """OpenAPI links (``responses[status].links``) from ``LINKS``. A link to an operation
    the schema lacks is an error here, not a dangling reference for clients."""
    operations = {op.get("operationId"): op for _p, _m, op in _operations(result)}
    for (operation_id, status), links in LINKS.items():
        if operation_id not in operations:
            continue  # a partial schema (e.g. filtered by the docs page) has no such operation
        missing = {link["operationId"] for link in links.values()} - set(operations)
        if missing:
            raise ValueError(f"links of {operation_id} name unknown operations: {missing}")
        response = operations[operation_id]["responses"][status]
        response["links"] = links
    return result


# --- operations outside DRF --------------------------------------------------------------

TOKEN_REQUEST = {
    "type": "object",
    "required": ["grant_type"],
    "properties": {
        "grant_type": {"type": "string", "enum": ["client_credentials"]},
        "client_id": {"type": "string", "description": "Sem Basic auth: obrigatório."},
        "client_secret": {"type": "string", "description": "Sem Basic auth: obrigatório."},
        "scope": {"type": "string", "enum": ["claims"]},
    },
}
TOKEN_RESPONSE = {
    "type": "object",
    "required": ["access_token", "token_type", "expires_in", "scope"],
    "properties": {
        "access_token": {"type": "string"},
        "token_type": {"type": "string", "enum": ["Bearer"]},
        "expires_in": {"type": "integer", "description": "Segundos de validade (12 h)."},
        "scope": {"type": "string"},
    },
}
OAUTH_PROBLEM = {
    "description": "Problema (RFC 9457) que também traz `error` e `error_description` da "
                   "RFC 6749 (seção 5.2), para bibliotecas OAuth.",
    "allOf": [
        PROBLEM_REF,
        {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {"type": "string", "enum": [
                    "invalid_request", "invalid_client", "invalid_grant",
                    "unauthorized_client", "unsupported_grant_type", "invalid_scope"]},
                "error_description": {"type": "string"},
            },
        },
    ],
}


def _token_operation() -> dict:
    oauth_problem = {"schema": {"$ref": "#/components/schemas/OAuthProblem"}}
    return {
        "operationId": "obter-token",
        "tags": ["autenticacao"],
        "summary": "Token de acesso (OAuth 2.0 client credentials)",
        "description": (
            "Troca `client_id` e `client_secret` por um token Bearer válido por 12 horas: "
            "reutilize-o. As credenciais vão no corpo (JSON, como no contrato, ou "
            "formulário, RFC 6749) ou em `Authorization: Basic`. Tokens emitidos por "
            f"cliente: até {settings.TOKEN_RATE_LIMIT} a cada "
            f"{settings.TOKEN_RATE_WINDOW_SECONDS} s (depois, 429 com `Retry-After`)."
        ),
        "security": [{"clientBasic": []}, {}],
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/TokenRequest"},
                    "example": {"client_id": "demo-client", "client_secret": "demo-secret",
                                "grant_type": "client_credentials"},
                },
                "application/x-www-form-urlencoded": {
                    "schema": {"$ref": "#/components/schemas/TokenRequest"},
                },
            },
        },
        "responses": {
            "200": {"description": "Token emitido.",
                    "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/TokenResponse"}}}},
            "400": {"description": "Pedido inválido (`invalid_request`, "
                                   "`unsupported_grant_type`...).",
                    "content": {PROBLEM_CONTENT_TYPE: oauth_problem}},
            "401": {"description": "Cliente desconhecido, segredo errado ou canal "
                                   "desativado (`invalid_client`).",
                    "content": {PROBLEM_CONTENT_TYPE: oauth_problem},
                    "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}}},
            "413": {"description": "Corpo grande demais para um pedido de token.",
                    "content": {PROBLEM_CONTENT_TYPE: oauth_problem}},
            "405": problem_response("Só POST (`method-not-allowed`).", ALLOW),
            "429": problem_response("Tokens demais para este cliente (`too-many-token-requests`: "
                            "reutilize o token) ou falhas demais (`too-many-failed-token-"
                            "requests`).", RETRY_AFTER),
        },
    }


def _upload_operation() -> dict:
    media_types = sorted(set(settings.UPLOAD_ALLOWED_TYPES.values()))
    return {
        "operationId": "enviar-arquivo",
        "tags": ["sinistros"],
        "summary": "Envio do arquivo ao `url-envio` (armazenamento local)",
        "description": (
            "O endereço vem pronto em `url-envio` de `enviar-documento`: não é montado pelo "
            "cliente e não leva o token do canal (a assinatura está no próprio endereço). "
            "Corpo: o arquivo, com o `Content-Type` de `tipo-de-conteudo`, até "
            f"{settings.UPLOAD_MAX_BYTES} bytes. Com armazenamento S3 o `url-envio` aponta "
            "para o bucket, que responde por conta própria."
        ),
        "security": [],
        "parameters": [{
            "name": "token", "in": "path", "required": True,
            "description": "A parte final de `url-envio` (assinada, expira).",
            "schema": {"type": "string"},
        }],
        "requestBody": {
            "required": True,
            "content": {media_type: {"schema": {"type": "string", "format": "binary"}}
                        for media_type in media_types},
        },
        "responses": {
            "200": {"description": "Arquivo recebido: aparece em `documentos-recebidos`."},
            "403": problem_response("Link de envio inválido ou expirado (`upload-link-invalid`, "
                            "`upload-link-expired`)."),
            "409": problem_response("Este link já recebeu um arquivo (`upload-already-received`)."),
            "413": problem_response("Arquivo grande demais (`upload-too-large`)."),
            "415": problem_response("`Content-Type` diferente do registrado "
                            "(`upload-content-type-mismatch`)."),
            "422": problem_response("Conteúdo não confere com o tipo do arquivo (`upload-rejected`)."),
        },
    }


def token_and_upload_operations(result, generator, request, public):
    """``POST /oauth/token`` and the local ``PUT /uploads/{token}``: plain Django views, so
    drf-spectacular does not see them; described here so the docs page shows the whole
    flow and Swagger UI can authorize (``clientCredentials`` flow against ``tokenUrl``)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(TokenRequest=TOKEN_REQUEST, TokenResponse=TOKEN_RESPONSE,
                   OAuthProblem=OAUTH_PROBLEM)
    result["components"].setdefault("securitySchemes", {})["clientBasic"] = {
        "type": "http", "scheme": "basic",
        "description": "`client_id` e `client_secret` do canal, no lugar do corpo.",
    }
    token_path = "/oauth/token"
    result["paths"][token_path] = {"post": _token_operation()}
    if settings.AUTH_URL != settings.BASE_URL:
        result["paths"][token_path]["servers"] = [{"url": settings.AUTH_URL}]
    if settings.DOCUMENT_STORAGE == "local":
        result["paths"]["/uploads/{token}"] = {"put": _upload_operation()}
    return result
