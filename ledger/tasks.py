"""The close's long step in a worker: the page freezes the month in its request, a worker
writes the reports and the entries (minutes at a million claims, past any web timeout)."""

from celery import shared_task
from django.contrib.auth import get_user_model

from ledger.errors import CloseRefused
from ledger.models import MonthClose
from ledger.services import closing


@shared_task(name="ledger.tasks.finish_close", ignore_result=True)
def finish_close(close_id: int, user_id: int | None, actor: str) -> str:
    """Finish a frozen close. Safe to run twice at once or again after a worker died
    (the tasks are acknowledged late): the close's row lock lets one finish, and a
    CLOSED month is left as it is. A refusal (entries that do not reconcile) is kept on
    the close, FROZEN, for its page to show."""
    close = MonthClose.objects.get(pk=close_id)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    try:
        return closing.close_month(close.month, user=user, actor=actor).status
    except CloseRefused:
        return MonthClose.Status.FROZEN
