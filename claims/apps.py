from django.apps import AppConfig


class ClaimsConfig(AppConfig):
    name = "claims"
    verbose_name = "Sinistros"

    def ready(self):
        from claims import schema  # noqa: F401  (registers the OpenAPI auth extension)
