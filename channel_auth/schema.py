"""The channel token in the OpenAPI schema (the ``oauth2`` security scheme, loaded by
``ChannelAuthConfig.ready``), and ``POST /oauth/token``: a plain Django view, so
drf-spectacular does not see it; described by a post-processing hook so the docs page
shows the whole flow and Swagger UI can authorize (``clientCredentials`` flow against
``tokenUrl``)."""

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension

from api_common.openapi_hooks import ALLOW, PROBLEM_REF, RETRY_AFTER, problem_response
from api_common.http_problems import MethodNotAllowed
from api_common.problems import PROBLEM_CONTENT_TYPE
from channel_auth.errors import TooManyFailedTokenRequests, TooManyTokenRequests


class ChannelTokenScheme(OpenApiAuthenticationExtension):
    target_class = "channel_auth.authentication.ChannelTokenAuthentication"
    name = "oauth2"

    def get_security_definition(self, auto_schema):
        return {
            "type": "oauth2",
            "description": "OAuth 2.0 client credentials; token válido por 12 horas, reutilize-o.",
            "flows": {
                "clientCredentials": {
                    "tokenUrl": f"{settings.AUTH_URL}/oauth/token",
                    "scopes": {"claims": "Sinistros do canal"},
                }
            },
        }

    def get_security_requirement(self, auto_schema):
        return {self.name: ["claims"]}


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
            **problem_response("Só POST ({}).", MethodNotAllowed, headers=ALLOW),
            **problem_response("Tokens demais para este cliente ({}: reutilize o token) ou "
                               "falhas demais ({}).", TooManyTokenRequests,
                               TooManyFailedTokenRequests, headers=RETRY_AFTER),
        },
    }


def token_operation(result, generator, request, public):
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
    return result
