"""One registry of problem types (api_common.problem_types), filled by the problem
classes themselves: each id, status, title, cause and action is written once, on its
class; the pages, the schema's error responses and docs/problems.md are read from there,
and each problem's ``type`` URL opens a page in Portuguese saying what causes it and
what to do."""

import ast
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from rest_framework.test import APIClient

from api_common import http_problems, problems
from api_common.problem_types import PROBLEM_TYPES, ProblemError, by_group, describe
from claims import errors
from whitelabel import wording

ROOT = Path(__file__).resolve().parents[2]
APPS = ["api_common", "claims", "webhooks", "whitelabel", "idempotency", "config"]


def all_subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from all_subclasses(sub)


# --- each problem is its class -----------------------------------------------------------


def test_the_registry_is_whole_once_django_is_set_up():
    """Every app imports its error modules in ``ready``: importing every module of the
    apps afterwards finds no problem class the pages would have missed."""
    script = """
import importlib, os, pkgutil, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from api_common.problem_types import PROBLEM_TYPES
at_start = set(PROBLEM_TYPES)
for app in sys.argv[1:]:
    package = importlib.import_module(app)
    for module in pkgutil.walk_packages(package.__path__, app + "."):
        if ".migrations." not in module.name and not module.name.startswith("config.settings"):
            importlib.import_module(module.name)
print(len(at_start), sorted(set(PROBLEM_TYPES) - at_start))
"""
    done = subprocess.run([sys.executable, "-c", script, *APPS[:-1]], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)

    assert done.returncode == 0, done.stderr[-2000:]
    count, missed = done.stdout.split(" ", 1)
    assert missed.strip() == "[]"
    assert int(count) == len(PROBLEM_TYPES) >= 60


def test_no_problem_id_is_written_outside_its_class():
    """Responses, schema descriptions and wording name the class, never the id: the only
    string that is exactly an id is the ``problem_id = "..."`` of its class."""
    written = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            defining = {id(statement.value) for cls in ast.walk(tree)
                        if isinstance(cls, ast.ClassDef) for statement in cls.body
                        if isinstance(statement, ast.Assign)
                        and [getattr(t, "id", None) for t in statement.targets] == ["problem_id"]}
            written += [f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}"
                        for node in ast.walk(tree)
                        if isinstance(node, ast.Constant) and node.value in PROBLEM_TYPES
                        and id(node) not in defining]
    assert written == []


def test_each_class_naming_a_new_id_must_say_its_words():
    with pytest.raises(TypeError, match="without its own cause, action"):
        class Vague(ProblemError):  # noqa: F841
            status = 422
            problem_id = "vague-problem"
            title = "Vago"

    assert "vague-problem" not in PROBLEM_TYPES


def test_an_id_is_defined_once_and_raised_elsewhere_by_subclassing():
    with pytest.raises(TypeError, match="already defined"):
        class AnotherNotFound(ProblemError):  # noqa: F841
            status = 404
            problem_id = "claim-not-found"
            title, cause, action = "Outro", "Outra causa", "Outra ação"

    assert PROBLEM_TYPES["claim-not-found"].title == errors.ClaimNotFound.title
    assert errors.ActionNotPermitted.problem_id == "forbidden"
    assert PROBLEM_TYPES["forbidden"].cause == http_problems.Forbidden.cause


def test_drf_errors_and_bare_statuses_map_to_registered_problems():
    for _, problem in problems._DRF_PROBLEMS:
        assert PROBLEM_TYPES[problem.problem_id].status == problem.status
    assert http_problems.problem_for_status(418) is http_problems.BadRequest
    assert http_problems.problem_for_status(502) is http_problems.InternalError
    for status in range(400, 600):
        assert http_problems.problem_for_status(status).problem_id in PROBLEM_TYPES


def test_the_hosted_pages_word_registered_refusals_only():
    for refusal in wording.OPENING_REFUSALS:
        assert issubclass(refusal, errors.BusinessRuleError)
        assert refusal.problem_id in PROBLEM_TYPES


