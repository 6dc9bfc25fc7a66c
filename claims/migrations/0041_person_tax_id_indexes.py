"""A person's claims by CPF (the access report of who read their data, LGPD art. 37;
also a CPF's legal holds and a person's requests): the requester's, the beneficiaries',
their representatives' and the payees' tax ids, indexed. Without them a lookup by CPF
read every claim (90 ms at 100,000 claims; docs/privacy-access.md). Built
``CONCURRENTLY`` on PostgreSQL (writes go on)."""

from django.db import migrations, models
from django.db.models import Q

from claims.migration_operations import AddIndexLive


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("claims", "0040_claim_closed_at")]

    operations = [
        AddIndexLive(model_name="claim", index=models.Index(
            fields=["requester_tax_id"], name="claim_requester_tax_id",
            condition=~Q(requester_tax_id=""))),
        AddIndexLive(model_name="beneficiary", index=models.Index(
            fields=["tax_id"], name="beneficiary_tax_id")),
        AddIndexLive(model_name="beneficiary", index=models.Index(
            fields=["representative_tax_id"], name="beneficiary_representative",
            condition=~Q(representative_tax_id=""))),
        AddIndexLive(model_name="payment", index=models.Index(
            fields=["beneficiary_tax_id"], name="payment_payee_tax_id")),
    ]
