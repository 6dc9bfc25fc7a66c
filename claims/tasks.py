"""Celery tasks: thin wrappers that call services. Retries live here; rules do not."""

from botocore.exceptions import BotoCoreError, ClientError
from celery import shared_task

from claims import services
from claims.services import consequences


@shared_task(acks_late=True, ignore_result=True)
def sweep_pending_uploads() -> None:
    """Periodic (see CELERY_BEAT_SCHEDULE): notice S3 uploads whose bucket
    notification was lost, and expire links that ran out with nothing stored."""
    services.sweep_pending_uploads()


@shared_task(
    acks_late=True, ignore_result=True, autoretry_for=(BotoCoreError, ClientError, OSError),
    retry_backoff=True, max_retries=5,
)
def confirm_uploads(keys: list[str]) -> None:
    """Bucket notifications are acknowledged at once and checked here."""
    services.confirm_uploads_by_key(keys=keys)


@shared_task(
    bind=True, acks_late=True, ignore_result=True,
    autoretry_for=(BotoCoreError, ClientError), retry_backoff=True, max_retries=5,
)
def read_document(self, file_id: str) -> None:
    """Read a received file (docs/document-readings.md). Idempotent; when another worker
    holds the reading, look again once its lease has run out."""
    outcome = services.read_document(file_id=file_id)
    if outcome == services.ReadingOutcome.BUSY:
        raise self.retry(countdown=services.READING_LEASE.total_seconds(), max_retries=3)


@shared_task(acks_late=True, ignore_result=True)
def sweep_pending_readings() -> None:
    """Periodic (see CELERY_BEAT_SCHEDULE): send again the readings whose enqueue was
    lost (broker down) or whose worker died."""
    services.sweep_pending_readings()


@shared_task(acks_late=True, ignore_result=True)
def run_move_consequences(claim_id: str) -> int:
    """After a move commits: the claim's consequences (letters, SRO submissions), in the
    order of its moves (claims.services.consequences)."""
    return consequences.run_claim(claim_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep_move_consequences() -> dict:
    """Periodic (see CELERY_BEAT_SCHEDULE): the consequences a down broker or a crashed
    worker left, and the failed ones due again."""
    return consequences.sweep()
