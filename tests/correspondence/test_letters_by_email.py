"""Letters reach people through a real SMTP server, with a PDF they can keep."""

import pytest

from correspondence import sending
from correspondence.models import Message
from tests.support.factories import DocumentRequirementFactory
from tests.support.lifecycle import acted, claim_under_review, open_claim

pytestmark = pytest.mark.django_db


def send_all() -> list[str]:
    return [sending.send(pk) for pk in Message.objects.filter(
        status=Message.Status.PENDING).order_by("created_at").values_list("pk", flat=True)]


def test_opening_a_claim_emails_the_contact_person_the_notice_with_its_pdf(api, sale, smtp):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    claim = open_claim(api, sale)

    assert send_all() == ["sent"]

    [mail] = smtp.received
    assert mail.envelope_to == ["pedro@example.com"]
    assert claim.number in mail.subject
    assert "recebemos o aviso" in mail.subject
    assert "Certidão de óbito" in mail.text()
    assert "Banco Exemplo" in mail.html()
    pdf = mail.pdf_text()
    assert claim.number in pdf
    assert "Certidão de óbito" in pdf
    assert mail.attachment_names() == [f"aviso-recebido-{claim.number}.pdf"]
    message = Message.objects.get(claim=claim)
    assert message.status == Message.Status.SENT
    assert message.sent_at is not None and message.attempts == 1
    assert mail.message_id == message.message_id


def test_the_notice_carries_a_fresh_link_to_the_hosted_pages_that_is_never_stored(
        api, sale, smtp):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    claim = open_claim(api, sale)
    send_all()

    [mail] = smtp.received
    assert "/segurado/acesso/" in mail.text()
    message = Message.objects.get(claim=claim)
    assert "/segurado/acesso/" not in message.body_html + message.body_text
    assert "/segurado/acesso/" not in mail.pdf_text()


def test_a_document_request_tells_each_document_and_why(api, sale, supervisor, smtp):
    claim = claim_under_review(api, sale)
    send_all()
    acted(supervisor, claim, "solicitar-documentos", {
        "new_type": "laudo-medico", "new_title": "Laudo médico",
        "note": "Para confirmar a causa da morte."})

    send_all()

    mail = smtp.received[-1]
    assert "documentos solicitados" in mail.subject
    body = mail.text()
    assert "Laudo médico" in body
    assert "Para confirmar a causa da morte." in body
    assert "suspende" in body or "começa" in body
    assert "Laudo médico" in mail.pdf_text()


def test_a_refusing_server_is_tried_again_then_the_message_is_marked_failed(
        api, sale, smtp, settings):
    settings.EMAIL_MAX_ATTEMPTS = 3
    settings.EMAIL_RETRY_SECONDS = 0
    smtp.handler.refuse_next = 10
    claim = open_claim(api, sale)
    message = Message.objects.get(claim=claim)

    outcomes = [sending.send(message.pk) for _ in range(3)]

    assert outcomes == ["retry-in-0", "retry-in-0", "failed"]
    message.refresh_from_db()
    assert message.status == Message.Status.FAILED
    assert message.attempts == 3
    assert "451" in message.last_error
    assert smtp.received == []


def test_a_message_refused_once_is_sent_on_the_next_try(api, sale, smtp, settings):
    settings.EMAIL_RETRY_SECONDS = 0
    smtp.handler.refuse_next = 1
    claim = open_claim(api, sale)
    message = Message.objects.get(claim=claim)

    assert sending.send(message.pk) == "retry-in-0"
    assert sending.send(message.pk) == "sent"
    assert sending.send(message.pk) == "not-taken"

    assert len(smtp.received) == 1
    message.refresh_from_db()
    assert (message.status, message.attempts, message.last_error) == ("enviado", 2, "")


def test_a_message_waits_out_its_retry_before_another_try(api, sale, smtp, settings):
    settings.EMAIL_RETRY_SECONDS = 300
    smtp.handler.refuse_next = 1
    claim = open_claim(api, sale)
    message = Message.objects.get(claim=claim)

    assert sending.send(message.pk) == "retry-in-300"
    assert sending.send(message.pk) == "not-taken"
    assert message.pk not in sending.due_messages()


def test_letters_carry_the_channels_brand_sender_and_reply_to(api, sale, channel, smtp):
    from whitelabel.models import HostedPages

    HostedPages.objects.create(channel=channel, display_name="Banco Azul",
                               primary_color="#003366", sender_name="Seguros do Banco Azul",
                               reply_to="sinistros@bancoazul.example")
    open_claim(api, sale)
    send_all()

    [mail] = smtp.received
    assert "Seguros do Banco Azul" in str(mail.message["From"])
    assert str(mail.message["Reply-To"]) == "sinistros@bancoazul.example"
    assert "#003366" in mail.html() and "Banco Azul" in mail.html()
    assert "Banco Azul" in mail.pdf_text()


def test_the_channels_own_paragraphs_are_plain_text_never_a_template(api, sale, channel, smtp):
    from correspondence.models import ChannelLetters, LetterText

    settings_row = ChannelLetters.objects.create(channel=channel)
    LetterText.objects.create(settings=settings_row, letter="aviso-recebido",
                              opening="Sentimos muito. {{ claim.sale.channel.application }}",
                              closing="<b>Conte conosco</b>")
    open_claim(api, sale)
    send_all()

    [mail] = smtp.received
    assert "Sentimos muito. {{ claim.sale.channel.application }}" in mail.text()
    assert "&lt;b&gt;Conte conosco&lt;/b&gt;" in mail.html()
    assert "Sentimos muito." in mail.pdf_text()


def test_the_document_request_letter_says_the_decision_count_is_suspended(
        api, sale, supervisor, smtp):
    claim = claim_under_review(api, sale)  # documents complete: the decision clock runs
    Message.objects.all().delete()

    acted(supervisor, claim, "solicitar-documentos", {
        "new_type": "laudo", "new_title": "Laudo", "note": "Para confirmar a causa."})

    claim.refresh_from_db()
    letter = Message.objects.get(claim=claim, letter="solicitacao-documentos")
    assert claim.clock_paused is True
    assert "suspende a contagem do prazo de decisão" in letter.body_text


def test_asking_for_documents_without_saying_why_is_refused(api, sale, analyst):
    from tests.support.lifecycle import act

    claim = claim_under_review(api, sale)

    response = act(analyst, claim, "solicitar-documentos", {"new_type": "laudo",
                                                              "new_title": "Laudo"})

    assert response.status_code == 200  # the form again, with the reason
    assert "Diga por que estes documentos são necessários" in response.content.decode()
    assert not Message.objects.filter(letter="solicitacao-documentos").exists()


def test_the_text_twin_names_each_link_once(api, sale, smtp):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    claim = open_claim(api, sale)
    send_all()

    [mail] = smtp.received
    text = mail.text()
    link = next(word for word in text.split() if "/segurado/acesso/" in word).rstrip(".")
    assert text.count(link) == 1
    letters = api.get(f"/api/v1/sinistros/{claim.number}/cartas").json()["cartas"]
    assert "(o seu link pessoal" not in letters[0]["texto"]
