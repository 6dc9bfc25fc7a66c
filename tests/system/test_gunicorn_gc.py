"""Each Gunicorn worker freezes what loading the application made (gunicorn.conf.py's
post_worker_init), with the URL configuration and every view it imports, and freezes
again what its first requests loaded (post_request, after its 100th, 1,000th and
10,000th): the collector never scans those objects again, so a full collection no longer
stalls a worker (docs/performance.md, "The API's tail")."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What a worker does: read gunicorn.conf.py, load the application, run the hook, then
# serve requests (Django's test client through the same WSGI handler, each followed by
# the post_request hook as Gunicorn calls it). It prints how many objects were frozen
# before and after the hook, whether the collector still runs, how many objects the
# collector scans after the first request (its oldest generation, once collected), and
# how many are frozen after 99 and after 100 requests.
WORKER = """
import gc, runpy
conf = runpy.run_path("gunicorn.conf.py")
from config.wsgi import application
from django.test import Client
before = gc.get_freeze_count()
conf["post_worker_init"](None)
frozen = gc.get_freeze_count()
client = Client()
def serve():
    response = client.get("/api/v1/sinistros/SIN-1", HTTP_HOST="localhost", secure=True)
    assert response.status_code == 401, response.status_code
    conf["post_request"](None, None, {}, response)
serve()
gc.collect()
scanned = len(gc.get_objects(2))
for _ in range(98):
    serve()
at_99 = gc.get_freeze_count()
serve()
at_100 = gc.get_freeze_count()
print(before, frozen, gc.isenabled(), scanned, at_99, at_100)
"""


def worker_run(**variables: str) -> tuple[int, int, bool, int, int, int]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings",
           "PYTHONPATH": str(ROOT), **variables}
    out = subprocess.run([sys.executable, "-c", WORKER], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return (int(out[0]), int(out[1]), out[2] == "True", int(out[3]), int(out[4]),
            int(out[5]))


def test_a_worker_freezes_the_loaded_application_and_keeps_collecting():
    before, frozen, collecting, scanned, _, _ = worker_run()
    # Django, DRF, the project's modules and its URL configuration: about 200,000.
    assert before == 0 and frozen > 150_000
    # Freezing is not switching the collector off: new garbage is still collected.
    assert collecting
    # The first request imports no view module left for the collector to scan: a few
    # thousand objects, against about 23,000 when the URL configuration loaded then.
    assert scanned < 8_000


def test_a_worker_freezes_again_what_its_first_requests_loaded():
    _, frozen, _, _, at_99, at_100 = worker_run()
    # Nothing is frozen between the thresholds (frozen objects a request let go of are
    # still freed, so the count can only fall), and at the 100th request what the
    # requests loaded (thousands of objects) is.
    assert at_99 <= frozen
    assert at_100 > at_99 + 1_000


def test_the_freeze_can_be_turned_off():
    before, frozen, _, scanned, at_99, at_100 = worker_run(GUNICORN_GC_FREEZE="0")
    assert frozen == at_99 == at_100 == 0
    assert scanned > 15_000  # what the freeze spares the collector
