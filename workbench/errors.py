"""Errors of the analysts' workbench (admin only): assignment, to-dos, proposals. The API
never raises them; their problem types are listed with every other (``problem_docs``)."""

from api_common.problem_types import ANALYSTS, ProblemError
from claims.errors.contract import BusinessRuleError


class AssignmentNotAllowed(BusinessRuleError):
    problem_id = "assignment-not-allowed"
    title = "Atribuição não permitida"
    cause = (
        "Assumir um sinistro já assumido, encerrado ou de outra equipe; reatribuir sem "
        "motivo, para quem não trabalha sinistros ou para fora das equipes que o "
        "supervisor lidera."
    )
    action = ("Recarregue o sinistro; informe o motivo e um analista ativo de uma equipe "
              "sua.")
    group = ANALYSTS


class ToDoNotAllowed(BusinessRuleError):
    problem_id = "task-not-allowed"
    title = "Tarefa não permitida"
    cause = (
        "Tarefa sem assunto, com vencimento no passado, para quem não trabalha "
        "sinistros, ou já concluída ou cancelada."
    )
    action = "Confira assunto, vencimento e responsável; recarregue a lista de tarefas."
    group = ANALYSTS


class ProposalNotAllowed(BusinessRuleError):
    problem_id = "proposal-not-allowed"
    title = "Proposta não permitida"
    cause = (
        "Já há uma proposta aguardando o supervisor, a proposta já foi decidida, ou "
        "quem aprova é quem propôs."
    )
    action = "Aguarde a decisão da proposta pendente; outro supervisor aprova."
    group = ANALYSTS


class ProposalStale(ProblemError):
    status = 409
    problem_id = "proposal-stale"
    title = "Proposta obsoleta"
    cause = (
        "O sinistro mudou depois da proposta (a versão que o analista viu não é mais a "
        "atual)."
    )
    action = "O analista revisa o sinistro e propõe de novo, se ainda couber."
    group = ANALYSTS
    default_detail = ("O sinistro mudou depois da proposta: ela ficou obsoleta. O analista "
                      "deve revisar o sinistro e propor de novo, se ainda couber.")
