"""What every admin page shares: the site's name in its header (the 403 and lockout
pages too) and an icon the Content-Security-Policy allows."""

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.support.lifecycle import logged_in, staff

pytestmark = pytest.mark.django_db

ICON_LINK = '<link rel="icon" href="/static/claims/favicon.svg" type="image/svg+xml">'


def test_the_403_page_is_headed_by_the_sites_name():
    nobody = logged_in(staff("sem-papel", None))

    response = nobody.get("/admin/claims/claim/")

    page = response.content.decode()
    assert response.status_code == 403
    assert '<div id="site-name"><a href="/admin/">Sinistros: retaguarda</a></div>' in page
    assert "<title>Acesso negado | Sinistros</title>" in page
    assert "Django" not in page


def test_the_lockout_page_is_headed_by_the_sites_name(settings):
    settings.AXES_FAILURE_LIMIT = 1
    staff("ana", "Analista de sinistros")
    client = Client(REMOTE_ADDR="203.0.113.9")
    client.post("/admin/login/", {"username": "ana", "password": "errada"})

    locked = client.post("/admin/login/", {"username": "ana", "password": "senha-forte-123"})

    assert locked.status_code == 429
    assert "Sinistros: retaguarda" in locked.content.decode()
    assert "Django" not in locked.content.decode()


@pytest.mark.parametrize("path", ["/admin/login/", "/admin/", "/admin/claims/claim/",
                                  "/admin/claims/sale/", "/admin/webhooks/subscription/"])
def test_every_admin_page_links_the_sites_icon(supervisor, path):
    response = supervisor.get(path) if path != "/admin/login/" else Client().get(path)

    assert response.status_code == 200
    assert ICON_LINK in response.content.decode()
    # The policy allows our own images: the icon is served from our origin.
    assert "img-src 'self'" in response["Content-Security-Policy"]


def test_the_icon_files_exist_and_favicon_ico_leads_to_one():
    response = Client().get("/favicon.ico")

    assert response.status_code == 302
    assert response.url == "/static/claims/favicon.ico"
    assert finders.find("claims/favicon.ico") and finders.find("claims/favicon.svg")
    with open(finders.find("claims/favicon.ico"), "rb") as icon:
        assert icon.read(4) == b"\x00\x00\x01\x00"  # an ICO file
