"""What ``seed_demo`` adds for the books: the demo's finance user (workbench.demo_workload's
``demo_seeded``). Her password is public, like the other demo users': seed_demo refuses
production without --allow-production."""

from django.contrib.auth.models import Group, Permission, User

from ledger import roles

FINANCE_USER = ("financeiro", "financeiro-demo", "Fernanda")


def seed(sender, **kwargs) -> None:
    username, password, first_name = FINANCE_USER
    roles.sync_roles(Group, Permission)
    user, created = User.objects.get_or_create(username=username, defaults={
        "first_name": first_name, "last_name": "(demonstração)", "is_staff": True})
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    user.groups.set([Group.objects.get(name=roles.FINANCE)])