def test_every_entry_says_what_causes_it_and_what_to_do():
    for problem in PROBLEM_TYPES.values():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", problem.id)
        assert 400 <= problem.status < 600
        assert problem.title and problem.cause and problem.action, problem.id


def test_a_schema_response_names_problems_of_one_status():
    assert describe("Venda ({}) ou sinistro ({}).", (errors.SaleNotFound, errors.ClaimNotFound)) \
        == (404, "Venda (`sale-not-found`) ou sinistro (`claim-not-found`).")
    with pytest.raises(ValueError, match="one status"):
        describe("{} ou {}", (errors.SaleNotFound, errors.SaleNotActive))


def test_the_docs_are_written_from_the_classes():
    call_command("problem_docs", check=True)  # `make docs` rewrites it

    text = (ROOT / "docs" / "problems.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| (\d{3}) \| ([^|]+) \|", text, re.MULTILINE)
    assert {(pid, int(status), title.strip()) for pid, status, title in rows} == {
        (p.id, p.status, p.title) for p in PROBLEM_TYPES.values()}


def test_groups_list_their_problems_by_status():
    for _group, listed in by_group():
        assert [p.status for p in listed] == sorted(p.status for p in listed)
    assert sum(len(listed) for _g, listed in by_group()) == len(PROBLEM_TYPES)


# --- the pages -------------------------------------------------------------------------


@pytest.fixture
def browser(db):
    return APIClient()


def assert_page(response, status=200) -> str:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "text/html; charset=utf-8"
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'self'" in policy
    html = response.content.decode()
    assert '<html lang="pt-BR">' in html
    assert "<script" not in html and "style=" not in html and "<style" not in html
    return html


@pytest.mark.parametrize("problem_id", sorted(PROBLEM_TYPES))
def test_each_problem_type_url_opens_a_page_describing_it(browser, problem_id):
    problem = PROBLEM_TYPES[problem_id]

    html = assert_page(browser.get(f"/api/v1/problemas/{problem_id}"))

    for text in (problem.title, problem_id, f"<dd>{problem.status}</dd>", "O que causa",
                 "O que fazer"):
        assert text in html
    assert "/static/api_common/problemas.css" in html


def test_the_page_text_is_escaped_from_the_registry(browser):
    html = assert_page(browser.get("/api/v1/problemas/claim-already-opened-for-coverage"))

    assert "Já existe um sinistro em aberto" in html
    assert "numero-sinistro: o sinistro em aberto" in html


def test_the_index_links_every_problem(browser):
    html = assert_page(browser.get("/api/v1/problemas/"))

    linked = set(re.findall(r'href="/api/v1/problemas/([a-z0-9-]+)"', html))
    assert linked == set(PROBLEM_TYPES)


def test_an_unknown_problem_is_a_404_page(browser):
    html = assert_page(browser.get("/api/v1/problemas/nao-existe"), status=404)

    assert "nao-existe" in html and "Problema desconhecido" in html


def test_the_stylesheet_is_served(browser):
    response = browser.get("/static/api_common/problemas.css")

    assert response.status_code == 200
    assert b"font-family" in b"".join(response.streaming_content)


def test_a_real_problems_type_and_instance_open_its_page(api):
    body = api.get("/api/v1/sinistros/SIN-NAOEXISTE").json()
    assert body["type"].startswith(settings.PROBLEMS_URL)
    local = body["type"].removeprefix(settings.BASE_URL)
    instance = body["instance"].removeprefix(settings.BASE_URL)

    type_page = assert_page(APIClient().get(local))
    instance_page = assert_page(APIClient().get(instance))

    assert "Sinistro não encontrado" in type_page
    assert instance.rsplit("/", 1)[1] in instance_page and "suporte" in instance_page


def test_an_instance_of_an_unknown_problem_is_a_404_page(browser):
    assert_page(browser.get(f"/api/v1/problemas/nao-existe/{uuid.uuid4()}"), status=404)


def test_problem_pages_answer_only_get_and_head(browser):
    response = browser.post("/api/v1/problemas/claim-not-found")

    assert response.status_code == 405
