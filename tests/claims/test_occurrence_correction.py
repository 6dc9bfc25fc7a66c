"""An analyst corrects the occurrence date the documents show: within the sale's
validity, never after the notice; status and clock stay, the timeline says why."""

import datetime as dt

import pytest
from django.utils import timezone

from tests.support.lifecycle import act, acted, claim_under_review

pytestmark = pytest.mark.usefixtures("local_media")


@pytest.fixture
def claim(api, sale):
    return claim_under_review(api, sale)


def test_the_analyst_corrects_the_date_and_the_timeline_says_why(claim, analyst):
    before = timezone.localtime(claim.occurred_at)
    status, deadline = claim.status, claim.clock_deadline

    claim = acted(analyst, claim, "corrigir-ocorrencia", {
        "occurred_on": "2026-10-28", "reason": "Certidão de óbito."})

    after = timezone.localtime(claim.occurred_at)
    assert after.date() == dt.date(2026, 10, 28) and after.time() == before.time()
    assert (claim.status, claim.clock_deadline) == (status, deadline)
    entry = claim.history.get(action="corrigir-ocorrencia")
    assert entry.note == f"Data da ocorrência {before:%d/%m/%Y} → 28/10/2026. Certidão de óbito."


@pytest.mark.parametrize(("day", "message"), [
    ("2024-12-31", "fora da vigência da venda"),
    ("2999-01-01", "não pode ser posterior ao aviso"),
])
def test_a_date_outside_the_validity_or_after_the_notice_is_refused(claim, analyst, day,
                                                                     message):
    response = act(analyst, claim, "corrigir-ocorrencia", {"occurred_on": day, "reason": "x"})

    assert message in response.content.decode()
    claim.refresh_from_db()
    assert not claim.history.filter(action="corrigir-ocorrencia").exists()
