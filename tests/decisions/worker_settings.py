"""Settings of the rules' real workers in tests: the project's settings plus one test
app (``tests.decisions.worker_readings``) that sets what the machine read.

Why this way: a worker is another process, so a test's monkeypatch does not reach it,
and the production code must carry no test hook (no setting the reading module would
consult). The worker instead starts with these settings (DJANGO_SETTINGS_MODULE in its
environment), and the test app patches ``decisions.facts.reading_facts`` when Django
loads the apps, from ``DECISIONS_TEST_READINGS`` (JSON) in the worker's environment."""

from config.settings import *  # noqa: F401,F403
from config.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.decisions.worker_readings.ReadingsFromTheTest"]
