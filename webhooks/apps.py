from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self):
        """Wire the event chain, which runs, in order:

        1. a claims service records a step (``claims.services.recording.record_move``)
           and, when the step has an event, writes the ``claims.Event`` outbox row in the
           step's transaction, then sends ``claims.signals.event_recorded``; (the step's
           other consequences, letters and SRO submissions, follow the same pattern:
           rows in the transaction, run by a worker after the commit,
           ``claims.services.consequences``);
        2. ``webhooks.relay.relay_new_event`` (connected below) NOTIFYs in that
           transaction (``webhooks.leases.notify``): PostgreSQL wakes the delivery
           engines when it commits;
        3. the engine of each delivery worker process (``webhooks.engine``) fans each
           new event out into one ``Delivery`` per subscription that wants it
           (``webhooks.relay.fan_out_pending``), leases the due deliveries
           (``webhooks.leases``) and sends them (``webhooks.sender``), retrying on the
           schedule of ``webhooks.retry_policy``;
        4. the engine also polls every ``WEBHOOK_POLL_SECONDS``, so a notification
           missed delays events, never loses them.

        claims knows nothing of webhooks: the dependency points this way only.
        """
        from api_common import metrics as scrape
        from claims.signals import event_recorded
        from webhooks import errors, relay  # noqa: F401  (errors: its problem types)
        from webhooks.metrics.collector import WebhookCollector

        event_recorded.connect(relay.relay_new_event, dispatch_uid="webhooks.relay_new_event")
        # Delivery's outcomes, latency and backlog on /metricas.
        scrape.register(WebhookCollector())
