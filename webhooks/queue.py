"""Handing deliveries to the workers. Enqueuing happens after the transaction that
created them commits; a broker that is down only delays them: the periodic sweep finds
every pending delivery that is due (webhooks.delivery)."""

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_after_commit(delivery_ids) -> None:
    ids = [str(pk) for pk in delivery_ids]
    if ids:
        transaction.on_commit(lambda: _enqueue(ids))


def _enqueue(ids: list[str]) -> None:
    from webhooks import tasks

    for pk in ids:
        try:
            tasks.deliver.delay(pk)
        except Exception:  # the broker is down: the sweep will enqueue it later
            logger.warning("Could not enqueue webhook delivery %s; the sweep will", pk,
                           exc_info=True)
