"""Correcting a fact the claim was opened with: the occurrence date, when the documents
show another day (a death certificate's). The claim keeps its status and clock; the
registradora hears it as a rectification (sro, docs/sro.md)."""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from claims import errors
from claims.models import Claim
from claims.services.moves import actor_for, lock_claim, move, require_action_permission
from claims.services.recording import record_move
from claims.workflow import Action


@transaction.atomic
def correct_occurrence_date(*, claim_id, user, occurred_on: dt.date, reason: str,
                            expected_version: int | None = None) -> Claim:
    require_action_permission(user, Action.CORRECT_OCCURRENCE,
                              "Somente analistas e supervisores corrigem sinistros.")
    reason = reason.strip()
    if not reason:
        raise errors.CorrectionNotAllowed("Diga por que a data da ocorrência muda "
                                          "(o documento que a mostra).")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    from_status = move(claim, Action.CORRECT_OCCURRENCE)
    before = timezone.localtime(claim.occurred_at)
    if occurred_on == before.date():
        raise errors.CorrectionNotAllowed("A data informada é a que o sinistro já tem.")
    if occurred_on > timezone.localdate(claim.notified_at):
        raise errors.CorrectionNotAllowed("A ocorrência não pode ser posterior ao aviso "
                                          f"({timezone.localdate(claim.notified_at):%d/%m/%Y}).")
    if not claim.sale.covers(occurred_on):
        raise errors.OccurrenceOutsideValidity(
            f"A ocorrência ({occurred_on:%d/%m/%Y}) está fora da vigência da venda "
            f"({claim.sale.valid_from:%d/%m/%Y} a {claim.sale.valid_until:%d/%m/%Y}).")
    # The same local time of day on the corrected day: only the date was wrong.
    claim.occurred_at = before.replace(year=occurred_on.year, month=occurred_on.month,
                                       day=occurred_on.day)
    record_move(claim, action=Action.CORRECT_OCCURRENCE, from_status=from_status,
           actor=actor_for(user), user=user, changed=("occurred_at",),
           note=f"Data da ocorrência {before:%d/%m/%Y} → {occurred_on:%d/%m/%Y}. {reason}")
    return claim
