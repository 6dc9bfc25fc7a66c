"""What every response on the machine paths (/api/, /oauth/, /uploads/, /armazenamento/)
promises, whoever produced it: errors are problem JSON, and /api/v1 is never cached.

Most errors are problems already (DRF's exception handler, the domain's ProblemError,
handler400/403/404/500). This catches the rest: a plain Django view's bare 405, Django's
technical 404/500 pages when DEBUG is on, a refused Host before any view runs, a
library's HTML. It goes first in MIDDLEWARE so it sees every other middleware's answer.
"""

from django.core.exceptions import BadRequest, RequestDataTooBig
from django.http import Http404

from api_common.http_problems import RequestBodyTooLarge, problem_for_status
from api_common.problems import (
    PROBLEM_CONTENT_TYPE,
    PROBLEM_PAGES_PREFIX,
    is_machine_path,
    problem_error_response,
    problem_json_response,
)

# Headers of the replaced response that still tell the client what to do next.
_KEPT_HEADERS = ("Allow", "WWW-Authenticate", "Retry-After", "Vary")
_DETAILS = {
    400: "A requisição foi recusada: confira o endereço (host) e os cabeçalhos.",
    403: "Acesso negado a este recurso.",
    404: "Nenhum recurso neste endereço.",
    500: "Ocorreu um erro inesperado. Tente novamente mais tarde.",
}
# Everything under /api/v1 carries a channel's claims, sales or subscriptions, or
# could: no shared or browser cache may keep it. The schema, its docs page and the
# problem pages describe the API and hold nothing personal.
_PRIVATE_PREFIX = "/api/v1/"
_PUBLIC_PREFIXES = ("/api/v1/schema/", "/api/v1/docs/")


def _has_nul(query) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values)
               for key, values in query.lists())


class MachinePathMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.status_code >= 400
            and is_machine_path(request.path)
            and not self._is_problem_already(request, response)
        ):
            response = self._problem_for(request, response)
        if request.path.startswith(_PRIVATE_PREFIX) and not request.path.startswith(
                (*_PUBLIC_PREFIXES, PROBLEM_PAGES_PREFIX)):
            response["Cache-Control"] = "no-store"
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        # No resource of ours has a NUL in its address, and PostgreSQL cannot even look
        # one up (text refuses U+0000): a 404 before any view queries with it. Raised
        # here, it goes through handler404 like any other not-found.
        if "\x00" in request.path:
            raise Http404("Endereço com caractere nulo.")
        # The pages' query strings (the admin's filters, searches and exports, the hosted
        # pages') reach the database as they come: one with a NUL is refused here, for
        # every page at once, with a 400 (handler400). The API validates its own
        # parameters and answers problem JSON (api_common.schema: no NUL in any string).
        if not is_machine_path(request.path) and _has_nul(request.GET):
            raise BadRequest("Parâmetro com caractere nulo no endereço.")

    def process_exception(self, request, exception):
        # A plain view read request.body past DATA_UPLOAD_MAX_MEMORY_SIZE. Django calls
        # that a 400 (and shows its technical page when DEBUG is on); it is a 413.
        if isinstance(exception, RequestDataTooBig) and is_machine_path(request.path):
            return problem_error_response(RequestBodyTooLarge())
        return None

    @staticmethod
    def _is_problem_already(request, response) -> bool:
        # The token endpoint's errors are problems too, carrying RFC 6749's ``error``.
        return response.get("Content-Type", "").startswith(PROBLEM_CONTENT_TYPE)

    @staticmethod
    def _problem_for(request, response):
        status = response.status_code
        problem = problem_for_status(status)
        if status == 405:
            detail = f"O método {request.method} não é aceito neste endereço."
        else:
            detail = _DETAILS.get(status, problem.title + ".")
        headers = {
            name: value
            for name, value in response.items()
            if name in _KEPT_HEADERS or name.lower().startswith("access-control-")
        }
        return problem_json_response(
            problem_id=problem.problem_id, status=status, title=problem.title, detail=detail,
            headers=headers,
        )
