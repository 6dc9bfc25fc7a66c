"""Webhook subscriptions of the channels, and the delivery of the claims outbox to them.

The outbox (``claims.Event``) is written with each claim change; the relay fans each
event out to one :class:`Delivery` per matching subscription (a constraint makes that
at most once), and workers make :class:`DeliveryAttempt` rows until one succeeds.
"""

import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone


# ``eventos-habilitados: ["*"]``: every event, those the catalogue gains later too. Kept
# as sent and matched when an event is fanned out, never expanded to today's names.
ALL_EVENTS = "*"


def deliverable() -> Q:
    """Subscriptions that may receive: active, not deleted, of an active channel with the
    claims API on (the contract's rule 3)."""
    return Q(is_active=True, deleted_at__isnull=True, channel__is_active=True,
             channel__claims_api_enabled=True)


def lease_free(now) -> Q:
    """Deliveries no live worker holds: never leased, or a lease that expired."""
    return Q(lease_until__isnull=True) | Q(lease_until__lte=now)


class Subscription(models.Model):
    """A channel's endpoint and the events it wants (contract: "assinatura")."""

    id = models.UUIDField("id-webhook", primary_key=True, default=uuid.uuid4, editable=False)
    channel = models.ForeignKey("claims.Channel", on_delete=models.CASCADE,
                                related_name="webhook_subscriptions", verbose_name="canal")
    description = models.CharField("descrição", max_length=200, blank=True)
    is_active = models.BooleanField("ativa", default=True)
    url = models.URLField("URL", max_length=2000)
    # Event names (contract values), in the order the channel gave them, or ["*"].
    enabled_events = models.JSONField("eventos habilitados", default=list)
    # Signing needs the plain secret, so it cannot be hashed: it is stored encrypted
    # (see webhooks.signing) and shown in full only when created or rotated.
    secret_encrypted = models.TextField("segredo (cifrado)")
    previous_secret_encrypted = models.TextField("segredo anterior (cifrado)", blank=True)
    previous_secret_expires_at = models.DateTimeField("segredo anterior vale até", null=True,
                                                      blank=True)
    # Health, kept by the delivery engine.
    last_success_at = models.DateTimeField("última entrega com sucesso", null=True, blank=True)
    last_failure_at = models.DateTimeField("última falha", null=True, blank=True)
    consecutive_failures = models.PositiveIntegerField("falhas seguidas", default=0)
    failing_since = models.DateTimeField("falhando desde", null=True, blank=True)
    disabled_at = models.DateTimeField("desativada automaticamente em", null=True, blank=True)
    disabled_reason = models.CharField("motivo da desativação", max_length=300, blank=True)
    # The circuit breaker (webhooks.breaker): while open, nothing is sent to the endpoint
    # and its deliveries wait in the database; once this time passes, one probe goes.
    breaker_open_until = models.DateTimeField("pausada até", null=True, blank=True)
    # How many times in a row it opened without a success in between: each time the
    # pause doubles. Zero: closed.
    breaker_trips = models.PositiveIntegerField("pausas seguidas", default=0)
    # Deleted by the channel: the row stays (webhooks.services.delete_subscription) so
    # that attempts in flight when it was deleted are still recorded against their
    # deliveries; nothing more is sent, and the sweep purges it after
    # WEBHOOK_DELETED_SUBSCRIPTION_DAYS.
    deleted_at = models.DateTimeField("excluída pelo canal em", null=True, blank=True)
    created_at = models.DateTimeField("criada em", default=timezone.now, editable=False)
    updated_at = models.DateTimeField("atualizada em", auto_now=True)

    class Meta:
        verbose_name = "assinatura de webhook"
        verbose_name_plural = "assinaturas de webhook"
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["channel", "is_active"], name="subscription_channel_active")]

    def __str__(self):
        return self.description or self.url

    def wants(self, event_name: str) -> bool:
        """Whether the subscription lists the event, or subscribed to every event."""
        events = self.enabled_events or []
        return ALL_EVENTS in events or event_name in events


class Delivery(models.Model):
    """One event (or ping) to one subscription; retried until a 2xx or given up."""

    class Status(models.TextChoices):
        PENDING = "pendente", "Pendente"
        DELIVERED = "entregue", "Entregue"
        FAILED = "falhou", "Falhou (tentativas esgotadas)"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE,
                                     related_name="deliveries", verbose_name="assinatura")
    # Null for a ping, which belongs to no claim.
    event = models.ForeignKey("claims.Event", on_delete=models.PROTECT, null=True, blank=True,
                              related_name="deliveries", verbose_name="evento")
    # The envelope's id-evento: the webhook-id header, identical on every retry.
    message_id = models.UUIDField("id-evento (webhook-id)")
    event_name = models.CharField("evento", max_length=60)
    # The exact JSON body, frozen: what is signed is what is sent, on every attempt.
    body = models.TextField("corpo")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempt_count = models.PositiveIntegerField("tentativas", default=0)
    next_attempt_at = models.DateTimeField("próxima tentativa", null=True, blank=True)
    # A worker holds the delivery until then; an expired lease means the worker died.
    lease_until = models.DateTimeField("reservada até", null=True, blank=True)
    # Which claim (one batch of one worker) holds the lease: only that holder decides
    # what follows a failure.
    leased_by = models.UUIDField("reservada pelo lote", null=True, blank=True, editable=False)
    delivered_at = models.DateTimeField("entregue em", null=True, blank=True)
    created_at = models.DateTimeField("criada em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "entrega"
        verbose_name_plural = "entregas"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "subscription"], condition=Q(event__isnull=False),
                name="delivery_once_per_event_and_subscription",
            ),
        ]
        indexes = [
            models.Index(fields=["next_attempt_at"], condition=Q(status="pendente"),
                         name="delivery_due"),
            # The claim takes each endpoint's due deliveries in order, a few at a time...
            models.Index(fields=["subscription", "next_attempt_at", "id"],
                         condition=Q(status="pendente"), name="delivery_due_per_endpoint"),
            # ...and counts the requests in flight to it (live leases: a handful per
            # endpoint however long its backlog).
            models.Index(fields=["subscription"],
                         condition=Q(status="pendente", lease_until__isnull=False),
                         name="delivery_leased_per_endpoint"),
            models.Index(fields=["subscription", "-created_at", "-id"], name="delivery_page"),
        ]

    def __str__(self):
        return f"{self.event_name} → {self.subscription}"


class DeliveryAttempt(models.Model):
    """One POST of a delivery: what happened, never the whole receiver's body."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempts",
                                 verbose_name="entrega")
    attempted_at = models.DateTimeField("em")
    status_code = models.PositiveIntegerField("status HTTP", null=True, blank=True)
    duration_ms = models.PositiveIntegerField("duração (ms)")
    # Exception class for timeouts, refused connections, forbidden addresses...
    error_class = models.CharField("erro", max_length=100, blank=True)
    # A 4xx other than 408/429: the receiver refused the request itself.
    receiver_fault = models.BooleanField("falha do receptor", default=False)
    response_excerpt = models.TextField("trecho da resposta (só para a equipe)", blank=True)

    class Meta:
        verbose_name = "tentativa de entrega"
        verbose_name_plural = "tentativas de entrega"
        ordering = ["attempted_at", "id"]

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300

