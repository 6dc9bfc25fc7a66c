"""Migration 0020 on a database with decided claims: each gets ``decided_late_days``
from its history up to its first decision, as the services now compute it."""

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from oauth2_provider.models import Application

from tests.support.migrations import migrate, to_the_newest

BEFORE = [("claims", "0019_reasoned_denial")]
AFTER = [("claims", "0020_decided_late_days")]
SP = dt.timezone(dt.timedelta(hours=-3))


@pytest.mark.django_db(transaction=True)
def test_decided_claims_get_their_lateness_from_their_history(settings):
    settings.TIME_ZONE = "America/Sao_Paulo"
    old = migrate(BEFORE)
    Channel, Sale, Coverage, Claim, ClaimHistory = (old.get_model("claims", name) for name in (
        "Channel", "Sale", "Coverage", "Claim", "ClaimHistory"))
    application = Application.objects.create(
        client_id="c", client_secret="s", client_type="confidential",
        authorization_grant_type="client-credentials", name="c")
    channel = Channel.objects.create(name="Canal", slug="canal", application_id=application.pk)
    sale = Sale.objects.create(
        id=uuid.uuid4(), channel=channel, proposal_id=uuid.uuid4(), product_combo_id=uuid.uuid4(),
        status="ativa", insured_name="Maria", insured_cpf="52998224725",
        valid_from=dt.date(2025, 1, 1), valid_until=dt.date(2030, 1, 1),
        max_guarantee=Decimal("1000000"))
    start = dt.datetime(2026, 9, 1, 10, tzinfo=SP)

    def claim(coverage, status, steps, decided_at=None):
        made = Claim.objects.create(
            sale=sale, coverage=Coverage.objects.create(sale=sale, name=coverage,
                                                        max_indemnity=Decimal("50000")),
            status=status, amount=Decimal("20000"), occurred_at=start, notified_at=start,
            requester_name="Pedro", contact_name="Pedro", number=f"SIN-{uuid.uuid4().hex[:12]}",
            decided_at=decided_at)
        for day, action, to_status in steps:
            ClaimHistory.objects.create(claim=made, action=action, to_status=to_status,
                                        actor="x", created_at=start + dt.timedelta(days=day))
        return made

    # Documentation complete on day 2: deadline day 32; approved on day 40 -> 8 days late,
    # whatever came after (a reopening, a late denial) does not count.
    late = claim("cobertura/morte", "recusado", [
        (0, "abrir", "pendente-de-documentacao"),
        (2, "completar-documentacao", "documentacao-em-analise"),
        (40, "aprovar-documentacao", "em-regulacao"),
        (50, "finalizar", "finalizado"), (51, "reabrir", "em-regulacao"),
        (100, "recusar", "recusado")], decided_at=start + dt.timedelta(days=40))
    # Denied on day 20 of a clock started at opening: in time.
    in_time = claim("cobertura/invalidez-permanente", "recusado", [
        (0, "abrir", "criado"), (20, "recusar", "recusado")],
        decided_at=start + dt.timedelta(days=20))
    # The clock paused by a request for documents on day 10: never late, however long.
    paused = claim("cobertura/perda-de-renda", "recusado", [
        (0, "abrir", "criado"), (10, "solicitar-documentos", "pendente-de-documentacao"),
        (80, "recusar", "recusado")], decided_at=start + dt.timedelta(days=80))
    undecided = claim("cobertura/doenca-grave", "em-regulacao", [(0, "abrir", "criado")])

    new = migrate(AFTER)
    Claim = new.get_model("claims", "Claim")

    lateness = dict(Claim.objects.values_list("id", "decided_late_days"))
    assert lateness == {late.pk: 8, in_time.pk: 0, paused.pk: 0, undecided.pk: None}
    to_the_newest()
