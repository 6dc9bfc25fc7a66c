"""Placeholder for the requests work (filled by whoever builds it)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("privacy", "0003_forgetting")]

    operations = []
