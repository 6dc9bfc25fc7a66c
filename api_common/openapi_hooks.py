"""drf-spectacular post-processing: what the views cannot say about themselves.

- path parameters named as in the contract (Django converters need identifiers);
- the answers every operation can give (405, 406, 414, 415, 429), as problem JSON;
- the means for links between operations (a sale -> its claim -> the claim's
  documents...), which each app declares for its own operations.

Listed in ``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``, with the apps' own hooks
(the token and upload operations, outside DRF, and the links) beside their views.
"""



from api_common import http_problems as http
from api_common.problem_types import describe
from api_common.problems import PROBLEM_CONTENT_TYPE

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def _operations(result):
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                yield path, method, operation


def problem_response(description: str, *problems, headers: dict | None = None) -> dict:
    """``{status: response}`` for an operation written by hand (a hook's): problem JSON,
    the status and ids taken from the problem classes (``problem_types.describe``)."""
    status, text = describe(description, problems)
    response = {"description": text, "content": {PROBLEM_CONTENT_TYPE: {"schema": PROBLEM_REF}}}
    if headers:
        response["headers"] = headers
    return {str(status): response}


# URL parameters as the contract names them (Django's converters need identifiers). Part
# of the contract, not a setting.
PATH_PARAMETER_NAMES = {
    "sale_id": "id-venda",
    "number": "numero-sinistro",
    "subscription_id": "id-webhook",
    "delivery_id": "id-entrega",
    "file_id": "id",
}


def contract_path_parameters(result, generator, request, public):
    """URL parameters under the contract's names (``PATH_PARAMETER_NAMES``)."""
    names = PATH_PARAMETER_NAMES
    paths = {}
    for path, operations in result.get("paths", {}).items():
        for code_name, contract_name in names.items():
            path = path.replace(f"{{{code_name}}}", f"{{{contract_name}}}")
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path":
                    parameter["name"] = names.get(parameter["name"], parameter["name"])
        paths[path] = operations
    result["paths"] = paths
    return result


# --- answers every operation can give ----------------------------------------------------

RETRY_AFTER = {"Retry-After": {
    "description": "Segundos até poder tentar de novo.",
    "schema": {"type": "integer", "minimum": 0},
}}
ALLOW = {"Allow": {"description": "Os métodos aceitos neste endereço.",
                   "schema": {"type": "string"}}}


def common_responses(result, generator, request, public):
    """405 (with ``Allow``), 406, 414 and 429 (with ``Retry-After``) on every operation;
    415 on those with a body. Each is problem JSON, like every error of the API."""
    for path, _method, operation in _operations(result):
        if not path.startswith("/api/"):
            continue  # the token and upload views answer for themselves (see below)
        common = {
            **problem_response("Método não permitido neste endereço ({}).",
                               http.MethodNotAllowed, headers=ALLOW),
            **problem_response("`Accept` não admite JSON ({}).", http.NotAcceptable),
            **problem_response("Limite de requisições excedido ({}).", http.TooManyRequests,
                               headers=RETRY_AFTER),
            # Refused before the service (nginx, Gunicorn's limit_request_line), still
            # problem JSON with problem-id bad-request (deploy/nginx.conf).
            "414": {"description": "Endereço (URI) longo demais, recusado antes do serviço "
                                   "(`bad-request`).",
                    "content": {PROBLEM_CONTENT_TYPE: {"schema": PROBLEM_REF}}},
        }
        if "requestBody" in operation:
            common.update(problem_response("Corpo em formato não aceito ({}).",
                                           http.UnsupportedMediaType))
        responses = operation.setdefault("responses", {})
        for status, response in common.items():
            responses.setdefault(status, response)
    return result


# --- links: follow the flow with values from the responses ------------------------------


def link(operation_id: str, description: str, **parameters: str) -> dict:
    """An OpenAPI link to ``operation_id``, its parameters taken from the response."""
    return {"operationId": operation_id, "description": description, "parameters": parameters}


def add_links(result, links: dict) -> dict:
    """Add ``links`` ((operation id, status) -> links) to their responses. A link to an
    operation the schema lacks is an error here, not a dangling reference for clients.
    Each app's hook calls it with its own links (claims.schema, webhooks.schema,
    sandbox.schema), also on another app's operations."""
    operations = {op.get("operationId"): op for _p, _m, op in _operations(result)}
    for (operation_id, status), by_name in links.items():
        if operation_id not in operations:
            continue  # a partial schema (e.g. filtered by the docs page) has no such operation
        missing = {one["operationId"] for one in by_name.values()} - set(operations)
        if missing:
            raise ValueError(f"links of {operation_id} name unknown operations: {missing}")
        operations[operation_id]["responses"][status].setdefault("links", {}).update(by_name)
    return result
