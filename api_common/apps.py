from django.apps import AppConfig


class ApiCommonConfig(AppConfig):
    name = "api_common"
    verbose_name = "Base da API"

    def ready(self):
        from api_common import http_problems  # noqa: F401  (registers HTTP's problem types)
