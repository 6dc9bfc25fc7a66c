"""Placeholder for the access work (filled by whoever builds it)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("privacy", "0004_requests")]

    operations = []
