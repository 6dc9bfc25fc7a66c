"""Shared by the access log's tests (LGPD art. 37): what was recorded, in a comparable
shape, and a member of the privacy role."""

from django.contrib.auth.models import Group, Permission

from privacy import roles as privacy_roles
from privacy.models import AccessRecord
from tests.support.lifecycle import logged_in, staff


def recorded(**filters) -> list[tuple]:
    """(claim number, kind, username or None, channel name or None), oldest first."""
    return [(r.claim.number, r.kind, r.user.username if r.user_id else None,
             r.channel.name if r.channel_id else None)
            for r in AccessRecord.objects.filter(**filters).select_related(
                "claim", "user", "channel").order_by("at", "id")]


def privacy_officer(username: str = "paula"):
    """A client logged in as a member of "Privacidade" (and nothing else)."""
    if not Group.objects.filter(name=privacy_roles.PRIVACY,
                                permissions__content_type__app_label="privacy").exists():
        privacy_roles.sync_roles(Group, Permission)  # a transactional test flushed it
    user = staff(username, None)
    user.last_name = "Moreira"
    user.save(update_fields=["last_name"])
    user.groups.add(Group.objects.get(name=privacy_roles.PRIVACY))
    return logged_in(user)
