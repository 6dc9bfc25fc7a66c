from django.apps import AppConfig
from django.db.models.signals import post_save


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self):
        from webhooks import errors, relay  # noqa: F401  (errors: its problem types)

        # Each outbox event, once its transaction commits, is fanned out by a worker
        # (claims knows nothing of webhooks: the dependency points this way only).
        post_save.connect(relay.relay_new_event, sender="claims.Event",
                          dispatch_uid="webhooks.relay_new_event")
