"""The rules' fixtures: what the machine read (set by each test) and the default rules on."""

import pytest
from django.core.management import call_command

from decisions import facts as facts_module
from tests.decisions.support import READ_OK, UNEMPLOYMENT


@pytest.fixture
def readings(monkeypatch):
    """What the machine read, as the test says (``readings.update(...)``)."""
    state = dict(READ_OK)
    monkeypatch.setattr(facts_module, "reading_facts", lambda claim: dict(state))
    return state


@pytest.fixture
def rules_on(db):
    call_command("load_default_rules", mode="on", only=UNEMPLOYMENT, stdout=open("/dev/null", "w"))


@pytest.fixture
def sofia(db):
    from tests.support.lifecycle import staff

    return staff("sofia", "Supervisor de sinistros")


@pytest.fixture
def bruno(db):
    from tests.support.lifecycle import staff

    return staff("bruno", "Supervisor de sinistros")


@pytest.fixture
def ana(db):
    from tests.support.lifecycle import staff

    return staff("ana", "Analista de sinistros")
