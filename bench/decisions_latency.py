"""Benchmark (not a test): from the last document to the payment order of an automatic
decision, on a live stack against the same moves in one process, in one run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/10 \\
        python bench/decisions_latency.py [--claims 30] [--port 8103]

Live: gunicorn (one sync worker, bench/api_requests.py's server) and one Celery worker
(``--pool=solo``, as tests/support/workers.py starts them) on a scratch database and the
given Redis broker. Each claim (opened by the services: balance, creditor, its TRCT still
pending) gets its termination through the API — ``enviar-documento``, then the PUT of
the file to the signed URL; the upload completes the documentation, the move enqueues
the rules once it commits, the worker decides and pays. One claim at a time (the next
after the order exists), so the figure is the path's, not a queue's.

In one process: the same moves through the services (``request_document_upload``,
``store_local_upload``, ``evaluate_claim``), no HTTP, no broker, no worker.

The measure is the product's (decisions.reports.latencies, /metricas): the first payment
order's ``created_at`` minus the "completar-documentacao" history row's; p50 and p95 of
each, and live/in-process.

The worker's readings: ``tests.decisions.worker_settings`` (the project's settings plus a
test app giving "the termination matches"), as the real-worker tests do — the document
readers are not what this measures.
"""

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))

import decisions_book as book  # noqa: E402  (sets Django up)
import requests  # noqa: E402
from django.db import connection  # noqa: E402

ROOT = book.ROOT
READ_OK = {"documentos_lidos": True, "documentos_integros": True, "leitura_incerta": False,
           "arquivo_repetido": False, "rescisao_confere": True, "rescisao_data_diverge_dias": 0,
           "leituras": []}


def seconds_to_order(claim_id) -> float | None:
    from claims.models import ClaimHistory
    from payouts.models import PaymentOrder

    order = PaymentOrder.objects.filter(payment__claim_id=claim_id).order_by("created_at").first()
    complete = (ClaimHistory.objects.filter(claim_id=claim_id, action="completar-documentacao")
                .order_by("-created_at").first())
    if order is None or complete is None:
        return None
    return (order.created_at - complete.created_at).total_seconds()


def percentile(values, fraction):
    from decisions.reports import percentile as nearest_rank

    return nearest_rank(sorted(values), fraction)


def start_worker(queue: str, media: Path) -> subprocess.Popen:
    db = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.decisions.worker_settings",
           "PYTHONPATH": str(ROOT), "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-" + "x" * 50),
           "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}",
           "CELERY_TASK_DEFAULT_QUEUE": queue, "DECISIONS_TEST_READINGS": json.dumps(READ_OK),
           "AUTO_DECISION_SAMPLE_RATE": "0", "MEDIA_ROOT": str(media), "LOG_LEVEL": "WARNING"}
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--without-mingle", "--without-gossip", "-Q", queue, "-n", f"{queue}@%h",
         "--loglevel=WARNING"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)


