"""drf-spectacular post-processing: the Idempotency-Key header described on every POST of
the API (every one is decorated with ``idempotency.services.idempotent``:
tests/idempotency), its 400 and 422, and ``Idempotent-Replayed`` on the 2xx answers."""

from api_common.http_problems import InvalidRequest
from api_common.openapi_hooks import problem_response
from idempotency.services import HEADER, REPLAYED_HEADER, KeyReused

IDEMPOTENCY_NOTE = (
    f"**Idempotência**: envie o cabeçalho opcional `{HEADER}` (uma chave nova por operação, "
    "como um UUID v4; 1 a 255 caracteres ASCII visíveis). Repetir o pedido com a mesma chave "
    "e o mesmo corpo em até 24 horas devolve a primeira resposta sem agir de novo (com "
    f"`{REPLAYED_HEADER}: true`); a mesma chave com outro caminho ou corpo é um "
    f"{KeyReused.status} `{KeyReused.problem_id}`; uma chave malformada, um 400. Pedidos simultâneos com a mesma "
    "chave agem uma vez. Só respostas 2xx são guardadas."
)


def idempotency_header(result, generator, request, public):
    for path, item in result.get("paths", {}).items():
        operation = item.get("post")
        if operation is None or not path.startswith("/api/v1/"):
            continue
        # Said in the description, not as a header parameter: schemathesis' coverage
        # phase, varying an optional header, also sent bodies no schema allows and
        # counted their refusal as a valid request rejected.
        operation["description"] = (operation.get("description", "") + "\n\n"
                                    + IDEMPOTENCY_NOTE).strip()
        for code, response in operation.get("responses", {}).items():
            if str(code).startswith("2"):
                response.setdefault("headers", {})[REPLAYED_HEADER] = {
                    "description": "true quando é a resposta guardada de um pedido anterior "
                                   "com a mesma Idempotency-Key.",
                    "schema": {"type": "string", "enum": ["true"]}}
        refusals = {
            **problem_response("Idempotency-Key malformada ({}, no campo `Idempotency-Key`).",
                               InvalidRequest),
            **problem_response("A Idempotency-Key já foi usada com outro pedido ({}).",
                               KeyReused),
        }
        responses = operation.setdefault("responses", {})
        for status, response in refusals.items():
            responses.setdefault(status, response)
    return result
