from django.apps import AppConfig


class IdempotencyConfig(AppConfig):
    name = "idempotency"
    verbose_name = "Idempotência da API"

    def ready(self):
        from idempotency import services  # noqa: F401  (its problem type, KeyReused)
