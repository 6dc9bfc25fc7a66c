"""Benchmark (not a test): API requests per second on gunicorn + PostgreSQL, each next to
what it is compared with, measured in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/api_requests.py [-n 300] [--port 8830]

- ``GET /api/v1/sinistros/{n}`` (DRF, bearer auth, throttle) against a bare Django view
  doing the same queries with the same serializer, with and without the bearer
  authentication (bench/bench_urls.py);
- the same GET on a server with ``DATABASE_CONN_MAX_AGE=0`` (a connection per request);
- ``POST .../abrir-sinistro`` (each on a fresh sale) against the GET.

Nothing consumes the broker's queue: with a real broker, point it at a scratch one.

It makes a scratch database like the test suite's (``test_`` + the configured name,
migrated, destroyed at the end) and starts gunicorn 27 (one sync worker each, so a
request's own cost is what is measured) on 127.0.0.1:PORT and PORT+1; the client is one
``requests.Session`` in this process. Rounds alternate the variants so a busy machine
slows them alike; the figure that matters is the ratio. PostgreSQL only.
"""

import argparse
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
# Openings enqueue their webhook relay: give CELERY_BROKER_URL (e.g. Redis, as in
# production) to count that too; the default in-memory broker costs nothing.
os.environ.setdefault("CELERY_BROKER_URL", "memory://")

import django  # noqa: E402

django.setup()

import requests  # noqa: E402
from django.db import connection  # noqa: E402

ROUNDS = 5
# gunicorn reads ./gunicorn.conf.py unless told otherwise: these servers use only the
# options given here.
EMPTY_CONFIG = str(ROOT / "bench" / "gunicorn_empty.conf.py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=300, help="requests per variant (default 300)")
    parser.add_argument("--port", type=int, default=8830, help="uses PORT and PORT+1")
    args = parser.parse_args()
    with scratch_database():
        run(args.n, args.port)


@contextmanager
def scratch_database():
    """The benchmarks' database: a migrated ``test_`` + DATABASE_URL's name, like the
    test suite's, dropped at the end. PostgreSQL only."""
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


def start_gunicorn(port: int, arguments: list[str], **env) -> subprocess.Popen:
    """gunicorn with ``arguments`` on the scratch database, the benchmark's settings and
    no rate limit; returned once it answers on ``port``."""
    db = connection.settings_dict
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench_settings",
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'bench'}",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}",
        "SECURE_SSL_REDIRECT": "false",
        "API_THROTTLE_PER_MINUTE": "100000000",
        "LOG_LEVEL": "WARNING",
        **env,
    }
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", *arguments],
                               cwd=ROOT, env=environment, stdout=subprocess.DEVNULL)
    # Each worker loads the application (seconds of CPU): longer on a busy machine.
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/saude/vivo", timeout=10)
            return process
        except requests.RequestException:
            time.sleep(0.5)
    process.kill()
    raise RuntimeError(f"gunicorn did not start on port {port}")


def start_server(port: int, **env) -> subprocess.Popen:
    """One sync worker with only the options given here."""
    return start_gunicorn(
        port, ["--config", EMPTY_CONFIG, "--workers", "1", "--bind", f"127.0.0.1:{port}",
               "--log-level", "warning", "config.wsgi:application"], **env)


def setup_data(sales: int):
    """A channel, its token, a claim like the API's usual one (two documents pending),
    and ``sales`` fresh sales to open claims on."""
    import datetime as dt
    import uuid
    from decimal import Decimal

    from rest_framework.test import APIClient

    from claims import services
    from claims.models import Coverage, DocumentRequirement, Sale
    from tests.support.factories import make_channel, make_cpf

    channel = make_channel("Banco Bench")
    for doc_type, title in (("certidao-de-obito", "Certidão de óbito"), ("cpf-cnpj", "CPF")):
        DocumentRequirement.objects.create(coverage_name="cobertura/morte", doc_type=doc_type,
                                           title=title)
    all_sales = Sale.objects.bulk_create(
        Sale(id=uuid.uuid4(), channel=channel, proposal_id=uuid.uuid4(),
             product_combo_id=uuid.uuid4(), insured_name=f"Segurado {n}",
             insured_cpf=make_cpf(7_000_000 + n), valid_from=dt.date(2025, 1, 1),
             valid_until=dt.date(2030, 12, 31), max_guarantee=Decimal("100000"))
        for n in range(sales + 1))
    Coverage.objects.bulk_create(
        Coverage(sale=sale, name="cobertura/morte", max_indemnity=Decimal("50000"))
        for sale in all_sales)
    claim = services.open_claim(
        channel=channel, sale_id=all_sales[0].id, actor="canal:bench",
        coverage_name="cobertura/morte", nature="morte-natural",
        occurred_at=dt.datetime(2026, 11, 1, 13, tzinfo=dt.timezone.utc),
        requester_name="Pedro", contact_name="Pedro", contact_email="p@example.com",
        outstanding_balance=Decimal("15000.50"))
    response = APIClient().post("/oauth/token", {
        "client_id": channel.application.client_id, "client_secret": channel.plain_secret,
        "grant_type": "client_credentials"}, format="json")
    assert response.status_code == 200, response.content
    return channel, response.json()["access_token"], claim.number, all_sales[1:]


