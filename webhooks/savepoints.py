"""One write of the delivery engine's cycle, kept from spoiling the others.

The engine's cycle is one transaction (webhooks.engine): events fanned out, the
attempts that finished recorded, the next deliveries leased. A write that fails because
of its rows (a constraint, a value the column refuses) is rolled back to its own
savepoint, logged and counted (``sinistros_webhook_engine_failures_total``), and the
cycle goes on for everybody else. A failure of the connection itself (the database
unreachable) is no row's fault: it is raised, and the whole cycle is tried again.
"""

import logging
from collections.abc import Callable

from django.db import DatabaseError, connection, transaction

from webhooks import metrics

logger = logging.getLogger(__name__)


def isolated(write: Callable[[], object], *, stage: str | None, what: str) -> bool:
    """Run ``write`` in a savepoint: True when it was written. A row's failure is
    logged (``what`` says whose) and, with ``stage``, counted; False is returned."""
    try:
        with transaction.atomic():
            write()
        return True
    except DatabaseError:
        # The savepoint could not be rolled back, or the connection is gone: not this
        # write's fault, and nothing more can be written in this transaction.
        if connection.needs_rollback or not connection.is_usable():
            raise
        logger.exception("Webhook delivery engine: %s failed; moving on", what)
        if stage is not None:
            metrics.record_engine_failure(stage)
        return False
