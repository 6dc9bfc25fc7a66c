"""What ``seed_demo`` adds for the books (``seed_demo``): the
demo's finance user, and every month of the demo's past closed in order, as she would
have closed them, so "Fechamentos mensais" has reports to read. Her password is public,
like the other demo users': seed_demo refuses production without --allow-production."""

from django.contrib.auth.models import Group, Permission, User
from django.db.models import Min
from django.utils import timezone

from ledger import calendar, roles
from ledger.errors import CloseRefused
from ledger.models import MonthClose, Movement
from ledger.services.closing import close_month

FINANCE_USER = ("financeiro", "financeiro-demo", "Fernanda")


def seed() -> None:
    user = finance_user()
    first = Movement.objects.aggregate(first=Min("booked_on"))["first"]
    if first is None:
        return
    month = calendar.first_of_month(first)
    this_month = calendar.first_of_month(timezone.localdate())
    while month < this_month:
        if not MonthClose.objects.filter(month=month, status=MonthClose.Status.CLOSED).exists():
            try:
                close_month(month, user=user, actor=f"usuario:{user.username}")
            except CloseRefused:
                # The demo's books are meant to reconcile: a refused close is kept (FROZEN,
                # its problems on its page) for finance to read, and the later months wait.
                return
        month = calendar.next_month(month)


def finance_user() -> User:
    username, password, first_name = FINANCE_USER
    roles.sync_roles(Group, Permission)
    user, created = User.objects.get_or_create(username=username, defaults={
        "first_name": first_name, "last_name": "(demonstração)", "is_staff": True})
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    user.groups.set([Group.objects.get(name=roles.FINANCE)])
    return user
