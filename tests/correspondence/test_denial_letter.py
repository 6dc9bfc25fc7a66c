"""A denial tells the people of the claim why, on which clause, on which documents, and
what they can do about it; its receipt is on record."""

import pytest

from correspondence import sending
from correspondence.models import Message
from tests.support.factories import BeneficiaryFactory
from tests.support.lifecycle import acted, claim_under_review

pytestmark = pytest.mark.django_db

DENIAL = {"code": "1", "clause": "Cláusula 7.1 das Condições Gerais",
          "reason": "A morte decorreu de doença preexistente declarada como inexistente.",
          "internal_note": "Laudo do perito Dr. X, não mostrar ao segurado."}


@pytest.fixture
def denied(api, sale, supervisor, smtp):
    claim = claim_under_review(api, sale)
    BeneficiaryFactory(claim=claim, name="Joana Herdeira", email="joana@example.com",
                       tax_id="39053344705")
    Message.objects.all().delete()
    claim = acted(supervisor, claim, "recusar", DENIAL)
    for pk in Message.objects.values_list("pk", flat=True):
        assert sending.send(pk) == "sent"
    return claim


def test_the_denial_letter_states_reason_clause_grounds_and_rights(denied, smtp):
    mail = next(m for m in smtp.received if m.envelope_to == ["pedro@example.com"])
    assert "decisão sobre a cobertura" in mail.subject
    for text in (mail.text(), mail.pdf_text()):
        flat = " ".join(text.split())
        assert "Risco excluído" in flat
        assert "Cláusula 7.1 das Condições Gerais" in flat
        assert "doença preexistente" in flat
        assert "Certidão de óbito" in flat  # a document the decision rested on
        assert "reconsideração" in flat.lower() or "Reconsideração" in flat
        assert "Ouvidoria" in flat and "SUSEP" in flat
        assert "art. 126" in flat
        assert "Laudo do perito" not in flat  # the internal note stays internal


def test_each_beneficiary_with_an_email_gets_the_denial_too(denied, smtp):
    assert sorted(m.envelope_to[0] for m in smtp.received) == [
        "joana@example.com", "pedro@example.com"]


def test_the_denial_receipt_is_the_moment_the_server_accepted_it(denied):
    letter = Message.objects.filter(claim=denied, letter="recusa").first()
    assert letter.received_at == letter.sent_at is not None
