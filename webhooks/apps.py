from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self):
        """Wire the event chain, which runs, in order:

        1. a claims service records a step (``claims.services.recording.write_history``)
           and, when the step has an event, writes the ``claims.Event`` outbox row in the
           step's transaction, then sends ``claims.signals.event_recorded``;
        2. ``webhooks.relay.relay_new_event`` (connected below) asks, once that
           transaction commits, for a delivery run (``webhooks.wakeup``: the
           ``webhooks.tasks.deliver`` task, sent by name, unless a live pump with free
           slots will find the event on its own);
        3. a delivery worker's pump (``webhooks.pump``) fans each new event out into one
           ``Delivery`` per subscription that wants it (``webhooks.relay.fan_out_pending``)
           and sends the due deliveries (``webhooks.claiming``, ``webhooks.sender``),
           retrying on the schedule of ``webhooks.retry_policy``;
        4. the periodic sweep (``webhooks.tasks``, Celery beat) runs the pump too, so a
           request lost with a broker that was down delays events, never loses them.

        claims knows nothing of webhooks: the dependency points this way only.
        """
        from claims.signals import event_recorded
        from webhooks import errors, relay  # noqa: F401  (errors: its problem types)

        event_recorded.connect(relay.relay_new_event, dispatch_uid="webhooks.relay_new_event")
