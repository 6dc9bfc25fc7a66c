from django.apps import AppConfig


class PayoutsConfig(AppConfig):
    """Money out: the insurer's paying accounts, payment orders, the CNAB 240 remittance
    and return files, and their reconciliation (docs/payouts.md)."""

    name = "payouts"
    verbose_name = "Pagamentos ao banco"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from claims.signals import claim_moved
        # errors: the problem registry; admin_panels: the supervisors' dashboard card.
        from payouts import admin_panels, errors, receivers  # noqa: F401

        claim_moved.connect(receivers.order_registered_payment,
                            dispatch_uid="payouts.order_registered_payment")
        # The supervisors' dashboard card (what waits for treasury or a supervisor).
        admin_panels.install()
