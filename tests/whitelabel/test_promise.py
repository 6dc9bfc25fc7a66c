"""The claim page's promise never runs ahead of the decision: until cover is recognised
it gives the deadline to decide (Lei 15.040/2024, art. 86), counted from the complete
documents even after they are approved; once payment data are asked, the deadline to pay
(art. 87). Real services move the claim; the page is read as the family reads it."""

import datetime as dt

import pytest
from django.utils import timezone

from claims import roles, services
from claims.models import ClaimHistory
from tests.support.hosted import text
from tests.support.lifecycle import claim_under_review, open_claim, staff

pytestmark = pytest.mark.usefixtures("local_media")


def page_of(insured, claim) -> str:
    return text(insured.get(f"/segurado/sinistros/{claim.number}"))


def day(moment) -> str:
    return f"{timezone.localdate(moment):%d/%m/%Y}"


def test_while_documents_are_missing_the_thirty_days_are_promised_from_their_arrival(
        insured, api, sale, death_certificate):
    claim = open_claim(api, sale)

    page = page_of(insured, claim)

    assert ("Depois que todos os documentos pedidos chegarem, a seguradora tem 30 dias para "
            "decidir se o seguro cobre este sinistro (Lei 15.040/2024, art. 86).") in page
    assert "para pagar" not in page


def test_approved_documents_still_promise_a_decision_not_a_payment(insured, api, sale):
    ana = staff("ana", roles.ANALYST)
    claim = claim_under_review(api, sale)
    # The documents were complete ten days ago: the art. 86 count started then.
    complete = timezone.now() - dt.timedelta(days=10)
    ClaimHistory.objects.filter(claim=claim, action="completar-documentacao").update(
        created_at=complete)
    decide_by = day(complete + dt.timedelta(days=30))
    assert f"A seguradora tem até {decide_by} para decidir se o seguro cobre este sinistro " \
           "(Lei 15.040/2024, art. 86)." in page_of(insured, claim)

    services.approve_documents(claim_id=claim.pk, user=ana)
    approved = page_of(insured, claim)

    assert "Documentos aprovados" in approved
    assert f"A seguradora tem até {decide_by} para decidir" in approved
    assert "para pagar" not in approved

    services.request_payment_data(claim_id=claim.pk, user=ana)
    recognised = page_of(insured, claim)

    claim.refresh_from_db()
    assert claim.clock_kind == "pagamento"
    assert (f"A cobertura foi reconhecida: a seguradora tem até {day(claim.clock_deadline)} "
            "para pagar (Lei 15.040/2024, art. 87).") in recognised
    assert "para decidir" not in recognised


def test_a_decision_deadline_gone_by_is_said_as_such(insured, api, sale):
    claim = claim_under_review(api, sale)
    complete = timezone.now() - dt.timedelta(days=40)
    ClaimHistory.objects.filter(claim=claim, action="completar-documentacao").update(
        created_at=complete)

    page = page_of(insured, claim)

    assert (f"O prazo da seguradora para decidir terminou em "
            f"{day(complete + dt.timedelta(days=30))} (Lei 15.040/2024, art. 86).") in page


def test_a_denied_claim_promises_nothing(insured, api, sale):
    claim = claim_under_review(api, sale)
    services.deny(claim_id=claim.pk, user=staff("sergio", roles.SUPERVISOR),
                  reason="Evento anterior à contratação.", code=1, clause="Cláusula 5")

    page = page_of(insured, claim)

    assert "Recusado" in page and "para decidir" not in page and "para pagar" not in page
