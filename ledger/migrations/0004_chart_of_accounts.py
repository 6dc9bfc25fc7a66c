from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("ledger", "0003_rebuild_history")]

    operations = []
