"""The rules engine: a version's table run by zen-engine (GoRules' open decision-table
engine; docs/decisions.md says what we compared it with).

Each version's rows (``Rule``: conditions ``fato: expressão``, a decision, a reason)
become one JDM decision table with the "collect" hit policy: every row whose conditions
all hold fires. The verdict combines them, most careful first:

- any row proposing a denial → propose the denial to a supervisor;
- else any row routing to a person → route;
- else at least one row approving → approve;
- no row fired → route ("nenhuma regra se aplica").

The verdict is one of ``Decision``'s three values, none of them a denial: whatever a
table says, the rules never deny (a row cannot hold another decision, and an unknown
value from the engine routes to a person).
"""

import json
import threading
from dataclasses import dataclass, field

import zen

from decisions.facts import FACTS, value_in_words
from decisions.models import Decision

_STRENGTH = {Decision.PROPOSE_DENIAL: 3, Decision.ROUTE: 2, Decision.APPROVE: 1}
NO_RULE = "Nenhuma regra se aplica a este sinistro: uma pessoa decide."


class RulesInvalid(ValueError):
    """A table the engine cannot run, in words for the person who wrote it."""


@dataclass(frozen=True)
class Row:
    number: int
    conditions: dict[str, str]
    decision: str
    reason: str


@dataclass(frozen=True)
class Verdict:
    decision: str
    # Each row that fired: {"regra", "decisao", "motivo", "fatos": {fact: value}}.
    fired: list = field(default_factory=list)

    @property
    def reasons(self) -> list[str]:
        return [item["motivo"] for item in self.fired]


def parse_conditions(text: str) -> dict[str, str]:
    """``fato: expressão`` per line (blank lines and ``#`` comments skipped)."""
    conditions = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, expression = line.partition(":")
        name, expression = name.strip(), expression.strip()
        if not sep or not expression:
            raise RulesInvalid(f"Linha {number}: escreva “fato: expressão”, como "
                               "“dias_desde_inicio_vigencia: < 90”.")
        if name not in FACTS:
            raise RulesInvalid(f"Linha {number}: o fato “{name}” não existe. Os fatos são: "
                               f"{', '.join(FACTS)}.")
        if name in conditions:
            raise RulesInvalid(f"Linha {number}: o fato “{name}” aparece duas vezes na regra.")
        conditions[name] = expression
    return conditions


def to_jdm(rows: list[Row]) -> dict:
    """The rows as a JDM graph (the format of GoRules' open editor, so a table can be
    exported, read and drawn there)."""
    fields = sorted({name for row in rows for name in row.conditions})
    inputs = [{"id": f"f{i}", "name": FACTS[name].label, "field": name}
              for i, name in enumerate(fields)]
    column = {name: f"f{i}" for i, name in enumerate(fields)}
    table_rules = []
    for row in rows:
        # The reason stays in the row (the engine's string literals do not take every
        # character people write); the table answers which row and what it decides.
        rule = {"_id": f"r{row.number}", "o_regra": str(row.number),
                "o_decisao": json.dumps(row.decision), "description": row.reason}
        for name in fields:
            rule[column[name]] = row.conditions.get(name, "")
        table_rules.append(rule)
    outputs = [{"id": "o_regra", "name": "Regra", "field": "regra"},
               {"id": "o_decisao", "name": "Decisão", "field": "decisao"}]
    return {
        "nodes": [
            {"id": "fatos", "type": "inputNode", "name": "Fatos do sinistro", "position": {"x": 0, "y": 0}},
            {"id": "tabela", "type": "decisionTableNode", "name": "Regras", "position": {"x": 300, "y": 0},
             "content": {"hitPolicy": "collect", "inputs": inputs, "outputs": outputs,
                         "rules": table_rules}},
            {"id": "decisao", "type": "outputNode", "name": "Decisão", "position": {"x": 600, "y": 0}},
        ],
        "edges": [{"id": "e1", "sourceId": "fatos", "targetId": "tabela", "type": "edge"},
                  {"id": "e2", "sourceId": "tabela", "targetId": "decisao", "type": "edge"}],
    }


_compiled: dict = {}
_lock = threading.Lock()
_engine = zen.ZenEngine()


def compile_rows(rows: list[Row], *, key=None):
    """The engine's decision for ``rows`` (cached by ``key``: a frozen version's id)."""
    if key is not None and key in _compiled:
        return _compiled[key]
    for row in rows:
        if row.decision not in Decision.values:
            raise RulesInvalid(f"Regra {row.number}: a decisão “{row.decision}” não existe "
                               "(aprovar, encaminhar ou propor-recusa; as regras nunca recusam).")
        for name, expression in row.conditions.items():
            try:
                zen.evaluate_unary_expression(expression, {"$": 0})
            except Exception as exc:  # the engine raises RuntimeError with its message
                if "parserError" in str(exc):  # a type mismatch with 0 is not a mistake
                    raise RulesInvalid(f"Regra {row.number}, “{name}: {expression}”: expressão "
                                       f"inválida ({_first_line(exc)}).") from None
    try:
        decision = _engine.create_decision(json.dumps(to_jdm(rows)))
    except Exception as exc:
        raise RulesInvalid(f"A tabela não pôde ser montada: {_first_line(exc)}") from None
    if key is not None:
        with _lock:
            _compiled[key] = decision
    return decision


def evaluate(rows: list[Row], facts: dict, *, key=None) -> Verdict:
    decision = compile_rows(rows, key=key)
    inputs = {name: value for name, value in facts.items() if name in FACTS}
    try:
        result = decision.evaluate(inputs)["result"]
    except Exception as exc:
        # A table that fails on these facts decides nothing: a person does.
        return Verdict(Decision.ROUTE, [{"regra": None, "decisao": Decision.ROUTE,
                                         "motivo": f"As regras falharam: {_first_line(exc)}",
                                         "fatos": {}}])
    by_number = {str(row.number): row for row in rows}
    fired = []
    for item in result if isinstance(result, list) else [result]:
        row = by_number.get(str(item.get("regra")))
        decision_value = item.get("decisao")
        if row is None or decision_value not in Decision.values:
            decision_value = Decision.ROUTE
        fired.append({
            "regra": row.number if row else None,
            "decisao": decision_value,
            "motivo": row.reason if row else NO_RULE,
            "fatos": {name: facts.get(name) for name in (row.conditions if row else {})},
        })
    if not fired:
        return Verdict(Decision.ROUTE, [{"regra": None, "decisao": Decision.ROUTE,
                                         "motivo": NO_RULE, "fatos": {}}])
    strongest = max(fired, key=lambda item: _STRENGTH[item["decisao"]])["decisao"]
    return Verdict(strongest, fired)


def explain(item: dict) -> str:
    """One fired row in words, with the facts it read: “Regra 3 — Desemprego fora da
    carência (Dias do início da vigência à ocorrência (carência): 200)”."""
    facts = "; ".join(f"{FACTS[name].label}: {value_in_words(value)}"
                      for name, value in item.get("fatos", {}).items() if name in FACTS)
    head = f"Regra {item['regra']} — " if item.get("regra") is not None else ""
    return f"{head}{item['motivo']}" + (f" ({facts})" if facts else "")


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
