"""Two answers to one request for reconsideration at once (PostgreSQL): one wins."""

import pytest

from api_common.problem_types import ProblemError
from claims import roles, services
from claims.models import ClaimHistory, Reconsideration
from tests.support.concurrency import postgres_only, run_together
from tests.support.lifecycle import DENIAL_ARGUMENTS, claim_under_review, staff

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("local_media")]


def outcome(call):
    try:
        call()
        return "ok"
    except ProblemError as refusal:
        return refusal.detail


@pytest.fixture
def pending(api, sale):
    denier = staff("sergio", roles.SUPERVISOR)
    claim = claim_under_review(api, sale)
    services.deny(claim_id=claim.pk, user=denier, reason="x", **DENIAL_ARGUMENTS)
    services.request_reconsideration(claim_id=claim.pk, role="canal", text="Discordo.",
                                     actor="canal:x")
    return claim


@pytest.mark.parametrize("round_", range(3))
def test_two_supervisors_keeping_the_denial_at_once_keep_it_once(pending, round_):
    first, second = staff(f"ana{round_}", roles.SUPERVISOR), staff(f"bia{round_}", roles.SUPERVISOR)

    results = run_together([lambda u=u: outcome(lambda: services.keep_denial(
        claim_id=pending.pk, user=u, note="Mantida.")) for u in (first, second)])

    assert sorted(results)[1] == "ok"
    assert "Não há pedido de reconsideração pendente" in sorted(results)[0]
    assert ClaimHistory.objects.filter(claim=pending, action="manter-recusa").count() == 1
    assert Reconsideration.objects.get().status == "mantida"


def test_keeping_and_reopening_at_once_do_one_of_them(pending):
    first, second = staff("ana", roles.SUPERVISOR), staff("bia", roles.SUPERVISOR)
    # Both answer the request as their forms showed it (the version the admin sends):
    # without it, a reopening after a kept denial is a later decision of its own, and
    # both would rightly succeed whenever the keeping came first.
    pending.refresh_from_db()
    shown = pending.version

    results = run_together([
        lambda: outcome(lambda: services.keep_denial(claim_id=pending.pk, user=first,
                                                     note="Mantida.", expected_version=shown)),
        lambda: outcome(lambda: services.reopen(claim_id=pending.pk, user=second,
                                                reason="Laudo novo.", expected_version=shown)),
    ])

    assert results.count("ok") == 1
    pending.refresh_from_db()
    status = Reconsideration.objects.get().status
    assert (pending.status, status) in {("recusado", "mantida"), ("em-regulacao", "reaberta")}


def test_two_requests_at_once_make_one(api, sale):
    denier = staff("sergio", roles.SUPERVISOR)
    claim = claim_under_review(api, sale)
    services.deny(claim_id=claim.pk, user=denier, reason="x", **DENIAL_ARGUMENTS)

    results = run_together([lambda t=t: outcome(lambda: services.request_reconsideration(
        claim_id=claim.pk, role="canal", text=t, actor="canal:x")) for t in ("a", "b")])

    assert results.count("ok") == 1
    assert Reconsideration.objects.count() == 1
