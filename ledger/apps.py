from django.apps import AppConfig


class LedgerConfig(AppConfig):
    """The books of claims: the reserve ledger, the monthly close with the PSL inventory,
    the triangles and the accounting entries (docs/ledger.md)."""

    name = "ledger"
    verbose_name = "Livros de sinistros"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Every move that changes what a claim owes or paid writes its movements in the
        # move's own transaction (ledger.booking): they commit or roll back with it.
        from claims.signals import claim_moved
        from ledger import receivers

        claim_moved.connect(receivers.book_move, dispatch_uid="ledger.book_move")
