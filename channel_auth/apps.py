from django.apps import AppConfig


class ChannelAuthConfig(AppConfig):
    name = "channel_auth"
    verbose_name = "Autenticação dos canais"

    def ready(self):
        # The OpenAPI description of the channel token, and the token endpoint's problem
        # types (each error class registers itself) for the problem pages and docs.
        from channel_auth import errors, schema  # noqa: F401

        # Whatever could turn an accepted token into a refused one revokes every
        # process's accepted tokens once it commits (channel_auth.revocation).
        from django.db.models.signals import post_delete, post_save
        from oauth2_provider.models import get_access_token_model

        from channel_auth import revocation
        from claims.models import Channel

        post_save.connect(revocation.channel_changed, sender=Channel,
                          dispatch_uid="channel-auth-channel-saved")
        post_delete.connect(revocation.channel_changed, sender=Channel,
                            dispatch_uid="channel-auth-channel-deleted")
        post_delete.connect(revocation.token_deleted, sender=get_access_token_model(),
                            dispatch_uid="channel-auth-token-deleted")
