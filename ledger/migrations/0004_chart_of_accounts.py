"""The chart of accounts and the accounting rules the entries are written under, as
shipped in ledger/data/chart_of_accounts.json (docs/ledger-entries.md)."""

from django.db import migrations


def load(apps, schema_editor):
    from ledger.accounting.chart import load_chart

    load_chart(apps.get_model("ledger", "Account"), apps.get_model("ledger", "AccountRule"))


class Migration(migrations.Migration):
    dependencies = [("ledger", "0003_rebuild_history")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
