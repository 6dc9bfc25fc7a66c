"""The kill switch: stops the rules acting for a coverage, a channel, or both, at once;
they go on recording what they would decide, as in shadow."""

from django.db import transaction
from django.utils import timezone

from decisions.errors import RulesNotAllowed
from decisions.models import KillSwitch

SWITCH = "decisions.switch_rules"


@transaction.atomic
def switch_off(*, user, reason: str, coverage_name: str = "", channel=None) -> KillSwitch:
    if not user.has_perm(SWITCH):
        raise RulesNotAllowed("Somente supervisores desligam as regras.")
    if not reason.strip():
        raise RulesNotAllowed("Diga por que as regras são desligadas.")
    return KillSwitch.objects.create(coverage_name=coverage_name, channel=channel,
                                     reason=reason.strip(), created_by=user)


@transaction.atomic
def lift(*, switch_id, user) -> KillSwitch:
    if not user.has_perm(SWITCH):
        raise RulesNotAllowed("Somente supervisores religam as regras.")
    switch = KillSwitch.objects.select_for_update().get(pk=switch_id)
    if switch.lifted_at is None:
        switch.lifted_by, switch.lifted_at = user, timezone.now()
        switch.save(update_fields=["lifted_by", "lifted_at"])
    return switch
