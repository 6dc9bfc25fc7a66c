from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_immutable_movements_and_finance_role")]

    operations = []
