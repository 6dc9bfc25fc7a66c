from django.apps import AppConfig


class DecisionsConfig(AppConfig):
    """Claims that decide themselves: rules people read, in shadow first, with sampled
    review and a person behind every refusal (docs/decisions.md)."""

    name = "decisions"
    verbose_name = "Decisões automáticas"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # A claim whose documentation became complete, or whose payment data arrived, is
        # evaluated by its coverage's rules in a worker after the move commits
        # (decisions.receivers); a finished reading of its documents re-evaluates it.
        from api_common import metrics as scrape
        from claims.signals import claim_moved
        # errors: the problem registry; admin_panels: the claim page's panel and the card.
        from decisions import admin_panels, errors, metrics, receivers  # noqa: F401

        claim_moved.connect(receivers.evaluate_after_move,
                            dispatch_uid="decisions.evaluate_after_move")
        claim_moved.connect(receivers.note_human_decision,
                            dispatch_uid="decisions.note_human_decision")
        receivers.connect_readings()
        # The claim page's "Decisão automática" panel and the supervisors' card.
        admin_panels.install()
        scrape.register(metrics.DecisionsCollector())  # the rules' measures on /metricas