def wait_for(condition, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value is not None:
            return value
        time.sleep(0.02)
    raise RuntimeError("timed out")


def in_process(claim_id, content: bytes) -> float:
    """The same moves through the services: the upload completes the documentation, the
    rules decide here (what the move enqueues goes to a queue no worker reads)."""
    from django.utils import timezone

    from claims import services
    from claims.models import Claim
    from decisions.services.evaluate import evaluate_claim

    claim = Claim.objects.select_related("channel").get(pk=claim_id)
    document, _ = services.request_document_upload(
        channel=claim.channel, number=claim.number, file_name="trct.pdf",
        sent_at=timezone.now(), doc_type=book.DOC_TYPE)
    services.store_local_upload(file_id=document.pk, content=io.BytesIO(content))
    evaluate_claim(claim_id=claim_id, trigger="documentos-completos")
    return seconds_to_order(claim_id)


def run(count: int, port: int, media: Path) -> None:
    from celery import current_app
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import timezone

    import api_requests
    from claims.models import Claim, DocumentRequirement
    from decisions import facts as facts_module

    call_command("load_default_rules", mode="on", only=book.NATURE, stdout=io.StringIO())
    DocumentRequirement.objects.get_or_create(
        coverage_name=book.COVERAGE, nature=book.NATURE, doc_type=book.DOC_TYPE,
        defaults={"title": "Termo de rescisão (TRCT)"})
    settings.AUTO_DECISION_SAMPLE_RATE = 0
    facts_module.reading_facts = lambda claim: dict(READ_OK)
    queue = f"bench-decisions-{uuid.uuid4().hex[:8]}"
    # What this process's moves enqueue (the setup's, the in-process claims' rules after
    # their upload commits) goes to a queue no worker reads, deleted at the end: the
    # in-process path decides itself.
    unread = f"{queue}-in-process"
    current_app.conf.task_default_queue = unread
    maker = book.Book(random.Random(3), timezone.localdate())
    live = [maker.claim(n, scenario="simple", upload=False) for n in range(count)]
    local = [maker.claim(n, scenario="simple", upload=False) for n in range(count)]

    server = api_requests.start_server(port, MEDIA_ROOT=str(media), CELERY_TASK_DEFAULT_QUEUE=queue,
                                       SECRET_KEY=os.environ.get("SECRET_KEY", "bench-" + "x" * 50))
    worker = start_worker(queue, media)
    try:
        wait_for(lambda: current_app.control.ping(destination=[f"{queue}@{os.uname().nodename}"],
                                                  timeout=0.5) or None)
        tokens = {}
        for channel in maker.channels:
            answer = requests.post(f"http://127.0.0.1:{port}/oauth/token", json={
                "client_id": channel.application.client_id, "client_secret": channel.plain_secret,
                "grant_type": "client_credentials"}, timeout=30)
            answer.raise_for_status()
            tokens[channel.pk] = answer.json()["access_token"]
        live_seconds, local_seconds = [], []
        # Alternated, claim by claim, so load from elsewhere slows both alike.
        for (claim_id, content), (local_id, local_content) in zip(live, local, strict=True):
            claim = Claim.objects.select_related("channel").get(pk=claim_id)
            auth = {"Authorization": f"Bearer {tokens[claim.channel_id]}"}
            answer = requests.post(
                f"http://127.0.0.1:{port}/api/v1/sinistros/{claim.number}/enviar-documento",
                json={"nome-arquivo": "trct.pdf", "tipo": book.DOC_TYPE,
                      "data-envio": timezone.now().isoformat()}, headers=auth, timeout=30)
            answer.raise_for_status()
            path = urlparse(answer.json()["url-envio"]).path
            requests.put(f"http://127.0.0.1:{port}{path}", data=content,
                         headers={"Content-Type": "application/pdf"}, timeout=30).raise_for_status()
            live_seconds.append(wait_for(lambda: seconds_to_order(claim_id)))  # noqa: B023
            local_seconds.append(in_process(local_id, local_content))
    finally:
        server.terminate()
        worker.terminate()
        server.wait(30)
        worker.wait(30)
        with current_app.connection_for_write() as broker:
            broker.default_channel.queue_purge(unread)  # kombu deletes no unbound queue

    print(f"last document → payment order, {count} claims each, one at a time (PostgreSQL)")
    for name, values in (("live (API + worker)", live_seconds), ("in one process (services)", local_seconds)):
        print(f"{name:<28} p50 {percentile(values, 0.5) * 1000:8.1f} ms   "
              f"p95 {percentile(values, 0.95) * 1000:8.1f} ms")
    print(f"live/in-process: p50 ×{percentile(live_seconds, 0.5) / percentile(local_seconds, 0.5):.2f}"
          f"  p95 ×{percentile(live_seconds, 0.95) / percentile(local_seconds, 0.95):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=30)
    parser.add_argument("--port", type=int, default=8103)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL to a scratch database's server.")
    if not os.environ["CELERY_BROKER_URL"].startswith(("redis://", "amqp://")):
        sys.exit("A networked broker: set CELERY_BROKER_URL (redis://...).")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            from django.conf import settings

            media = Path(scratch) / "media"
            settings.MEDIA_ROOT, settings.DOCUMENT_STORAGE = media, "local"
            run(args.claims, args.port, media)
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
