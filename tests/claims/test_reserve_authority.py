"""An analyst moves a reserve within their authority (RESERVE_AUTHORITY_LIMIT) and never
to zero alone; a larger change is a proposal a supervisor approves (four eyes)."""

from decimal import Decimal

import pytest

from claims import errors, services
from workbench.models import Proposal
from tests.support.lifecycle import HEIR_DETAILS, acted, act, claim_under_review, page_messages
from workbench import services as workbench_services

pytestmark = pytest.mark.usefixtures("local_media")


@pytest.fixture
def claim(api, sale, analyst, settings):
    settings.RESERVE_AUTHORITY_LIMIT = Decimal("10000.00")
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    return acted(analyst, claim, "aprovar-documentacao")  # reserve: the LMI, 50.000,00


def adjust(client, claim, amount: str):
    return act(client, claim, "ajustar-reserva", {"amount": amount, "reason": "Laudo."})


def test_within_the_authority_the_analyst_adjusts_alone(claim, analyst):
    response = adjust(analyst, claim, "40000,00")

    assert "Reserva ajustada para R$ 40.000,00." in page_messages(analyst, response)
    claim.refresh_from_db()
    assert claim.amount == Decimal("40000.00") and not claim.proposals.exists()


@pytest.mark.parametrize("amount", ["39999,99", "0,00"])
def test_above_the_authority_or_to_zero_the_analyst_proposes(claim, analyst, amount):
    response = adjust(analyst, claim, amount)

    assert "proposta enviada ao supervisor" in page_messages(analyst, response)
    claim.refresh_from_db()
    assert claim.amount == Decimal("50000.00")  # nothing changes until approved
    proposal = claim.proposals.get()
    assert proposal.kind == Proposal.Kind.RESERVE
    assert proposal.summary.startswith("ajustar a reserva de R$ 50.000,00 para")
    assert claim.awaiting == "aprovacao"


def test_a_supervisor_approves_and_the_timeline_names_both(claim, analyst, supervisor):
    adjust(analyst, claim, "0,00")
    proposal = Proposal.objects.get(claim=claim)

    workbench_services.approve(proposal_id=proposal.pk, user=supervisor.user)

    claim.refresh_from_db()
    assert claim.amount == Decimal("0.00")
    entry = claim.history.filter(action="ajustar-reserva").last()
    assert (entry.user, entry.proposed_by) == (supervisor.user, analyst.user)


def test_the_service_refuses_the_analyst_whoever_calls_it(claim, analyst):
    with pytest.raises(errors.ActionNotPermitted, match="passa da alçada do analista"):
        services.adjust_reserve(claim_id=claim.pk, user=analyst.user, amount=Decimal("0"),
                                reason="x")


def test_a_supervisor_adjusts_beyond_the_analysts_authority_directly(claim, supervisor):
    response = adjust(supervisor, claim, "1000,00")

    assert "Reserva ajustada para R$ 1.000,00." in page_messages(supervisor, response)


def test_the_form_states_the_authority(claim, analyst):
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/acoes/ajustar-reserva/").content.decode()

    assert "variação de até R$ 10.000,00, nunca zerar a reserva" in page
