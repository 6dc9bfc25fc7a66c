"""Each Gunicorn worker freezes what loading the application made (gunicorn.conf.py's
post_worker_init): the collector never scans those objects again, so a full collection
no longer stalls a worker for a tenth to most of a second under load
(docs/performance.md, "The API's tail")."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What a worker does: read gunicorn.conf.py, load the application, then run the hook.
WORKER = """
import gc, runpy
conf = runpy.run_path("gunicorn.conf.py")
from config.wsgi import application
before = gc.get_freeze_count()
conf["post_worker_init"](None)
print(before, gc.get_freeze_count(), gc.isenabled())
"""


def worker_freeze(**variables: str) -> tuple[int, int, bool]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings", **variables}
    out = subprocess.run([sys.executable, "-c", WORKER], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1]), out[2] == "True"


def test_a_worker_freezes_the_loaded_application_and_keeps_collecting():
    before, after, collecting = worker_freeze()
    # Django, DRF and the project's modules: tens of thousands of objects.
    assert before == 0 and after > 50_000
    # Freezing is not switching the collector off: new garbage is still collected.
    assert collecting


def test_the_freeze_can_be_turned_off():
    assert worker_freeze(GUNICORN_GC_FREEZE="0")[1] == 0
