"""One registry of problem ids (api_common.problem_types): every id the code can answer
has an entry, docs/problems.md lists the same ids, and each problem's ``type`` URL opens
a page in Portuguese saying what causes it and what to do."""

import ast
import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

import claims.errors  # noqa: F401  (registers the domain's problem classes)
import webhooks.errors  # noqa: F401
from api_common import problems
from api_common.problem_types import PROBLEM_TYPES, problem_type_for_status
from api_common.problems import ProblemError
from whitelabel import wording

ROOT = Path(__file__).resolve().parents[2]
APPS = ["api_common", "claims", "webhooks", "whitelabel", "config"]


def problem_ids_written_in_the_code() -> dict[str, Path]:
    """Every literal problem id: ``problem_id = "x"`` (also in tuple assignments) and
    ``problem_id="x"`` arguments, in every module of the apps."""
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                pairs = []
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                            pairs += list(zip(target.elts, node.value.elts, strict=False))
                        else:
                            pairs.append((target, node.value))
                    pairs = [(t.id, v) for t, v in pairs if isinstance(t, ast.Name)]
                elif isinstance(node, ast.keyword) and node.arg:
                    pairs = [(node.arg, node.value)]
                for name, value in pairs:
                    if (name == "problem_id" and isinstance(value, ast.Constant)
                            and isinstance(value.value, str)):
                        found[value.value] = path
    return found


def all_subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from all_subclasses(sub)


def documented() -> dict[str, set[int]]:
    text = (ROOT / "docs" / "problems.md").read_text(encoding="utf-8")
    rows: dict[str, set[int]] = {}
    for problem_id, status in re.findall(r"^\| `([a-z0-9-]+)` \| (\d{3}) \|", text, re.MULTILINE):
        rows.setdefault(problem_id, set()).add(int(status))
    return rows


# --- the registry is complete and agrees with the code ---------------------------------


def test_the_code_scan_finds_ids_of_every_kind():
    found = problem_ids_written_in_the_code()

    assert {"claim-not-found", "too-many-token-requests", "invalid-request",
            "internal-error", "malformed-request", "webhook-not-found"} <= set(found)


def test_every_problem_id_in_the_code_is_registered():
    unregistered = {pid: str(path) for pid, path in problem_ids_written_in_the_code().items()
                    if pid not in PROBLEM_TYPES}

    assert unregistered == {}


def test_every_problem_class_has_its_registered_status_and_title():
    for cls in all_subclasses(ProblemError):
        if "problem_id" not in vars(cls):
            continue  # an abstract family (BusinessRuleError): its subclasses say
        registered = PROBLEM_TYPES[cls.problem_id]
        assert (cls.status, cls.title) == (registered.status, registered.title), cls


def test_drf_errors_and_bare_statuses_map_to_registered_ids():
    for _, problem_id in problems._DRF_PROBLEMS:
        assert problem_id in PROBLEM_TYPES
    for status in range(400, 600):
        assert problem_type_for_status(status).id in PROBLEM_TYPES


def test_the_hosted_pages_word_registered_refusals_only():
    assert set(wording.OPENING_REFUSALS) <= set(PROBLEM_TYPES)


def test_every_entry_says_what_causes_it_and_what_to_do():
    for problem in PROBLEM_TYPES.values():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", problem.id)
        assert 400 <= problem.status < 600
        assert problem.title and problem.cause and problem.action, problem.id


def test_docs_list_the_same_ids_with_the_same_status():
    docs = documented()

    assert set(docs) == set(PROBLEM_TYPES)
    for problem_id, statuses in docs.items():
        assert statuses == {PROBLEM_TYPES[problem_id].status}, problem_id


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
