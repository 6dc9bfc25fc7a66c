"""No admin page answers 500 to a NUL in its query string (PostgreSQL's text refuses
U+0000): every changelist's search and filters, and the claim export, fuzzed at once."""

import re
from html import unescape
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.support.factories import ClaimFactory

pytestmark = pytest.mark.django_db
NASTY = ["\x00", "a\x00b", "%00"]


@pytest.fixture
def root():
    client = Client()
    client.force_login(User.objects.create_superuser("raiz", "raiz@example.com", "x"))
    return client


def changelists() -> list[str]:
    return sorted(reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
                  for model in admin.site._registry)


def filter_parameters(page: str) -> set[str]:
    """The parameters the page's filter links use (``?status__exact=...``)."""
    names = set()
    for href in re.findall(r'href="(\?[^"]*)"', page):
        names.update(name for name, _ in parse_qsl(urlsplit(unescape(href)).query))
    return names - {"o", "p", "all", "_changelist_filters"}


def test_every_changelists_search_and_filters_refuse_a_nul_without_a_500(root):
    ClaimFactory()
    tried = 0
    for url in changelists():
        page = root.get(url)
        assert page.status_code in (200, 302), url
        for name in {"q", *filter_parameters(page.content.decode())}:
            for value in NASTY:
                response = root.get(f"{url}?{urlencode({name: value})}")
                tried += 1
                assert response.status_code in (200, 302, 400), (url, name, value)
        assert root.get(url, {"a\x00": "1"}).status_code == 400
    assert tried > 100  # the filters were found, not skipped


@pytest.mark.parametrize("query", [{"cobertura": "\x00"}, {"status": "\x00"},
                                   {"q": "SIN-\x00"}])
def test_the_claim_list_and_its_export_refuse_a_nul_with_a_400(root, query):
    for url in ("/admin/claims/claim/", "/admin/claims/claim/exportar/"):
        response = root.get(url, query)

        assert response.status_code == 400, url
        assert b"Traceback" not in response.content


def test_the_api_keeps_its_own_problem_answers(api):
    response = api.get("/api/v1/vendas", {"cpf": "\x00"})

    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/problem+json")
