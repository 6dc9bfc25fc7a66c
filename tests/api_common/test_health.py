"""/saude/vivo and /saude/pronto, as a load balancer probes them: plain http, no
credentials, JSON; readiness fails (503) without the database or the storage, and
names a missing cache or broker while staying in service."""

import pytest
from django.test import Client

from tests.support.serving import free_port

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def probe(settings, tmp_path):
    # The real redirect setting: probes come over plain http and must not be redirected.
    settings.SECURE_SSL_REDIRECT = True
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {
        key: str(tmp_path / "broker") for key in ("data_folder_in", "data_folder_out")
    } if settings.CELERY_BROKER_URL.startswith("filesystem") else {}
    return Client()  # no session, no token, http


def test_liveness_answers_over_plain_http_without_credentials(probe):
    response = probe.get("/saude/vivo")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "vivo"}
    assert "no-cache" in response["Cache-Control"]


def test_readiness_is_200_when_database_cache_broker_and_storage_answer(probe):
    response = probe.get("/saude/pronto")

    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "status": "pronto",
        "verificacoes": {"banco-de-dados": "ok", "cache": "ok", "fila": "ok",
                         "armazenamento": "ok"},
    }


def test_readiness_names_an_unreachable_cache_and_stays_in_service(probe, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0"}}

    response = probe.get("/saude/pronto")

    assert response.status_code == 200  # every request is still served: stay in the pool
    assert response.json() == {
        "status": "degradado",
        "verificacoes": {"banco-de-dados": "ok", "cache": "falhou", "fila": "ok",
                         "armazenamento": "ok"},
    }


def test_readiness_names_an_unreachable_celery_broker_and_stays_in_service(probe, settings):
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}

    response = probe.get("/saude/pronto")

    assert response.status_code == 200
    assert response.json()["status"] == "degradado"
    assert response.json()["verificacoes"]["fila"] == "falhou"
    assert response.json()["verificacoes"]["banco-de-dados"] == "ok"


def test_readiness_is_503_when_the_storage_is_unreachable(probe, settings, tmp_path):
    not_a_folder = tmp_path / "arquivo"
    not_a_folder.write_text("")
    settings.MEDIA_ROOT = str(not_a_folder / "media")  # nothing can be written under it

    response = probe.get("/saude/pronto")

    assert response.status_code == 503
    assert response.json()["status"] == "indisponivel"
    assert response.json()["verificacoes"]["armazenamento"] == "falhou"


def test_readiness_shows_no_host_port_or_error_detail(probe, settings):
    port = free_port()
    settings.CELERY_BROKER_URL = f"redis://user:senha-do-broker@127.0.0.1:{port}/0"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}

    response = probe.get("/saude/pronto")

    text = response.content.decode()
    assert response.json()["verificacoes"]["fila"] == "falhou"
    assert str(port) not in text and "senha-do-broker" not in text and "127.0.0.1" not in text


def test_probes_refuse_writes(probe):
    assert probe.post("/saude/vivo").status_code == 405
    assert probe.post("/saude/pronto").status_code == 405
