"""Each kind of condition a table holds, how rows combine into a verdict, and the words a
fired row leaves on the claim. No database: the engine is pure."""

import pytest

from decisions import engine
from decisions.engine import Row, RulesInvalid, evaluate, parse_conditions
from decisions.models import Decision


def rows(*specs):
    return [Row(number=i, conditions=parse_conditions(text), decision=decision, reason=reason)
            for i, (text, decision, reason) in enumerate(specs, start=1)]


@pytest.mark.parametrize("condition, value, fires", [
    ("valor: <= 5000", 5000.0, True),                 # numbers against a bound
    ("valor: <= 5000", 5000.01, False),
    ("dias_desde_inicio_vigencia: [90..365]", 120, True),  # a range
    ("dias_desde_inicio_vigencia: [90..365]", 30, False),
    ("cobertura: \"cobertura/morte\"", "cobertura/morte", True),  # text
    ("cobertura: \"cobertura/morte\"", "cobertura/perda-de-renda", False),
    ("canal: \"banco-a\", \"banco-b\"", "banco-b", True),  # one of a list
    ("tem_alertas: true", True, True),                 # yes/no
    ("tem_alertas: true", False, False),
    ("certidao_confere: null", None, True),            # not known
    ("certidao_confere: true", None, False),           # null never passes a test
    ("certidao_data_diverge_dias: > 1", None, False),  # nor a comparison
])
def test_each_kind_of_condition(condition, value, fires):
    name = condition.split(":")[0]
    verdict = evaluate(rows((condition, "aprovar", "ok")), {name: value})
    assert (verdict.decision == Decision.APPROVE) is fires


def test_the_most_careful_row_wins_and_every_fired_row_is_kept():
    table = rows(("prestamista: true", "aprovar", "Prestamista"),
                 ("tem_alertas: true", "encaminhar", "Alertas"),
                 ("dias_desde_inicio_vigencia: < 90", "propor-recusa", "Carência"))
    assert evaluate(table, {"prestamista": True, "tem_alertas": False,
                            "dias_desde_inicio_vigencia": 200}).decision == Decision.APPROVE
    routed = evaluate(table, {"prestamista": True, "tem_alertas": True,
                              "dias_desde_inicio_vigencia": 200})
    assert routed.decision == Decision.ROUTE and routed.reasons == ["Prestamista", "Alertas"]
    proposed = evaluate(table, {"prestamista": True, "tem_alertas": True,
                                "dias_desde_inicio_vigencia": 10})
    assert proposed.decision == Decision.PROPOSE_DENIAL


def test_no_row_fired_means_a_person_decides():
    verdict = evaluate(rows(("prestamista: true", "aprovar", "x")), {"prestamista": False})
    assert verdict.decision == Decision.ROUTE and verdict.reasons == [engine.NO_RULE]


def test_a_fired_row_in_words_with_the_facts_it_read():
    verdict = evaluate(rows(("prestamista: true\nvalor: <= 5000", "aprovar", "Parcelas pequenas")),
                       {"prestamista": True, "valor": 1234.5})
    assert engine.explain(verdict.fired[0]) == (
        "Regra 1 — Parcelas pequenas (Seguro prestamista (há saldo devedor): sim; "
        "Valor do sinistro (R$): 1.234,50)")


@pytest.mark.parametrize("text, words", [
    ("valor < 5", "escreva “fato: expressão”"),
    ("salario: > 3", "o fato “salario” não existe"),
    ("valor: > 1\nvalor: < 9", "aparece duas vezes"),
])
def test_a_badly_written_condition_names_its_line(text, words):
    with pytest.raises(RulesInvalid, match=words):
        parse_conditions(text)


def test_a_broken_expression_or_a_denial_is_refused_when_the_table_is_built():
    with pytest.raises(RulesInvalid, match="Regra 1, “valor: >>> 3”"):
        engine.compile_rows([Row(1, {"valor": ">>> 3"}, "aprovar", "x")])
    with pytest.raises(RulesInvalid, match="as regras nunca recusam"):
        engine.compile_rows([Row(1, {"valor": "> 3"}, "recusar", "x")])


def test_the_table_exports_to_the_open_editor_format():
    jdm = engine.to_jdm(rows(("valor: > 3", "aprovar", "Motivo")))
    table = next(node for node in jdm["nodes"] if node["type"] == "decisionTableNode")
    assert table["content"]["hitPolicy"] == "collect"
    assert table["content"]["inputs"] == [{"id": "f0", "name": "Valor do sinistro (R$)", "field": "valor"}]
    assert table["content"]["rules"][0]["f0"] == "> 3"
