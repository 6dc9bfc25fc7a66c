"""Writes answer from what the service holds: statements per API call stay few and fixed.

Each limit below is the statements the call needs (the same on PostgreSQL and SQLite;
the savepoint pair is Django's nested atomic block):

- opening (14): the token; the sale row locked with the coverage; one aggregate for the
  coverage's open claim and the LMI/LMG used; the document requirements; the team of
  the most specific assignment rule, locked (none here); SAVEPOINT, the claim's INSERT
  (its regulatory clock, team and owner included), RELEASE (the unique index's last
  word on a race); the requested documents; the outbox event; the history row; the
  channels the insured person's CPF has claims through (claims.red_flags). A death
  claim names no beneficiary by itself. The answer is built from those objects:
  nothing is read back.
- opening routed to a team (17): those, plus the team's analysts with their open
  claims counted, the chosen analyst's round-robin mark, and the assignment's timeline
  row.
- saldo-devedor (12): the token; the sale row locked through its claim; the claim row
  locked with its coverage; its payments, beneficiaries, requested and received documents (what the
  answer shows, loaded once); the LMI/LMG used; the event (only when the value moved);
  the history row; what the claim now awaits (payments and proposals, one query); the
  claim's UPDATE. The clock is not recomputed: a balance update cannot change it.
- the upload PUT (local storage, the last pending document): the file read for the
  token's checks; the file row locked once; the request it answers; its UPDATE; the
  sale and claim locks; its pending reading's INSERT (read later, in a worker); the pending items with whether each is answered; the history
  before the step (the clock); the event; the history row; what the claim now awaits;
  the claim's UPDATE; its open automatic tasks ("Cobrar documentos" closes itself when
  the documents arrive: workbench.services.answered_todos).
Each move also writes its consequences' rows in one INSERT (the letter, the SRO
submission: docs/consequences.md); a worker renders and builds them after the commit, so
none of their statements are the request's.
Each also books what the move changed of the claim's money (ledger.booking, docs/ledger.md):
the booking's shared advisory lock (PostgreSQL only), one query for the reserve the
claim's movements sum to, its settled indemnity, its SUSEP codes and the first open month,
and the movements' INSERT when the move changed money (the opening's notice, the balance's
re-estimate; none for the upload).
Each limit is that plus, in the transaction, the NOTIFY that wakes the delivery engines
(PostgreSQL; none on SQLite: docs/webhooks.md, "Webhook delivery at scale").
"""

from urllib.parse import urlparse

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from claims import roles
from claims.models import Claim
from workbench.models import AssignmentRule, Team, TeamMember
from tests.support.documents import OPEN_BODY, PDF, upload_body
from tests.support.lifecycle import staff
from tests.support.factories import DocumentRequirementFactory

OPEN_LIMIT, ROUTED_OPEN_LIMIT, BALANCE_LIMIT, UPLOAD_LIMIT = 19, 22, 17, 18

# Real transactions, as in production: inside a test's own transaction every service's
# atomic block would add a SAVEPOINT and a RELEASE that production never runs.
# The moves' consequences (the letter, the SRO submission) go to the broker after the
# commit, as in production: none of their statements are the request's.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.consequences_after_commit]


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


@pytest.fixture
def requirements(db):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="cpf-cnpj",
                               title="CPF")


def statements(call):
    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code == 200, response.content
    # Transaction control is left out: how much of it Django logs differs between
    # backends (PostgreSQL's driver sends BEGIN unlogged; SQLite's shows).
    return response, [q["sql"] for q in captured.captured_queries
                      if q["sql"] not in ("BEGIN", "BEGIN IMMEDIATE", "COMMIT")]


def test_opening_a_claim_takes_a_fixed_number_of_statements(api, sale, requirements):
    response, sql = statements(lambda: api.post(
        f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY, format="json"))

    assert len(sql) <= OPEN_LIMIT, "\n".join(sql)
    body = response.json()
    assert body["status"] == "pendente-de-documentacao"
    assert [d["tipo"] for d in body["documentacao"]["documentos-pendentes"]] == [
        "certidao-de-obito", "cpf-cnpj"]
    # The answer built from objects in hand is the one a later read gives.
    assert api.get(f"/api/v1/sinistros/{body['numero-sinistro']}").json() == body


def test_opening_a_claim_routed_to_a_team_takes_a_fixed_number_of_statements(
        api, sale, requirements):
    team = Team.objects.create(name="Vida")
    AssignmentRule.objects.create(team=team)
    for name in ("ana", "bruno"):
        TeamMember.objects.create(team=team, user=staff(name, roles.ANALYST))

    response, sql = statements(lambda: api.post(
        f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY, format="json"))

    assert len(sql) <= ROUTED_OPEN_LIMIT, "\n".join(sql)
    assert Claim.objects.get(number=response.json()["numero-sinistro"]).owner.username == "ana"


def test_a_balance_update_takes_at_most_eighteen_statements(api, sale, requirements):
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro",
                      {**OPEN_BODY, "saldo-devedor": 15000}, format="json").json()["numero-sinistro"]

    response, sql = statements(lambda: api.post(
        f"/api/v1/sinistros/{number}/saldo-devedor", {"saldo-devedor": 14000}, format="json"))

    assert len(sql) <= BALANCE_LIMIT, "\n".join(sql)
    assert response.json()["valor"] == 14000
    assert api.get(f"/api/v1/sinistros/{number}").json() == response.json()


def test_an_upload_locks_its_file_row_once(api, sale, requirements):
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY,
                      format="json").json()["numero-sinistro"]
    for doc_type in ("cpf-cnpj", "certidao-de-obito"):  # the second completes the claim
        url = api.post(f"/api/v1/sinistros/{number}/enviar-documento",
                       upload_body(tipo=doc_type), format="json").json()["url-envio"]
        path = urlparse(url).path
        response, sql = statements(lambda path=path: APIClient().generic(
            "PUT", path, PDF, content_type="application/pdf"))

    file_locks = [s for s in sql if 'FROM "claims_documentfile"' in s and "FOR UPDATE" in s]
    if connection.vendor == "postgresql":  # SQLite has no row locks
        assert len(file_locks) == 1, "\n".join(sql)
    assert len(sql) <= UPLOAD_LIMIT, "\n".join(sql)
    assert api.get(f"/api/v1/sinistros/{number}").json()["status"] == "documentacao-em-analise"
