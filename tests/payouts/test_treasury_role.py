"""The "Tesouraria" role as its data migration leaves it, and what supervisors and
analysts get of money out."""

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import Group

from claims import roles as claims_roles
from payouts import roles

pytestmark = pytest.mark.django_db
migration = importlib.import_module("payouts.migrations.0002_treasury_role")


def payouts_codenames(name: str) -> set[str]:
    return set(Group.objects.get(name=name).permissions.filter(
        content_type__app_label="payouts").values_list("codename", flat=True))


def test_the_migration_creates_the_treasury_role_and_lets_supervisors_see_orders():
    Group.objects.filter(name=roles.TREASURY).delete()
    Group.objects.get(name=claims_roles.SUPERVISOR).permissions.clear()

    migration.grant(apps, None)

    assert payouts_codenames(roles.TREASURY) == {
        "treasury", "view_payingaccount", "view_paymentorder", "view_remittance",
        "view_remittanceline", "view_remittancedownload", "view_bankreturn",
        "view_returnline", "add_payingaccount", "change_payingaccount"}
    assert payouts_codenames(claims_roles.SUPERVISOR) == {"view_paymentorder"}
    assert payouts_codenames(claims_roles.ANALYST) == set()


def test_running_it_again_converges_a_role_edited_by_hand():
    treasury = Group.objects.get(name=roles.TREASURY)
    treasury.permissions.remove(*treasury.permissions.filter(codename="treasury"))
    supervisors = Group.objects.get(name=claims_roles.SUPERVISOR)
    supervisors.permissions.add(*Group.objects.get(name=roles.TREASURY).permissions.filter(
        codename="view_remittance"))

    migration.grant(apps, None)

    assert "treasury" in payouts_codenames(roles.TREASURY)
    assert payouts_codenames(claims_roles.SUPERVISOR) == {"view_paymentorder"}
