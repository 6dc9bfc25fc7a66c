from django.db import models
from django.utils import timezone


class IdempotentRequest(models.Model):
    """A write made with an ``Idempotency-Key``: its answer, replayed to a retry with the
    same key and body for ``IDEMPOTENCY_KEY_HOURS``. A row without ``status_code`` is a
    request still running (its transaction holds the row: a concurrent retry waits)."""

    scope = models.CharField("de quem é a chave", max_length=64)
    key = models.CharField("chave", max_length=255)
    fingerprint = models.CharField("impressão do pedido", max_length=64)
    status_code = models.PositiveSmallIntegerField("status da resposta", null=True)
    content_type = models.CharField(max_length=100, blank=True)
    body = models.BinaryField("corpo da resposta", default=b"")
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False, db_index=True)

    class Meta:
        verbose_name = "pedido idempotente"
        verbose_name_plural = "pedidos idempotentes"
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_key_per_scope"),
        ]

    def __str__(self) -> str:
        return f"{self.scope}: {self.key}"
