from django.apps import AppConfig


class LocalDevConfig(AppConfig):
    """Development only (``LOCAL_DEV_TOOLS``): the demo's command and data, the local
    registradora and the local bank. It has no models and connects no signal: the apps
    know nothing of it."""

    name = "localdev"
    verbose_name = "Ferramentas de desenvolvimento"
