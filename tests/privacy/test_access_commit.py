"""The access record's own commit (LGPD art. 37, docs/privacy-access.md "What a crash can
lose"): an API read outside any transaction commits its record without waiting for
PostgreSQL's WAL flush, and only that commit; a record written inside a caller's
transaction (an admin page, a move) leaves the caller's commit as durable as it was.
Real transactions on PostgreSQL: the test's own wrapping transaction would hide both."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from privacy import access
from privacy.models import AccessRecord
from tests.privacy.access_support import recorded
from tests.support.concurrency import postgres_only
from tests.support.factories import ClaimFactory

pytestmark = [pytest.mark.django_db(transaction=True), postgres_only]

ASYNC_COMMIT = "SET LOCAL synchronous_commit = off"


def synchronous_commit() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


def test_an_api_read_commits_its_record_without_waiting_for_the_disk(api, channel, sale):
    claim = ClaimFactory(sale=sale, channel=channel)

    with CaptureQueriesContext(connection) as context:
        assert api.get(f"/api/v1/sinistros/{claim.number}").status_code == 200

    statements = [query["sql"] for query in context.captured_queries]
    assert ASYNC_COMMIT in statements
    # Set for the record's transaction alone, right before its INSERT.
    insert = next(i for i, sql in enumerate(statements)
                  if sql.startswith('INSERT INTO "privacy_accessrecord"'))
    assert statements[insert - 1] == ASYNC_COMMIT
    assert recorded() == [(claim.number, "api", None, channel.name)]
    # Committed, and the connection's own setting untouched for what comes next.
    assert not connection.in_atomic_block
    assert synchronous_commit() == "on"


def test_a_record_inside_a_callers_transaction_keeps_its_commit_durable(db):
    claim = ClaimFactory()

    with CaptureQueriesContext(connection) as context, transaction.atomic():
        access.record(claim_ids=[claim.pk], kind="pagina")
        # What the caller's commit will do: wait for the disk, as it would have.
        assert synchronous_commit() == "on"

    assert ASYNC_COMMIT not in [query["sql"] for query in context.captured_queries]
    assert AccessRecord.objects.filter(claim=claim).count() == 1


def test_the_setting_makes_every_record_wait_for_the_disk(api, channel, sale, settings):
    settings.ACCESS_RECORD_COMMIT_WAITS = True
    claim = ClaimFactory(sale=sale, channel=channel)

    with CaptureQueriesContext(connection) as context:
        assert api.get(f"/api/v1/sinistros/{claim.number}").status_code == 200

    assert ASYNC_COMMIT not in [query["sql"] for query in context.captured_queries]
    assert recorded() == [(claim.number, "api", None, channel.name)]


def test_a_record_that_cannot_be_written_still_fails_the_read(api, channel, sale):
    claim = ClaimFactory(sale=sale, channel=channel)
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE privacy_accessrecord ADD CONSTRAINT refuse_all "
                       "CHECK (false) NOT VALID")
    try:
        response = api.get(f"/api/v1/sinistros/{claim.number}")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE privacy_accessrecord DROP CONSTRAINT refuse_all")

    # A reading that leaves no trace does not happen: the claim is not sent.
    assert response.status_code >= 500
    assert claim.number not in response.content.decode()
    assert AccessRecord.objects.count() == 0
