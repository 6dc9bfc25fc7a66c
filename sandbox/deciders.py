"""Who decides in the sandbox: two users of the supervisors' role that no person logs in
as (no password, no admin access). Two, because a denial's reconsideration is answered
by someone who took no part in the denial, as in production."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction

from claims import roles

REGULATOR = ("sandbox-regulador", "Regulador do sandbox")
REVIEWER = ("sandbox-revisor", "Revisor do sandbox")


def decider(which: tuple[str, str]):
    """The user, made the first time it is needed (by whichever request comes first)."""
    username, name = which
    users = get_user_model().objects
    user = users.filter(username=username).first()
    if user is not None:
        return user
    try:
        with transaction.atomic():
            user = users.create(username=username, first_name=name, is_staff=False,
                                is_active=True)
            user.set_unusable_password()
            user.save(update_fields=["password"])
            user.groups.add(Group.objects.get(name=roles.SUPERVISOR))
    except IntegrityError:  # another request made it first
        return users.get(username=username)
    return user
