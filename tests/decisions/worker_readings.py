"""A test-only app for the rules' real workers (see worker_settings): the readings the
test chose, in place of the document readers, inside the worker process."""

import json
import os

from django.apps import AppConfig


class ReadingsFromTheTest(AppConfig):
    name = "tests.decisions.worker_readings"
    label = "decisions_test_readings"

    def ready(self):
        from decisions import facts

        state = json.loads(os.environ["DECISIONS_TEST_READINGS"])
        facts.reading_facts = lambda claim: dict(state)
