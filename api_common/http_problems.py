"""The problems of HTTP itself, whoever answers them: DRF, Django's handlers, the
middleware, gunicorn. Domain problems live beside their apps (``claims.errors``...)."""

from django.conf import settings

from api_common.problem_types import ProblemError


class InvalidRequest(ProblemError):
    status = 400
    problem_id = "invalid-request"
    title = "Requisição inválida"
    cause = (
        "Um ou mais campos estão ausentes ou inválidos: obrigatórios faltando, formatos "
        "(datas, CPF/CNPJ, chaves PIX...), valores fora do aceito, texto com caractere "
        "nulo (U+0000) ou escape \\ud800 sem par, números como 1e400 ou NaN; também "
        "parâmetros de consulta inválidos."
    )
    action = (
        "Corrija cada campo listado em campos-invalidos (campo e mensagem) e reenvie. "
        "Repetir sem corrigir dá o mesmo resultado."
    )
    members = "campos-invalidos: lista de {campo, mensagem}"
    default_detail = "Um ou mais campos são inválidos."


class InvalidField(InvalidRequest):
    """A field a service refused after the serializer accepted its shape (a document type
    the claim did not ask for, a webhook destination): the same 400 as the serializers'
    own validation errors, naming the field."""

    def __init__(self, field: str, message: str):
        super().__init__(**{"campos-invalidos": [{"campo": field, "mensagem": message}]})


class MalformedRequest(ProblemError):
    status = 400
    problem_id = "malformed-request"
    title = "Corpo da requisição malformado"
    cause = (
        "O corpo não é JSON válido, não está em UTF-8, ou passa do limite de "
        "aninhamento de objetos e listas."
    )
    action = (
        "Envie um único objeto JSON bem formado, em UTF-8, com Content-Type: "
        "application/json."
    )


class BadRequest(ProblemError):
    status = 400
    problem_id = "bad-request"
    title = "Requisição recusada"
    cause = (
        "A requisição foi recusada antes de chegar ao recurso: cabeçalho Host não "
        "aceito, cabeçalhos malformados ou outro erro de protocolo (também usado, com o "
        "status recebido, para outros erros 4xx sem identificador próprio)."
    )
    action = "Confira o endereço base (host) configurado e os cabeçalhos enviados."


class RequestBodyTooLarge(ProblemError):
    status = 413
    problem_id = "request-body-too-large"
    title = "Corpo da requisição grande demais"
    cause = (
        "O corpo passa de DATA_UPLOAD_MAX_MEMORY_SIZE (2,5 MB por padrão). Arquivos não "
        "vão no corpo da API: vão para url-envio."
    )
    action = (
        "Reduza o corpo; para documentos, use enviar-documento e envie o arquivo por "
        "PUT em url-envio."
    )

    def __init__(self):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        super().__init__(
            f"O corpo passa do limite de {limit} bytes. Documentos não vão no corpo: "
            "envie-os por PUT em url-envio."
        )


class Unauthorized(ProblemError):
    status = 401
    problem_id = "unauthorized"
    title = "Autenticação necessária"
    cause = (
        "Token de acesso ausente, malformado, desconhecido, revogado ou expirado, ou "
        "canal desativado (WWW-Authenticate diz qual)."
    )
    action = (
        "Peça um token em POST /oauth/token e envie-o em Authorization: Bearer <token>. "
        "Reutilize o token enquanto for válido (12 horas)."
    )


class Forbidden(ProblemError):
    status = 403
    problem_id = "forbidden"
    title = "Acesso negado"
    cause = (
        "O canal autenticou, mas a API de sinistros não está habilitada para ele; no "
        "admin, o perfil do usuário não permite a ação."
    )
    action = (
        "Peça à seguradora a habilitação da API para o canal (ou, no admin, a um "
        "supervisor)."
    )


class NotFound(ProblemError):
    status = 404
    problem_id = "not-found"
    title = "Recurso não encontrado"
    cause = (
        "Nenhum recurso neste endereço (também um id malformado no caminho, como "
        "id-venda que não é UUID, ou um caminho com caractere nulo)."
    )
    action = "Confira o caminho e o método na documentação da API (/api/v1/docs/)."


class MethodNotAllowed(ProblemError):
    status = 405
    problem_id = "method-not-allowed"
    title = "Método não permitido"
    cause = "O endereço existe, mas não aceita este método HTTP."
    action = "Use um dos métodos listados no cabeçalho Allow."


class NotAcceptable(ProblemError):
    status = 406
    problem_id = "not-acceptable"
    title = "Formato de resposta não suportado"
    cause = "O cabeçalho Accept não aceita JSON."
    action = "Envie Accept: application/json (ou omita o cabeçalho)."


class UnsupportedMediaType(ProblemError):
    status = 415
    problem_id = "unsupported-media-type"
    title = "Tipo de conteúdo não suportado"
    cause = (
        "O corpo não foi enviado como application/json, ou o Content-Type nomeia um "
        "charset que o serviço não lê (um codec que não é de texto, como rot13 ou hex; "
        "em formulários, qualquer um além de UTF-8)."
    )
    action = "Envie o corpo em JSON, em UTF-8, com Content-Type: application/json."


class TooManyRequests(ProblemError):
    status = 429
    problem_id = "too-many-requests"
    title = "Limite de requisições excedido"
    cause = "Chamadas demais em pouco tempo."
    action = "Espere Retry-After segundos e diminua o ritmo das chamadas."


class InternalError(ProblemError):
    status = 500
    problem_id = "internal-error"
    title = "Erro interno"
    cause = (
        "Um erro inesperado do serviço (também usado, com o status recebido, para "
        "outros erros 5xx). Nenhum detalhe interno é mostrado."
    )
    action = (
        "Tente de novo mais tarde. Se persistir, informe ao suporte o endereço em "
        "instance: ele identifica a ocorrência no registro do serviço."
    )


# The problem for a bare HTTP status answered by Django or a library (a 405 of a plain
# view, a technical 404, a refused Host...), when nothing more specific was raised.
_FOR_STATUS = {problem.status: problem for problem in (
    BadRequest, Unauthorized, Forbidden, NotFound, MethodNotAllowed, NotAcceptable,
    RequestBodyTooLarge, UnsupportedMediaType, TooManyRequests, InternalError,
)}


def problem_for_status(status: int) -> type[ProblemError]:
    """``bad-request`` for a 4xx without a problem of its own, ``internal-error`` for a 5xx."""
    return _FOR_STATUS.get(status) or (InternalError if status >= 500 else BadRequest)
