"""Supervisors see the webhook subscriptions and deliveries, re-enable a subscription,
send a ping and redeliver (admin actions); analysts do not."""

from django.db import migrations

from claims.migration_operations import create_permissions_now
from claims.roles import SUPERVISOR

CODENAMES = ["view_subscription", "change_subscription", "view_delivery", "change_delivery",
             "view_deliveryattempt"]


def grant(apps, schema_editor):
    create_permissions_now(apps)
    group = apps.get_model("auth", "Group").objects.filter(name=SUPERVISOR).first()
    if group is not None:
        group.permissions.add(*apps.get_model("auth", "Permission").objects.filter(
            content_type__app_label="webhooks", codename__in=CODENAMES))


class Migration(migrations.Migration):
    dependencies = [
        ("webhooks", "0001_subscriptions_and_deliveries"),
        ("claims", "0006_claims_roles"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
