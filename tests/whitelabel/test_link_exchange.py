"""Opening gerar-url's link: a session cookie for that sale, once, within its lifetime;
anything else is one friendly page that tells a guesser nothing."""

import datetime as dt

from django.test import Client
from django.utils import timezone

from claims.models import Sale
from tests.support.hosted import (SESSION_COOKIE, exchange, generate_link, open_session,
                                     path_of)
from whitelabel.models import AccessLink

REFUSED = "Este link não está mais disponível"


def test_the_link_sets_a_session_cookie_and_redirects_to_a_clean_address(link_url, settings):
    response = exchange(Client(), path_of(link_url))

    assert response.status_code == 303
    assert response["Location"] == "/segurado/"
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response["Cache-Control"]
    cookie = response.cookies[SESSION_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/segurado/"
    assert bool(cookie["secure"]) is settings.SESSION_COOKIE_SECURE  # "" when not secure
    assert cookie.value not in link_url
    assert 23 * 3600 < int(cookie["max-age"]) <= 24 * 3600


def test_the_cookie_is_secure_in_production(link_url, settings):
    settings.SESSION_COOKIE_SECURE = True

    response = Client().post(path_of(link_url), secure=True)

    assert response.cookies[SESSION_COOKIE]["secure"]


WHATSAPP = "WhatsApp/2.23.20.0 A"


def test_a_messaging_apps_preview_spends_nothing_and_the_person_still_gets_in(
        link_url, django_assert_num_queries):
    preview = Client(HTTP_USER_AGENT=WHATSAPP)
    with django_assert_num_queries(0):  # not even a lookup: no oracle for a guesser
        opened = preview.get(path_of(link_url))
        head = preview.head(path_of(link_url))

    assert opened.status_code == head.status_code == 200
    page = opened.content.decode()
    assert "Continuar" in page and REFUSED not in page
    assert SESSION_COOKIE not in opened.cookies
    assert opened["Referrer-Policy"] == "same-origin" and "no-store" in opened["Cache-Control"]
    assert AccessLink.objects.get().exchanged_at is None

    person = open_session(link_url)  # opens the same page, taps "Continuar"
    assert person.get("/segurado/").status_code == 200


def test_every_token_opens_the_same_page_used_forged_or_good(api, sale, link_url):
    used = path_of(generate_link(api, sale)["url"])
    open_session(used)

    pages = {Client().get(path).content.decode().split("csrfmiddlewaretoken")[0]
             for path in (used, path_of(link_url), "/segurado/acesso/" + "A" * 43)}

    assert len(pages) == 1


def test_continuar_without_the_pages_csrf_token_spends_nothing(link_url):
    response = Client(enforce_csrf_checks=True).post(path_of(link_url))

    assert response.status_code == 403
    assert AccessLink.objects.get().exchanged_at is None


def test_the_home_page_opens_with_the_session(insured, sale):
    response = insured.get("/segurado/")

    assert response.status_code == 200
    assert sale.insured_name in response.content.decode()


def test_a_link_works_once(link_url):
    open_session(link_url)

    response = exchange(Client(), path_of(link_url))

    assert response.status_code == 403
    assert REFUSED in response.content.decode()
    assert SESSION_COOKIE not in response.cookies or not response.cookies[SESSION_COOKIE].value


def test_the_same_link_again_in_the_same_browser_just_continues(insured, link_url):
    response = insured.get(path_of(link_url))

    assert response.status_code == 302
    assert response["Location"] == "/segurado/"
    assert insured.get("/segurado/").status_code == 200


def test_expired_used_and_forged_tokens_get_the_same_page_and_status(api, sale, link_url):
    used = path_of(generate_link(api, sale)["url"])
    open_session(used)
    AccessLink.objects.filter(exchanged_at__isnull=True).update(expires_at=timezone.now())
    expired = path_of(link_url)
    forged = "/segurado/acesso/" + "A" * 43

    answers = [exchange(Client(), path) for path in (expired, used, forged, "/segurado/acesso/x")]

    assert {a.status_code for a in answers} == {403}
    bodies = {a.content.decode().replace(a.wsgi_request.META.get("CSRF_COOKIE", ""), "")
              for a in answers}
    assert len(bodies) == 1 and REFUSED in bodies.pop()


def test_an_absurdly_long_token_is_refused_without_a_lookup(db, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = Client().get("/segurado/acesso/" + "A" * 5000)

    assert response.status_code == 403


def test_the_session_ends_when_the_link_expires(insured):
    now = timezone.now()
    AccessLink.objects.update(created_at=now - dt.timedelta(hours=25),
                              expires_at=now - dt.timedelta(seconds=1))

    response = insured.get("/segurado/")

    assert response.status_code == 403
    assert REFUSED in response.content.decode()


def test_a_deactivated_channel_closes_its_links_and_sessions(insured, api, sale, channel):
    unused = generate_link(api, sale)["url"]
    channel.is_active = False
    channel.save()

    assert insured.get("/segurado/").status_code == 403
    assert exchange(Client(), path_of(unused)).status_code == 403


def test_a_cancelled_sale_still_lets_the_person_follow_claims(insured, sale):
    Sale.objects.filter(pk=sale.pk).update(status=Sale.Status.CANCELLED)

    page = insured.get("/segurado/").content.decode()

    assert "Este seguro está cancelado" in page
    assert "Comunicar um sinistro" not in page


def test_pages_without_a_session_get_the_refusal_page(db):
    for path in ("/segurado/", "/segurado/sinistros/novo", "/segurado/sinistros/SIN-X"):
        response = Client().get(path)
        assert response.status_code == 403
        assert REFUSED in response.content.decode()


def test_leaving_ends_the_session(insured):
    token = insured.get("/segurado/").content.decode().split(
        'name="csrfmiddlewaretoken" value="')[1].split('"')[0]

    response = insured.post("/segurado/sair", {"csrfmiddlewaretoken": token})

    assert response.status_code == 200
    assert "Você saiu" in response.content.decode()
    assert insured.get("/segurado/").status_code == 403
    assert AccessLink.objects.get().ended_at is not None


def test_exchanges_are_rate_limited_per_client_address(db, settings):
    settings.WHITELABEL_EXCHANGE_RATE_LIMIT = 3

    answers = [exchange(Client(), "/segurado/acesso/" + "B" * 43).status_code
               for _ in range(4)]

    assert answers == [403, 403, 403, 429]
    limited = exchange(Client(), "/segurado/acesso/" + "B" * 43)
    assert 0 < int(limited["Retry-After"]) <= settings.WHITELABEL_RATE_WINDOW_SECONDS
    assert "Muitas tentativas" in limited.content.decode()


def test_two_browsers_racing_for_one_link_get_one_session(link_url):
    first, second = Client(), Client()

    answers = [exchange(first, path_of(link_url)), exchange(second, path_of(link_url))]

    assert sorted(a.status_code for a in answers) == [303, 403]


def test_an_unknown_address_under_the_hosted_pages_is_a_portuguese_404(insured):
    response = insured.get("/segurado/nao-existe")

    assert response.status_code == 404
    assert "Página não encontrada" in response.content.decode()
