"""Running things at once: threads released together, the PostgreSQL-only mark, and
the environment of a real Celery worker process beside the tests."""

import os
import threading

import pytest
from django.db import connection

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (row locks, concurrency)"
)


def worker_process_env(**extra: str) -> dict[str, str]:
    """The environment of a real Celery worker process beside the tests: the test
    database (the worker must see what the test wrote) and the test's broker."""
    from django.conf import settings

    db = connection.settings_dict
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        **extra,
    }


def run_together(calls):
    """Run every zero-argument callable in its own thread, released at the same moment
    (each thread gets its own database connection); returns their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait()
            results[index] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
