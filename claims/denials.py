"""What a reasoned denial says (Lei 15.040/2024, art. 86): the SUSEP reason code, the
policy clause it rests on, the text the insured person reads, and, when the decision
came after the art. 86 deadline, the legal justification for denying anyway.

The fields live on the claim (``denial_code``, ``denial_clause``, ``denial_reason``,
``denial_late_justification``); ``claims.services.closing.deny`` writes them and
``reopen`` clears them. The ``correspondence`` app reads them for the denial letter.
"""

from django.db import models
from django.utils import timezone

from claims.regulatory_clock import decision_days_late


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


def days_late_now(claim, *, now=None) -> int:
    """How many days past the art. 86 decision deadline a decision on ``claim`` taken
    ``now`` would be, from the clock stored on it (0: in time, paused or no decision
    clock). The rule ``record_move()`` applies to ``decided_late_days``."""
    return decision_days_late(kind=claim.clock_kind, deadline=claim.clock_deadline,
                              paused=claim.clock_paused, at=now or timezone.now())


def lateness_words(days: int | None) -> str:
    """``decided_late_days`` for analysts: "Decidido no prazo", "Decidido com 3 dias de
    atraso"; "" before the first decision."""
    if days is None:
        return ""
    if days == 0:
        return "Decidido no prazo"
    return f"Decidido com {days} dia{'s' if days != 1 else ''} de atraso"
