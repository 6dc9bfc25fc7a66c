"""A Redis outage is not an API outage. The production stack (Gunicorn with the shipped
settings) uses one real Redis as its cache and its Celery broker, as docs/operations.md's
production setup does; that Redis is stopped, and every call a channel and an insured
person make still answers: a token, reads, a claim opened (its webhook event kept in the
outbox), the hosted link. Limits still hold, counted in the process; readiness names the
missing dependencies and keeps the process in service; nothing of it logs a traceback.
When Redis is back, so are the shared counters."""

import json
import re
import shutil
import socket
import subprocess
import time
from urllib.parse import urlsplit

import pytest

from tests.support import serving

REDIS = shutil.which("redis-server")
SALE = serving.DEMO_SALE_JOAO
TOKEN_LIMIT = 8  # TOKEN_RATE_LIMIT for this run: tokens a client is issued per hour

pytestmark = [
    pytest.mark.skipif(REDIS is None, reason="needs redis-server"),
    serving.needs_nginx,
]


def start_redis(port: int, log) -> subprocess.Popen:
    process = subprocess.Popen([REDIS, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no"],
                               stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("redis-server did not start")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture
def stack(tmp_path):
    """Redis on a port of its own, the demo data, and Gunicorn using that Redis."""
    port = serving.free_port()
    log = open(tmp_path / "redis.log", "wb")
    variables = {"CACHE_URL": f"rediscache://127.0.0.1:{port}/0",
                 "CELERY_BROKER_URL": f"redis://127.0.0.1:{port}/1",
                 "TOKEN_RATE_LIMIT": str(TOKEN_LIMIT)}
    redis = start_redis(port, log)
    serving.seed_demo(tmp_path, **variables)
    state = {"redis": redis}
    try:
        with serving.gunicorn(tmp_path, workers=1, threads=4, **variables) as app, \
                serving.nginx(tmp_path, app) as url:
            yield {"url": url, "port": port, "log": log, "state": state,
                   "gunicorn_log": tmp_path / "gunicorn.log"}
    finally:
        if state["redis"].poll() is None:
            stop(state["redis"])
        log.close()


def calls_of_a_channel_and_its_insured(url: str) -> dict[str, int]:
    """Every kind of call, once; the status each answered."""
    statuses = {}
    statuses["token"] = serving.demo_token(url).status_code
    api = serving.demo_api(url)
    statuses["sales"] = api.get(f"{url}/api/v1/vendas", timeout=10).status_code
    opened = api.post(f"{url}/api/v1/vendas/{SALE}/abrir-sinistro", timeout=10,
                      json=serving.DEATH_OPENING, headers={"Idempotency-Key": "abertura-1"})
    statuses["open"] = opened.status_code
    number = opened.json()["numero-sinistro"]
    statuses["claim"] = api.get(f"{url}/api/v1/sinistros/{number}", timeout=10).status_code
    statuses["claims"] = api.get(f"{url}/api/v1/sinistros", timeout=10).status_code
    link = api.post(f"{url}/api/v1/sinistros/whitelabel/gerar-url", timeout=10,
                    json={"id-venda": SALE})
    statuses["link"] = link.status_code
    person = serving.session()
    page = person.get(url + urlsplit(link.json()["url"]).path, timeout=10)
    statuses["link page"] = page.status_code
    assert page.status_code == 200, (page.status_code, page.text[:500], page.url)
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    # The Referer a browser sends on 443: the proxy passes the host without the test's port.
    referer = "https://127.0.0.1" + urlsplit(page.url).path
    exchanged = person.post(page.url, data={"csrfmiddlewaretoken": csrf}, timeout=10,
                            headers={"Referer": referer}, allow_redirects=False)
    statuses["link exchange"] = exchanged.status_code
    statuses["home"] = person.get(f"{url}/segurado/", timeout=10).status_code
    return statuses


EVERY_CALL_ANSWERED = {"token": 200, "sales": 200, "open": 200, "claim": 200, "claims": 200,
                       "link": 200, "link page": 200, "link exchange": 303, "home": 200}


def readiness(url: str) -> dict:
    response = serving.session().get(f"{url}/saude/pronto", timeout=10)
    return {"http": response.status_code, **response.json()}


def test_with_redis_stopped_the_api_and_the_hosted_link_keep_answering(stack):
    url = stack["url"]
    assert readiness(url)["status"] == "pronto"

    stop(stack["state"]["redis"])

    assert calls_of_a_channel_and_its_insured(url) == EVERY_CALL_ANSWERED
    health = readiness(url)
    assert health == {"http": 200, "status": "degradado", "verificacoes": {
        "banco-de-dados": "ok", "cache": "falhou", "fila": "falhou", "armazenamento": "ok"}}
    log = stack["gunicorn_log"].read_text()
    assert "Traceback" not in log
    assert "counting in this process" in log
    # The opening did not wait for the stopped broker (its event wakes the delivery
    # engines through PostgreSQL): no reconnection backoff, no hang. A bound far above
    # a healthy opening's ~20 ms.
    [opening] = [json.loads(line) for line in log.splitlines()
                 if "abrir-sinistro" in line and '"logger": "requests"' in line]
    assert opening["status"] == 200 and opening["duration_ms"] < 2000


def test_with_redis_stopped_limits_still_hold_in_the_process(stack):
    url = stack["url"]
    stop(stack["state"]["redis"])

    answers = [serving.demo_token(url) for _ in range(TOKEN_LIMIT + 2)]

    assert [a.status_code for a in answers] == [200] * TOKEN_LIMIT + [429, 429]
    assert answers[-1].json()["problem-id"] == "too-many-token-requests"
    # One warning per retry period, not one per request.
    assert stack["gunicorn_log"].read_text().count("counting in this process") <= 3


def test_when_redis_is_back_the_shared_counters_are_used_again(stack):
    url = stack["url"]
    stop(stack["state"]["redis"])
    assert serving.demo_token(url).status_code == 200  # counted in the process

    stack["state"]["redis"] = start_redis(stack["port"], stack["log"])
    time.sleep(5.5)  # api_common.ratelimit.CACHE_RETRY_SECONDS

    assert serving.demo_token(url).status_code == 200
    assert readiness(url)["status"] == "pronto"
    counted = subprocess.run(["redis-cli", "-p", str(stack["port"]), "-n", "0", "--scan",
                              "--pattern", "*ratelimit:oauth-tokens-issued*"],
                             capture_output=True, text=True, timeout=10).stdout.split()
    assert len(counted) == 1  # the token issued after the return was counted in Redis
