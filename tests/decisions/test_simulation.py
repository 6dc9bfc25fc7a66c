"""A draft run over the claims people decided: the share it would decide alone, the
confusion table, the agreement and the money it would pay differently, against a
history the test writes."""

from decimal import Decimal

import pytest

from claims import services
from decisions.models import Rule, RuleSet
from decisions.services import versions
from decisions.services.simulation import simulate
from tests.decisions.support import unemployment_claim
from tests.support.lifecycle import staff
from tests.support.lifecycle import DENIAL_ARGUMENTS

pytestmark = pytest.mark.django_db


def test_a_draft_over_a_known_history(readings):
    sofia = staff("sofia", "Supervisor de sinistros")
    # People approved two claims and denied one; the draft approves any credit-life claim
    # whose balance is at most R$ 2.000 and routes the rest.
    small = unemployment_claim(balance="1500.00")
    other = unemployment_claim(balance="1900.00")
    large = unemployment_claim(balance="5000.00")
    for claim in (small, large):
        services.approve_documents(claim_id=claim.pk, user=sofia)
    services.deny(claim_id=other.pk, user=sofia, reason="Demissão por justa causa.",
                  **DENIAL_ARGUMENTS)
    rule_set = RuleSet.objects.create(name="Simulada", coverage_name="cobertura/perda-de-renda",
                                      nature="perda-de-renda-desemprego")
    draft = versions.new_draft(rule_set_id=rule_set.pk, user=sofia)
    Rule.objects.create(version=draft, position=1, conditions="saldo_devedor: <= 2000",
                        decision="aprovar", reason="Saldo pequeno")

    result = simulate(version=draft, months=6)
    assert result.total == 3
    assert result.table["aprovar"] == {"aprovar": 1, "recusar": 1}
    assert result.table["encaminhar"] == {"aprovar": 1, "recusar": 0}
    assert result.decided_alone == 2 and result.share_alone == pytest.approx(2 / 3)
    assert result.agreement == pytest.approx(0.5)
    # It would pay the denied claim's R$ 1.900,00; people pay the large one it routes.
    assert result.paid_not_by_people == Decimal("1900.00")
    assert result.paid_only_by_people == Decimal("5000.00")
    assert [example["sinistro"] for example in result.examples] == [other.number]
