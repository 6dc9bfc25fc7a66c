from django.apps import AppConfig


class IdempotencyConfig(AppConfig):
    name = "idempotency"
    verbose_name = "Idempotência da API"
