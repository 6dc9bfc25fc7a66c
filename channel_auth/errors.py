"""The token endpoint's problems: RFC 6749 §5.2's errors, each also answered with its
``error`` code, and the limits taken before any secret is checked."""

from api_common.http_problems import InvalidRequest
from api_common.problem_types import ProblemError

OAUTH_MEMBERS = "error, error_description (RFC 6749 §5.2)"


class OAuthProblem(ProblemError):
    """A token error; ``oauth_error`` is its RFC 6749 code, sent as ``error``."""

    oauth_error: str


class TokenRequestInvalid(InvalidRequest):
    oauth_error = "invalid_request"
    default_detail = "O pedido de token está incompleto ou malformado."


class InvalidClient(OAuthProblem):
    status = 401
    problem_id = "invalid-client"
    title = "Cliente não autenticado"
    cause = (
        "Em /oauth/token: client_id ou client_secret incorretos, credenciais ausentes, "
        "cabeçalho Authorization que não é Basic válido, ou canal desativado."
    )
    action = (
        "Confira as credenciais do canal (mostradas uma única vez por create_channel). "
        "Tentativas falhas demais levam a too-many-failed-token-requests."
    )
    members = "error, error_description (RFC 6749 §5.2)"
    default_detail = "client_id ou client_secret incorretos, ou canal desativado."
    oauth_error = "invalid_client"
    members = OAUTH_MEMBERS


class InvalidGrant(OAuthProblem):
    status = 400
    problem_id = "invalid-grant"
    title = "Concessão inválida"
    cause = "Em /oauth/token: a concessão informada não é válida."
    action = "Use grant_type=client_credentials com as credenciais do canal."
    members = "error, error_description (RFC 6749 §5.2)"
    default_detail = "A concessão informada não é válida."
    oauth_error = "invalid_grant"
    members = OAUTH_MEMBERS


class UnauthorizedClient(OAuthProblem):
    status = 400
    problem_id = "unauthorized-client"
    title = "Concessão não permitida"
    cause = "Em /oauth/token: o cliente pediu uma concessão diferente de client_credentials."
    action = "Use grant_type=client_credentials."
    members = "error, error_description (RFC 6749 §5.2)"
    default_detail = "Este cliente só pode usar client_credentials."
    oauth_error = "unauthorized_client"
    members = OAUTH_MEMBERS


class UnsupportedGrantType(OAuthProblem):
    status = 400
    problem_id = "unsupported-grant-type"
    title = "Tipo de concessão não suportado"
    cause = "Em /oauth/token: grant_type desconhecido."
    action = "Use grant_type=client_credentials."
    members = "error, error_description (RFC 6749 §5.2)"
    default_detail = "Use grant_type=client_credentials."
    oauth_error = "unsupported_grant_type"
    members = OAUTH_MEMBERS


class InvalidScope(OAuthProblem):
    status = 400
    problem_id = "invalid-scope"
    title = "Escopo inválido"
    cause = "Em /oauth/token: escopo diferente de claims."
    action = "Peça o escopo claims ou nenhum."
    members = "error, error_description (RFC 6749 §5.2)"
    default_detail = "Peça o escopo claims ou nenhum."
    oauth_error = "invalid_scope"
    members = OAUTH_MEMBERS


# RFC 6749 §5.2 error code -> its problem.
BY_OAUTH_ERROR = {problem.oauth_error: problem for problem in (
    TokenRequestInvalid, InvalidClient, InvalidGrant, UnauthorizedClient,
    UnsupportedGrantType, InvalidScope,
)}


class TooManyFailedTokenRequests(ProblemError):
    status = 429
    problem_id = "too-many-failed-token-requests"
    title = "Muitas tentativas de autenticação falharam"
    cause = (
        "Falhas de autenticação demais em /oauth/token para este client_id a partir "
        "deste endereço (TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS) ou deste endereço "
        "(TOKEN_FAILURE_LIMIT_PER_ADDRESS) na janela; recusado antes de qualquer "
        "verificação do segredo."
    )
    action = (
        "Confira client_id e client_secret e tente de novo depois de Retry-After "
        "segundos. Os tokens já emitidos continuam valendo."
    )
    default_detail = "Confira client_id e client_secret"


class TooManyTokenRequests(ProblemError):
    status = 429
    problem_id = "too-many-token-requests"
    title = "Limite de emissão de tokens excedido"
    cause = "O cliente pediu mais de TOKEN_RATE_LIMIT tokens na janela."
    action = (
        "Reutilize o token enquanto for válido; tente de novo depois de Retry-After "
        "segundos."
    )
    default_detail = "Reutilize o token enquanto for válido"
