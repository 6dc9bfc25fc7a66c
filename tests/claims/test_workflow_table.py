"""docs/workflow.md is written from claims/workflow.py (``manage.py workflow_docs``,
``make docs``); the table must be current, and the workflow itself whole."""

from django.core.management import call_command

from claims.management.commands.workflow_docs import Command as WorkflowDocs
from claims.workflow import WORKFLOW, Action, ClaimStatus


def test_the_docs_table_is_current():
    call_command("workflow_docs", check=True)


def _rows(text: str) -> dict:
    return {line.split("|")[1].strip(" `"): [cell.strip() for cell in line.split("|")[2:-1]]
            for line in text.splitlines() if line.startswith("| `")}


def test_the_table_has_a_row_per_action_saying_its_move():
    rows = _rows(WorkflowDocs().render().split("## Who")[0])

    assert set(rows) == {action.value for action in Action}
    assert rows["recusar"] == ["Recusar", "every open status", "`recusado`", "`sinistro-negado`"]
    assert rows["liquidar-pagamento"][1:3] == ["every open status, `finalizado`", "keeps"]
    assert rows["ajustar-reserva"][2] == (
        "`em-regulacao`; keeps `pendente-de-documentacao`, `pendente-de-dados-de-pagamento`")
    assert rows["informar-dados-de-pagamento"][3] == "none"
    assert rows["abrir"][1] == "(none)"


def test_the_second_table_says_who_the_clock_and_the_insured_persons_words():
    rows = _rows(WorkflowDocs().render().split("## Who")[1])

    assert set(rows) == {action.value for action in Action}
    assert rows["recusar"] == ["`work_claim`", "`deny_claim`", "Encerra o prazo",
                               "Pedido recusado"]
    assert rows["completar-documentacao"][:2] == ["channel, insured or system", "-"]
    assert rows["registrar-pagamento"][2] == "Reconhece a cobertura: inicia o prazo de pagamento"
    assert rows["ajustar-reserva"][3] == "not shown"


def test_every_status_and_event_is_reached_by_some_move():
    targets = {s for move in WORKFLOW.values() for s in move.to_states}
    events = {move.event for move in WORKFLOW.values() if move.event}
    # abertura-rejeitada is reserved by the contract and never produced.
    assert set(ClaimStatus) - targets == {ClaimStatus.OPENING_REJECTED}
    # The contract's 11, and the two of a denial's reconsideration (docs/denials.md).
    assert len(events) == 13
