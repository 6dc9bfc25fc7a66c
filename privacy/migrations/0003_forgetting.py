"""Placeholder for the forgetting work (filled by whoever builds it)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("privacy", "0002_privacy_role")]

    operations = []
