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
        "informa. Depois de mantida a recusa, um novo pedido é aceito com documentos "
        "novos (reconsideration-needs-new-documents)."
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


class ReconsiderationNeedsNewDocuments(BusinessRuleError):
    problem_id = "reconsideration-needs-new-documents"
    title = "Novo pedido de reconsideração sem documentos novos"
    cause = (
        "A seguradora já respondeu a um pedido de reconsideração desta recusa (recusa "
        "mantida) e, desde essa resposta, nenhum documento do tipo reconsideracao foi "
        "recebido: o mesmo pedido, sem nada novo, teria a mesma resposta."
    )
    action = (
        "Envie primeiro os documentos novos (laudos, exames, boletins) com "
        "enviar-documento e \"tipo\": \"reconsideracao\"; depois peça de novo, dizendo o "
        "que eles mostram."
    )
    default_detail = (
        "A recusa já foi mantida após um pedido de reconsideração. Um novo pedido precisa "
        "de documentos novos, enviados depois da resposta.")


class ReconsiderationLimitReached(BusinessRuleError):
    problem_id = "reconsideration-limit-reached"
    title = "Limite de pedidos de reconsideração"
    cause = (
        "Esta recusa já foi reconsiderada o número máximo de vezes "
        "(RECONSIDERATION_MAX_REQUESTS, 2 por padrão) e mantida em todas."
    )
    action = (
        "A seguradora não reanalisa a recusa outra vez. Quem discorda pode procurar a "
        "ouvidoria da seguradora, a SUSEP ou a Justiça."
    )
    default_detail = (
        "Esta recusa já foi reconsiderada e mantida o número máximo de vezes: a seguradora "
        "não a reanalisa de novo. Restam a ouvidoria, a SUSEP e a Justiça.")


class HumanReviewNotAllowed(BusinessRuleError):
    """A review by a person (LGPD art. 20) asked of a claim no rules decided."""

    problem_id = "human-review-not-allowed"
    title = "Revisão por uma pessoa não se aplica"
    cause = (
        "A revisão por uma pessoa (LGPD art. 20) é pedida sobre uma decisão tomada por "
        "regras automáticas; este sinistro foi decidido por uma pessoa, ou o pedido passa "
        "do tamanho aceito."
    )
    action = (
        "Para discordar de uma recusa, peça a reconsideração. Um sinistro decidido por "
        "regras mostra decisao-automatica na consulta."
    )
    default_detail = "Este sinistro foi decidido por uma pessoa, não por regras automáticas."
