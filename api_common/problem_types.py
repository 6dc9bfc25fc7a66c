"""Problem types (RFC 9457 §3.1.1): each is one :class:`ProblemError` subclass, and that
class is the only place its id, status, title, cause and action are written.

Defining a subclass with its own ``problem_id`` registers it here, as DRF's exceptions
carry their ``default_code``. The registry feeds the pages each ``type`` URL opens
(``/api/v1/problemas/<id>``), the schema's error responses (``api_common.schema``),
the ids picked for a bare HTTP status, and docs/problems.md (``manage.py problem_docs``).
Each app imports its error modules in ``AppConfig.ready``, so the registry is whole once
Django is set up; api_common itself imports no app.
"""

from dataclasses import dataclass
from typing import Any, ClassVar

# Who meets the problem: sections of the index page and of docs/problems.md, in order.
API = "API dos canais"
UPLOAD = "Envio de arquivos (url-envio) e notificações do armazenamento"
ANALYSTS = "Ações dos analistas (admin)"
OPERATIONS = "Operação (comandos)"
GROUPS = [API, UPLOAD, ANALYSTS, OPERATIONS]


@dataclass(frozen=True)
class ProblemType:
    """What the pages and the docs say of a problem class."""

    id: str
    status: int
    title: str
    cause: str  # what makes the service answer it
    action: str  # what the caller should do about it
    group: str = API
    members: str = ""  # members beyond the standard ones, if any


PROBLEM_TYPES: dict[str, ProblemType] = {}


class ProblemError(Exception):
    """An error with a stable problem id. Subclass it; do not raise it bare.

    A subclass that names a new ``problem_id`` must say its ``status``, ``title``,
    ``cause`` and ``action`` (and ``group``/``members`` when not the defaults); a
    subclass without its own ``problem_id`` raises its parent's type with other words.
    """

    status: ClassVar[int]
    problem_id: ClassVar[str]
    title: ClassVar[str]
    cause: ClassVar[str]
    action: ClassVar[str]
    group: ClassVar[str] = API
    members: ClassVar[str] = ""
    default_detail: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "problem_id" in vars(cls):
            _register(cls)

    def __init__(self, detail: str | None = None, **extra: Any) -> None:
        self.detail = detail or self.default_detail or self.title
        # Extra members of the problem object, already in wire (kebab-case) form.
        self.extra = extra
        super().__init__(self.detail)


def _register(cls: type[ProblemError]) -> None:
    # The status may come from a family (BusinessRuleError's 422); the words are its own.
    missing = [name for name in ("title", "cause", "action") if name not in vars(cls)]
    if missing:
        raise TypeError(f"{cls.__qualname__} names problem {cls.problem_id!r} without "
                        f"its own {', '.join(missing)}")
    if cls.problem_id in PROBLEM_TYPES:
        raise TypeError(f"problem {cls.problem_id!r} is already defined; subclass its "
                        f"class to raise it from {cls.__qualname__}")
    if cls.group not in GROUPS:
        raise TypeError(f"{cls.__qualname__}: unknown group {cls.group!r}")
    PROBLEM_TYPES[cls.problem_id] = ProblemType(
        id=cls.problem_id, status=cls.status, title=cls.title, cause=cls.cause,
        action=cls.action, group=cls.group, members=cls.members,
    )


def describe(description: str, problems: tuple[type[ProblemError], ...]) -> tuple[int, str]:
    """The status ``problems`` share, and ``description`` with each one's id, in code
    style, where it has ``{}``: the schema's words for an error response, whose id and
    status come from the classes."""
    statuses = {problem.status for problem in problems}
    if len(statuses) != 1:
        raise ValueError(f"one response, one status: {description!r} names {statuses}")
    return statuses.pop(), description.format(*(f"`{p.problem_id}`" for p in problems))


def by_group() -> list[tuple[str, list[ProblemType]]]:
    """Each group's problems by status, then id: the index page's and docs/problems.md's
    order, which does not depend on the order the apps' modules were imported."""
    return [
        (group, sorted((p for p in PROBLEM_TYPES.values() if p.group == group),
                       key=lambda problem: (problem.status, problem.id)))
        for group in GROUPS
    ]
