"""``create_permissions_now``: a data migration's way to have the models' permissions
before ``post_migrate`` makes them. Its callers pass the historical apps of a migration;
tests call a migration's function with the project's own registry."""

import pytest
from django.apps import apps as project_apps
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from claims.migration_operations import create_permissions_now


@pytest.mark.django_db(transaction=True)
def test_given_the_projects_registry_it_leaves_every_app_able_to_make_its_content_types():
    # Once, it set every app's models module to None: from then on, each flush between
    # transactional tests emptied the content types and the post_migrate after it made
    # none (Django skips an app without models), so later tests found roles with nothing
    # to grant.
    modules = {config.label: config.models_module for config in project_apps.get_app_configs()}

    create_permissions_now(project_apps)

    assert {config.label: config.models_module
            for config in project_apps.get_app_configs()} == modules
    call_command("flush", interactive=False, verbosity=0)
    assert ContentType.objects.count() == len(project_apps.get_models())
    assert Permission.objects.filter(codename="view_claim").exists()


@pytest.mark.django_db
def test_given_a_migrations_apps_it_makes_the_missing_permissions_now():
    Permission.objects.filter(content_type__app_label="payouts").delete()
    historical = MigrationExecutor(connection).loader.project_state(
        ("payouts", "0002_treasury_role")).apps

    create_permissions_now(historical)

    assert Permission.objects.filter(codename="view_paymentorder").exists()
    assert {getattr(config, "models_module", None)
            for config in historical.get_app_configs()} == {None}
