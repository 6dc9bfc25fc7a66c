"""What a reasoned denial says (Lei 15.040/2024, art. 86): the SUSEP reason code, the
policy clause it rests on, the text the insured person reads, and, when the decision
came after the art. 86 deadline, the legal justification for denying anyway.

The fields live on the claim (``denial_code``, ``denial_clause``, ``denial_reason``,
``denial_late_justification``); ``claims.services.closing.deny`` writes them and
``reopen`` clears them. The ``correspondence`` app reads them for the denial letter.
"""

from django.db import models
from django.utils import timezone

from claims.regulatory_clock import ClockKind


class DenialCode(models.IntegerChoices):
    """The SUSEP registration domain of denial reasons (the numbers are the register's)."""

    EXCLUDED_RISK = 1, "Risco excluído"
    AGGRAVATED_RISK = 2, "Risco agravado"
    NO_DOCUMENTS = 3, "Sem documentação"
    INCOMPLETE_DOCUMENTS = 4, "Documentação incompleta"
    TIME_BARRED = 5, "Prescrição"
    OUTSIDE_VALIDITY = 6, "Fora do período de vigência"
    NOT_COVERED = 7, "Risco não coberto"
    OTHER = 99, "Outros"


def decision_days_late(claim, *, today=None) -> int:
    """Whole calendar days (local time) by which the decision deadline of ``claim``'s
    stored clock has passed on ``today`` (0 when not passed, paused, or no decision
    clock). The same rule as ``decided_late_days`` (claims.services.common)."""
    if claim.clock_kind != ClockKind.DECISION or claim.clock_paused or \
            claim.clock_deadline is None:
        return 0
    today = today or timezone.localdate()
    return max((today - timezone.localdate(claim.clock_deadline)).days, 0)
