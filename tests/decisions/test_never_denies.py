"""Whatever the facts and whatever a table says, the rules never deny: the engine's
verdict is always approve, route or propose a denial to a supervisor, and on a claim the
rules never leave it denied nor write a denial in its history. A table row with any other
decision is refused when the table is built."""

import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st

from claims.models import Claim
from claims.workflow import Action, ClaimStatus
from decisions import engine, facts as facts_module
from decisions.facts import FACTS
from decisions.models import Decision
from decisions.services.evaluate import ReadingsPending, evaluate_claim
from tests.decisions.support import unemployment_claim

VERDICTS = {Decision.APPROVE, Decision.ROUTE, Decision.PROPOSE_DENIAL}
NUMBERS = st.one_of(st.integers(-10_000, 10_000_000),
                    st.floats(-1e7, 1e7, allow_nan=False, allow_infinity=False))
TEXTS = st.sampled_from(["cobertura/perda-de-renda", "cobertura/morte", "perda-de-renda-desemprego",
                         "canal-a", "", "ação “estranha”"]) | st.text(max_size=20)
CODES = st.lists(st.sampled_from(["sinistro-precoce", "cpf-repetido", "pagamento-devolvido"]),
                 max_size=3)
VALUES = {"texto": TEXTS, "número": NUMBERS, "sim/não": st.booleans(), "lista": CODES}


def fact_value(kind: str):
    return st.none() | VALUES[kind]


FACT_VALUES = st.fixed_dictionaries({name: fact_value(fact.kind) for name, fact in FACTS.items()})


def expression(kind: str):
    """Valid expressions of the engine's unary language for a fact of ``kind``."""
    number = st.integers(-100, 100_000)
    by_kind = {
        "número": st.one_of(
            st.builds(lambda op, n: f"{op} {n}", st.sampled_from(["<", "<=", ">", ">=", "=="]), number),
            st.builds(lambda a, b: f"[{min(a, b)}..{max(a, b)}]", number, number)),
        "sim/não": st.sampled_from(["true", "false"]),
        "texto": st.sampled_from(['"cobertura/perda-de-renda"', '"canal-a"', '""',
                                  'startsWith($, "cobertura/")']),
        "lista": st.sampled_from(['contains($, "sinistro-precoce")', 'len($) > 0',
                                  'some($, # == "cpf-repetido")']),
    }
    return st.one_of(by_kind[kind], st.just("null"))


@st.composite
def rows(draw):
    count = draw(st.integers(1, 8))
    table = []
    for number in range(1, count + 1):
        names = draw(st.lists(st.sampled_from(sorted(FACTS)), min_size=0, max_size=4, unique=True))
        conditions = {name: draw(expression(FACTS[name].kind)) for name in names}
        table.append(engine.Row(number=number, conditions=conditions,
                                decision=draw(st.sampled_from(Decision.values)),
                                reason=draw(st.text(min_size=1, max_size=40))))
    return table


@hypothesis_settings(max_examples=300, deadline=None)
@given(table=rows(), facts=FACT_VALUES)
def test_the_engine_verdict_is_never_anything_but_the_three_decisions(table, facts):
    verdict = engine.evaluate(table, facts)

    assert verdict.decision in VERDICTS
    assert verdict.fired and all(item["decisao"] in VERDICTS for item in verdict.fired)
    # The verdict is the most careful of what fired: never an approval over a doubt.
    if any(item["decisao"] != Decision.APPROVE for item in verdict.fired):
        assert verdict.decision != Decision.APPROVE


@pytest.mark.parametrize("decision", ["recusar", "negar", "RECUSAR", "", "aprovar "])
def test_a_row_deciding_anything_else_is_refused_when_the_table_is_built(decision):
    row = engine.Row(number=3, conditions={"tem_alertas": "true"}, decision=decision,
                     reason="Recusa direta")

    with pytest.raises(engine.RulesInvalid, match="Regra 3: a decisão .* não existe"):
        engine.compile_rows([row])


@pytest.fixture
def complete_claim(db, rules_on, readings, settings):
    settings.AUTO_DECISION_SAMPLE_RATE = 0
    return unemployment_claim()


class Undo(Exception):
    """Ends one example's savepoint: every example starts from the same claim."""


@pytest.mark.django_db
@hypothesis_settings(max_examples=25, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=FACT_VALUES)
def test_whatever_the_facts_the_rules_never_deny_a_claim(complete_claim, monkeypatch, drawn):
    real = facts_module.collect

    def collect(claim, **day):
        # The drawn facts over the real ones; the amount left is the claim's (it is what
        # the services would pay, and the planned amount recorded).
        facts = real(claim, **day)
        facts.update({name: value for name, value in drawn.items() if name != "valor_a_pagar"})
        return facts

    monkeypatch.setattr(facts_module, "collect", collect)
    later = timezone.now() + dt.timedelta(hours=2)  # past the wait for the readings
    try:
        with transaction.atomic():
            try:
                evaluation = evaluate_claim(claim_id=complete_claim.pk,
                                            trigger="documentos-completos", now=later)
            except ReadingsPending:  # the wait is over: never here
                evaluation = None
            claim = Claim.objects.get(pk=complete_claim.pk)
            assert evaluation is not None and evaluation.decision in VERDICTS
            assert claim.status != ClaimStatus.DENIED
            assert claim.status in (ClaimStatus.DOCUMENTS_UNDER_REVIEW, ClaimStatus.UNDER_REGULATION)
            assert not claim.history.filter(action=Action.DENY).exists()
            raise Undo
    except Undo:
        pass