OPEN_BODY = {
    "cobertura": "cobertura/morte", "natureza": "morte-natural",
    "data-ocorrencia": "2026-11-01T10:00:00-03:00", "solicitante": {"nome": "Pedro"},
    "pessoa-para-contato": {"nome": "Pedro", "email": "pedro@example.com"},
    "saldo-devedor": 15000.50,
}


def run(count: int, port: int) -> None:
    channel, token, number, sales = setup_data(count * ROUNDS)
    servers = []
    try:
        servers.append(start_server(port, BENCH_CHANNEL=channel.slug))
        servers.append(start_server(port + 1, BENCH_CHANNEL=channel.slug,
                                    DATABASE_CONN_MAX_AGE="0"))
        measure(count, port, token, number, sales)
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)


def measure(count, port, token, number, sales) -> None:
    session = requests.Session()
    auth = {"Authorization": f"Bearer {token}"}
    base, base_no_reuse = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}"
    variants = {
        "GET claim, API (DRF, auth)": (f"{base}/api/v1/sinistros/{number}", auth),
        "GET claim, API without auth": (f"{base}/bench/drf-sem-auth/{number}", {}),
        "GET claim, bare view, auth": (f"{base}/bench/bare-auth/{number}", auth),
        "GET claim, bare view": (f"{base}/bench/bare/{number}", {}),
        "GET claim, API, CONN_MAX_AGE=0": (f"{base_no_reuse}/api/v1/sinistros/{number}", auth),
    }
    bodies = {}
    for label, (url, headers) in variants.items():  # warm up; same body everywhere
        response = session.get(url, headers=headers)
        assert response.status_code == 200, (label, response.status_code, response.text)
        bodies[label] = response.json()
    for label, body in bodies.items():
        assert body == bodies["GET claim, bare view"], (label, body)

    seconds = dict.fromkeys([*variants, "POST abrir-sinistro"], 0.0)
    sales_left = iter(sales)
    for _ in range(ROUNDS):
        for label, (url, headers) in variants.items():
            started = time.perf_counter()
            for _ in range(count):
                assert session.get(url, headers=headers).status_code == 200
            seconds[label] += time.perf_counter() - started
        started = time.perf_counter()
        for _ in range(count):
            response = session.post(f"{base}/api/v1/vendas/{next(sales_left).id}/abrir-sinistro",
                                    json=OPEN_BODY, headers=auth)
            assert response.status_code == 200, response.text
        seconds["POST abrir-sinistro"] += time.perf_counter() - started

    total = count * ROUNDS
    rate = {label: total / s for label, s in seconds.items()}
    print(f"gunicorn 27 (1 sync worker) + PostgreSQL, {total} requests per variant in "
          f"{ROUNDS} alternating rounds")
    for label, per_second in rate.items():
        print(f"  {label:34} {per_second:7.0f} req/s  ({1000 / per_second:5.2f} ms each)")
    api = rate["GET claim, API (DRF, auth)"]
    print("ratios (1.00 = as fast):")
    print(f"  auth: API with auth / API without auth          "
          f"{api / rate['GET claim, API without auth']:5.2f}")
    print(f"  DRF: API / bare view (both with auth)            "
          f"{api / rate['GET claim, bare view, auth']:5.2f}")
    print(f"  DRF: API without auth / bare view without auth   "
          f"{rate['GET claim, API without auth'] / rate['GET claim, bare view']:5.2f}")
    print(f"  connections: CONN_MAX_AGE=0 / persistent         "
          f"{rate['GET claim, API, CONN_MAX_AGE=0'] / api:5.2f}")
    print(f"  opening a claim / GET claim                      "
          f"{rate['POST abrir-sinistro'] / api:5.2f}")


if __name__ == "__main__":
    main()
