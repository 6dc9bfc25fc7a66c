"""Errors of the webhook endpoints, each with a stable problem id (docs/problems.md)."""

from api_common.problem_types import ProblemError


class SubscriptionNotFound(ProblemError):
    status = 404
    problem_id = "webhook-not-found"
    title = "Webhook não encontrado"
    cause = "Nenhuma assinatura com este id-webhook para o canal."
    action = "Liste as assinaturas em GET /api/v1/webhooks e use um id-webhook de lá."
    default_detail = "Nenhum webhook com este id-webhook para o canal."


class DeliveryNotFound(ProblemError):
    status = 404
    problem_id = "delivery-not-found"
    title = "Entrega não encontrada"
    cause = "Nenhuma entrega com este id-entrega neste webhook."
    action = "Liste as entregas do webhook e use um id-entrega de lá."
    default_detail = "Nenhuma entrega com este id-entrega neste webhook."


class SubscriptionNotActive(ProblemError):
    status = 422
    problem_id = "webhook-not-active"
    title = "Webhook desativado"
    cause = "ping ou reenviar em um webhook com ativo: false."
    action = "Reative o webhook (PATCH com ativo: true) antes de pedir entregas."
    default_detail = "O webhook está desativado: ative-o (ativo: true) antes de enviar entregas."
