"""Who read a claim's personal data (LGPD art. 37): one INSERT per request, from
``claims.signals.personal_data_read`` (docs/privacy-access.md).

A page, a download, a search page or an API read names a few claims: one statement.
An export names every claim it wrote (a whole filtered list): its rows go in batches of
``BATCH`` per statement, so one statement never carries an unbounded list."""

from privacy.models import AccessRecord

BATCH = 2000


def record(sender=None, *, claim_ids, kind, user=None, channel_id=None, **kwargs) -> None:
    ids = list(dict.fromkeys(claim_ids))  # once per claim, in the order read
    if not ids:
        return
    user_id = user.pk if user is not None and user.is_authenticated else None
    AccessRecord.objects.bulk_create(
        (AccessRecord(claim_id=claim_id, kind=kind, user_id=user_id, channel_id=channel_id)
         for claim_id in ids), batch_size=BATCH)
