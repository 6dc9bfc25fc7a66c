from django.apps import AppConfig


class ChannelAuthConfig(AppConfig):
    name = "channel_auth"
    verbose_name = "Autenticação dos canais"

    def ready(self):
        # The OpenAPI description of the channel token, and the token endpoint's problem
        # types (each error class registers itself) for the problem pages and docs.
        from channel_auth import errors, schema  # noqa: F401
