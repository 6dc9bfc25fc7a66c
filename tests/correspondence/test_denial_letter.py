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


def test_the_person_reads_the_letters_on_the_hosted_pages_and_the_denial_counts_as_received(
        api, sale, supervisor, channel):
    from correspondence.models import ChannelLetters
    from tests.support.hosted import generate_link, open_session

    ChannelLetters.objects.create(channel=channel, channel_tells_insured=True)  # no e-mail
    claim = claim_under_review(api, sale)
    claim = acted(supervisor, claim, "recusar", DENIAL)
    denial = Message.objects.get(claim=claim, letter="recusa")
    assert denial.received_at is None  # nothing e-mailed: no proof yet

    person = open_session(generate_link(api, sale)["url"])
    page = person.get(f"/segurado/sinistros/{claim.number}").content.decode()

    assert "Cartas" in page and "Recusa fundamentada" in page
    denial.refresh_from_db()
    first_reading = denial.read_at
    assert first_reading is not None and denial.received_at == first_reading

    letter = person.get(f"/segurado/sinistros/{claim.number}/cartas/{denial.pk}")
    assert letter.status_code == 200
    assert "Cláusula 7.1 das Condições Gerais" in letter.content.decode()
    assert "Laudo do perito" not in letter.content.decode()
    pdf = person.get(f"/segurado/sinistros/{claim.number}/cartas/{denial.pk}.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    denial.refresh_from_db()
    assert denial.read_at == first_reading  # only the first reading counts


def test_a_letter_of_another_sales_claim_is_not_found_on_the_hosted_pages(
        api, sale, supervisor):
    from tests.support.factories import ClaimFactory
    from tests.support.hosted import generate_link, open_session

    other = ClaimFactory()
    stranger = Message.objects.create(
        claim=other, channel=other.sale.channel, letter="recusa", role="contato",
        recipient_name="X", subject="s", body_html="<p>x</p>", body_text="x",
        attachment_name="x.pdf")
    claim = claim_under_review(api, sale)
    person = open_session(generate_link(api, sale)["url"])

    response = person.get(f"/segurado/sinistros/{claim.number}/cartas/{stranger.pk}")

    assert response.status_code == 404


def test_the_claim_page_says_when_the_denial_was_received(denied, analyst):
    page = analyst.get(f"/admin/claims/claim/{denied.pk}/change/").content.decode()

    assert "Recusa recebida em" in page
