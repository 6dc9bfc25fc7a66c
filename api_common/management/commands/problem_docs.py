"""``manage.py problem_docs``: docs/problems.md from the problem classes."""

from api_common.generated_docs import GeneratedDocCommand
from api_common.problem_types import by_group
from api_common.problems import MACHINE_PATH_PREFIXES

INTRO = """\
# Problem ids

<!-- Written by `make docs` (manage.py problem_docs) from the problem classes: edit the
     class (its title, cause, action), not this file. -->

Every error is `application/problem+json` (RFC 9457):

```json
{{"type": "{{problems_url}}/<problem-id>", "title": "...", "status": 422, "detail": "...",
 "problem-id": "<problem-id>", "instance": "{{problems_url}}/<problem-id>/<uuid>"}}
```

`instance` is new for every occurrence and is logged with server errors, so support can
find the request. Members beyond these are listed per problem.

Each `type` opens a page in Portuguese (`/api/v1/problemas/<problem-id>`, all of them at
`/api/v1/problemas/`) with the title, the status, what causes the problem and what to
do; an `instance` opens the same page naming the occurrence. The pages, the schema's
error responses and this file are read from one place: each problem is a `ProblemError`
subclass (`api_common/http_problems.py` for HTTP's own, `claims/errors/` (by who meets them),
`claims/documents/errors.py`, `channel_auth/errors.py`, `webhooks/errors.py`,
`idempotency/services.py`, `payouts/errors.py`, `decisions/errors.py`), which registers itself in `api_common/problem_types.py`.

Errors on the paths for programs ({machine_paths})
are problems whoever answers them (Django, a library, DEBUG's technical pages): a bare
status gets the id of its row below (`bad-request` for a 4xx without one,
`internal-error` for a 5xx).

The token endpoint (`POST /oauth/token`) answers its errors as problems too, each also
carrying RFC 6749's members (`"error": "invalid_client"`, `"error_description"`), which
OAuth client libraries read; a token request body past 8 KiB is
`request-body-too-large` with `"error": "invalid_request"`.

The analysts' moves in the admin are refused with problem ids too (the admin shows their
`detail` on the action's form or as a message on the claim page), so that any later API
for these moves answers the same way; a role that does not allow the move is
`forbidden`.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


class Command(GeneratedDocCommand):
    help = "Escreve docs/problems.md a partir das classes de problema (--check: só confere)."
    path = "docs/problems.md"

    def render(self) -> str:
        paths = ", ".join(f"`{prefix}`" for prefix in MACHINE_PATH_PREFIXES)
        parts = [INTRO.format(machine_paths=paths)]
        for group, problems in by_group():
            parts.append(f"\n## {group}\n\n"
                         "| problem-id | status | título | o que causa | o que fazer | "
                         "membros adicionais |\n|---|---|---|---|---|---|\n")
            parts.extend(
                f"| `{p.id}` | {p.status} | {_cell(p.title)} | {_cell(p.cause)} | "
                f"{_cell(p.action)} | {_cell(p.members)} |\n"
                for p in problems
            )
        return "".join(parts)
