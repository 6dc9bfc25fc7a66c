"""Supervisors see the webhook subscriptions and deliveries, re-enable a subscription,
send a ping and redeliver (admin actions); analysts do not."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from claims.roles import SUPERVISOR

CODENAMES = ["view_subscription", "change_subscription", "view_delivery", "change_delivery",
             "view_deliveryattempt"]


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
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
