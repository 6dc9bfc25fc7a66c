"""Migration 0033 on a database that already has claims: each gets its sale's channel,
the column ends ``NOT NULL``, and on PostgreSQL the database refuses a claim whose
channel is not its sale's."""

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from oauth2_provider.models import Application

from tests.support.concurrency import postgres_only
from tests.support.migrations import migrate, to_the_newest

BEFORE = [("claims", "0032_sale_search_indexes")]
AFTER = [("claims", "0033_claim_channel")]


def make_claims(apps) -> dict:
    Channel, Sale, Coverage, Claim = (apps.get_model("claims", name) for name in (
        "Channel", "Sale", "Coverage", "Claim"))
    now = timezone.now()
    made = {}
    for slug in ("banco", "varejo"):
        application = Application.objects.create(
            client_id=slug, client_secret="s", client_type="confidential",
            authorization_grant_type="client-credentials", name=slug)
        channel = Channel.objects.create(name=slug, slug=slug, application_id=application.pk)
        for _ in range(3):
            sale = Sale.objects.create(
                id=uuid.uuid4(), channel=channel, proposal_id=uuid.uuid4(),
                product_combo_id=uuid.uuid4(), status="ativa", insured_name="Maria",
                insured_cpf="52998224725", valid_from=dt.date(2025, 1, 1),
                valid_until=dt.date(2030, 1, 1), max_guarantee=Decimal("100000"))
            coverage = Coverage.objects.create(sale=sale, name="cobertura/morte",
                                               max_indemnity=Decimal("50000"))
            claim = Claim.objects.create(
                sale=sale, coverage=coverage, status="criado", amount=Decimal("100"),
                occurred_at=now, notified_at=now, requester_name="Pedro", contact_name="Pedro",
                number=f"SIN-{uuid.uuid4().hex[:12].upper()}")
            made[claim.pk] = channel.pk
    return made


@pytest.mark.django_db(transaction=True)
def test_every_claim_gets_its_sales_channel(monkeypatch):
    channels = make_claims(migrate(BEFORE))
    # Batches smaller than the table: the keyset walks several.
    monkeypatch.setattr(__import__("claims.migrations.0033_claim_channel",
                                   fromlist=["BATCH"]), "BATCH", 4)

    new = migrate(AFTER)

    Claim = new.get_model("claims", "Claim")
    assert dict(Claim.objects.values_list("pk", "channel_id")) == channels
    assert not Claim._meta.get_field("channel").null
    to_the_newest()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_postgresql_refuses_a_claim_whose_channel_is_not_its_sales():
    from claims.models import Channel, Claim

    make_claims(migrate(BEFORE))
    to_the_newest()
    claim = Claim.objects.select_related("sale").first()
    other = Channel.objects.exclude(pk=claim.sale.channel_id).get()

    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.filter(pk=claim.pk).update(channel=other)
        connection.check_constraints()  # the foreign key is deferred to the commit
    with pytest.raises(IntegrityError), transaction.atomic():
        claim.sale.__class__.objects.filter(pk=claim.sale_id).update(channel=other)
        connection.check_constraints()
    assert Claim.objects.get(pk=claim.pk).channel_id == claim.sale.channel_id
