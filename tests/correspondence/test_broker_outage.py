"""Opening a claim while the broker (Redis) is down took 0.72 s instead of 0.06 s: the
request asked the stopped broker to send the notice letter with kombu's publish retries,
and once one publish had retried, every later one of the process waited 0.6 s too. Now
the letter is asked for once, with no retry, and after a failure this process asks the
broker nothing for ``CACHE_RETRY_SECONDS``: the letters wait for the sweep, nothing is
lost. A real Celery app against a closed port of a real socket."""

import socket

import pytest
from celery import Celery

from correspondence import services as letters_services
from correspondence.models import Message
from tests.support.lifecycle import open_claim


@pytest.fixture
def stopped_broker(monkeypatch):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Celery reads CELERY_BROKER_URL from the environment before any configuration (the
    # PostgreSQL phase of .ci/run sets it to the live Redis): the stopped one goes there.
    monkeypatch.setenv("CELERY_BROKER_URL", f"redis://127.0.0.1:{port}/0")
    app = Celery("outage", broker=f"redis://127.0.0.1:{port}/0", set_as_current=False)
    app.conf.broker_transport_options = {"max_retries": 0}
    asked = []
    real = app.send_task

    def recorded(name, *args, **kwargs):
        asked.append(kwargs.get("retry", "default"))
        return real(name, *args, **kwargs)

    app.send_task = recorded
    monkeypatch.setattr(letters_services, "current_app", app)
    away = getattr(letters_services, "broker_away", None)  # the code before had none
    if away is not None:
        away.end()
    yield asked
    if away is not None:
        away.end()


def test_with_the_broker_down_an_opening_asks_once_without_retry_and_then_not_at_all(
        api, sale, stopped_broker, django_capture_on_commit_callbacks):
    for coverage in ("cobertura/morte", "cobertura/perda-de-renda"):
        with django_capture_on_commit_callbacks(execute=True):
            open_claim(api, sale, cobertura=coverage, **(
                {"natureza": "perda-de-renda-desemprego"} if "renda" in coverage else {}))

    # The first opening's letter was asked for once, with no retry; the second opening
    # asked nothing (the broker is left alone for a while).
    assert stopped_broker == [False]
    # Both notice letters wait for the sweep, none lost.
    assert Message.objects.filter(status=Message.Status.PENDING).count() >= 2
