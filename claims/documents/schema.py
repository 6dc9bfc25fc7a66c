"""The local ``PUT /uploads/{token}`` in the OpenAPI schema: a plain Django view, so
drf-spectacular does not see it; described by a post-processing hook (only with local
storage: with S3, ``url-envio`` is the bucket's)."""

from django.conf import settings

from api_common.openapi_hooks import problem_response
from claims.documents import errors as file_errors

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
            **problem_response("Link de envio inválido ou expirado ({}, {}).",
                               file_errors.UploadLinkInvalid, file_errors.UploadLinkExpired),
            **problem_response("Este link já recebeu um arquivo ({}).",
                               file_errors.UploadAlreadyReceived),
            **problem_response("Arquivo grande demais ({}).", file_errors.UploadTooLarge),
            **problem_response("`Content-Type` diferente do registrado ({}).",
                               file_errors.UploadContentTypeMismatch),
            **problem_response("Conteúdo não confere com o tipo do arquivo ({}).",
                               file_errors.UploadRejected),
        },
    }


def upload_operation(result, generator, request, public):
    if settings.DOCUMENT_STORAGE == "local":
        result["paths"]["/uploads/{token}"] = {"put": _upload_operation()}
    return result
