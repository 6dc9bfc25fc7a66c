"""Errors of the reconsideration of a denial (docs/denials.md)."""

from api_common.problem_types import ANALYSTS, ProblemError
from claims.errors.contract import BusinessRuleError


class ReconsiderationAlreadyPending(ProblemError):
    status = 409
    problem_id = "reconsideration-already-pending"
    title = "Reconsideração já pedida"
    cause = (
        "Já há um pedido de reconsideração deste sinistro aguardando a decisão da "
        "seguradora."
    )
    action = (
        "Aguarde a decisão: o evento sinistro-recusa-mantida ou sinistro-reaberto a "
        "informa. Depois de mantida a recusa, um novo pedido é aceito."
    )
    default_detail = "Já há um pedido de reconsideração deste sinistro aguardando decisão."


class ReconsiderationNotAllowed(BusinessRuleError):
    problem_id = "reconsideration-not-allowed"
    title = "Decisão de reconsideração não permitida"
    cause = (
        "Manter a recusa sem pedido de reconsideração pendente ou sem resposta, "
        "decidir (manter ou reabrir) um pedido sendo quem recusou ou propôs a recusa, "
        "ou um pedido sem texto (páginas do segurado; a API responde 400)."
    )
    action = (
        "Outro supervisor, que não participou da recusa, decide o pedido, com uma "
        "resposta a quem pediu."
    )
    group = ANALYSTS


class ReconsiderationTextMissing(ReconsiderationNotAllowed):
    default_detail = "Escreva por que a seguradora deve reconsiderar a recusa."
