from django.apps import AppConfig


class WhitelabelConfig(AppConfig):
    name = "whitelabel"
    verbose_name = "Whitelabel"
