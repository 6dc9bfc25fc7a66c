"""The rules' jobs: thin; the services decide."""

import datetime as dt

from celery import shared_task
from django.utils import timezone

from decisions.services import evaluate as evaluation

READING_RETRY_SECONDS = 30


@shared_task(bind=True, acks_late=True, max_retries=None)
def evaluate_claim(self, claim_id: str, trigger: str):
    try:
        result = evaluation.evaluate_claim(claim_id=claim_id, trigger=trigger)
    except evaluation.ReadingsPending:
        # The documents are being read (documents_read will ask again); a slow reader
        # still gets its answer by this retry, up to the configured wait.
        raise self.retry(countdown=READING_RETRY_SECONDS) from None
    return None if result is None else result.pk


@shared_task
def sweep(limit: int = 500):
    """Claims the rules should have looked at and did not (a broker that was away, a
    worker that died): evaluated now."""
    since = timezone.now() - dt.timedelta(days=30)
    for claim_id in evaluation.unevaluated_claims(since=since, limit=limit):
        try:
            evaluation.evaluate_claim(claim_id=claim_id, trigger="documentos-completos")
        except evaluation.ReadingsPending:
            continue
