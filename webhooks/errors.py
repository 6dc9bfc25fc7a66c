"""Errors of the webhook endpoints, each with a stable problem id (docs/problems.md)."""

from api_common.problems import ProblemError


class SubscriptionNotFound(ProblemError):
    status = 404
    problem_id = "webhook-not-found"
    title = "Webhook não encontrado"
    default_detail = "Nenhum webhook com este id-webhook para o canal."


class DeliveryNotFound(ProblemError):
    status = 404
    problem_id = "delivery-not-found"
    title = "Entrega não encontrada"
    default_detail = "Nenhuma entrega com este id-entrega neste webhook."


class SubscriptionNotActive(ProblemError):
    status = 422
    problem_id = "webhook-not-active"
    title = "Webhook desativado"
    default_detail = "O webhook está desativado: ative-o (ativo: true) antes de enviar entregas."
