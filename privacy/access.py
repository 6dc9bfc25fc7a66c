"""Who read a claim's personal data (LGPD art. 37): one INSERT per request, from
``claims.signals.personal_data_read`` (docs/privacy-access.md).

A page, a download, a search page or an API read names a few claims: one statement.
An export names every claim it wrote (a whole filtered list): its rows go in batches of
``BATCH`` per statement, so one statement never carries an unbounded list.

A read outside any transaction (the API's, the hosted page's) commits its record on its
own. That commit does not wait for the disk by default (``ACCESS_RECORD_COMMIT_WAITS``,
docs/privacy-access.md "What a crash can lose"): waiting for the WAL flush made every
read wait on every other database's disk traffic, and a flush that stalled for 100-320
ms stalled every read of that moment at once (bench/api_tail.py --trace,
docs/performance.md). The record is still written, and visible, before the answer
leaves; a crash of PostgreSQL itself (not of the service) can lose the last fraction of
a second of records. A record written inside a caller's transaction (an admin page, a
claim's move) commits with it, as that transaction asks: never made asynchronous."""

from django.conf import settings
from django.db import connection, transaction

from privacy.models import AccessRecord

BATCH = 2000


def record(sender=None, *, claim_ids, kind, user=None, channel_id=None, **kwargs) -> None:
    ids = list(dict.fromkeys(claim_ids))  # once per claim, in the order read
    if not ids:
        return
    user_id = user.pk if user is not None and user.is_authenticated else None
    rows = (AccessRecord(claim_id=claim_id, kind=kind, user_id=user_id, channel_id=channel_id)
            for claim_id in ids)
    if connection.in_atomic_block or settings.ACCESS_RECORD_COMMIT_WAITS \
            or connection.vendor != "postgresql":
        AccessRecord.objects.bulk_create(rows, batch_size=BATCH)
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            # This transaction's commit only (SET LOCAL), never the connection's.
            cursor.execute("SET LOCAL synchronous_commit = off")
        AccessRecord.objects.bulk_create(rows, batch_size=BATCH)
