from django.apps import AppConfig


class ClaimsConfig(AppConfig):
    name = "claims"
    verbose_name = "Sinistros"
