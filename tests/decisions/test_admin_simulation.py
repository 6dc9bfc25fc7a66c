"""The "Simular" page: a version over the claims people decided, in numbers and words."""

import pytest

from claims import services
from claims.formatting import brl
from claims.models import Claim
from decisions.models import RuleSet, RuleSetVersion
from tests.decisions.support import UNEMPLOYMENT, unemployment_claim
from tests.support.lifecycle import logged_in

pytestmark = pytest.mark.django_db


def test_the_simulation_reports_what_the_version_would_have_decided(rules_on, readings, sofia, bruno):
    # Off, so that opening the claims does not run the rules on them.
    RuleSet.objects.update(mode=RuleSet.Mode.OFF)
    approved = unemployment_claim(balance="1800.00")
    services.approve_documents(claim_id=approved.pk, user=bruno)
    denied = unemployment_claim(balance="2400.00")
    services.deny(claim_id=denied.pk, user=bruno, reason="Rescisão de outro contrato.",
                  code=1, clause="Cláusula 5.2")
    approved, denied = Claim.objects.get(pk=approved.pk), Claim.objects.get(pk=denied.pk)
    assert approved.decided_at and denied.decided_at
    version = RuleSetVersion.objects.get(rule_set__nature=UNEMPLOYMENT, status="publicada")

    client = logged_in(sofia)
    form = client.get(f"/admin/decisions/rulesetversion/{version.pk}/simular/")
    assert form.status_code == 200 and 'value="6"' in form.content.decode()

    page = client.get(f"/admin/decisions/rulesetversion/{version.pk}/simular/", {"months": 6})
    text = page.content.decode()
    assert page.status_code == 200
    result = page.context["result"]
    assert result.total == 2
    assert "Sinistros comparados" in text and "Regras aprovariam e pagariam" in text
    # Both would be approved: one as people did, one that people denied.
    assert page.context["table"][0][1] == [1, 1]
    assert "50%" in text
    # What it would pay that people did not: the denied claim (both pay the approved one).
    assert brl(denied.amount) in text
    # The disagreement, a link to its claim.
    assert f'href="/admin/claims/claim/{denied.pk}/change/"' in text
    assert f'href="/admin/claims/claim/{approved.pk}/change/"' not in text


def test_a_draft_the_engine_cannot_run_says_so_on_the_page(rules_on, sofia):
    version = RuleSetVersion.objects.get(rule_set__nature=UNEMPLOYMENT, status="publicada")
    draft = RuleSetVersion.objects.create(rule_set=version.rule_set, number=2, created_by=sofia)
    draft.rules.create(position=1, conditions="valor: >>> 3", decision="aprovar", reason="x")
    client = logged_in(sofia)
    page = client.get(f"/admin/decisions/rulesetversion/{draft.pk}/simular/", {"months": 3})
    assert page.status_code == 200
    assert "A versão não pode ser simulada" in page.content.decode()
