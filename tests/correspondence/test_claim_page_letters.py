"""The analyst sees a claim's letters on its page and in its timeline, previews and sends
the hosted link, reminds of documents, and resends a letter."""

import pytest
from django.contrib.auth.models import Permission

from correspondence import sending
from correspondence.models import Message
from tests.support.factories import DocumentRequirementFactory
from tests.support.lifecycle import logged_in, open_claim, staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def claim(api, sale):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    return open_claim(api, sale)


def test_the_claim_page_shows_each_letter_where_it_stands_and_in_the_timeline(
        claim, analyst, smtp):
    sending.send(Message.objects.get(claim=claim).pk)

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "Correspondência" in page
    assert "Aviso recebido" in page
    assert "Enviada para pedro@example.com em" in page
    assert "Carta “Aviso recebido” para Pedro da Silva" in page  # the timeline's row


def test_a_letter_opens_as_it_was_written_and_as_a_pdf(claim, analyst):
    message = Message.objects.get(claim=claim)

    letter = analyst.get(f"/admin/correspondence/message/{message.pk}/ver/")
    pdf = analyst.get(f"/admin/correspondence/message/{message.pk}/pdf/")

    assert letter.status_code == 200 and claim.number in letter.content.decode()
    assert "sandbox" in letter["Content-Security-Policy"]
    assert "%%" not in letter.content.decode()
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"


def test_the_analyst_previews_the_hosted_link_letter_then_sends_it(claim, analyst, smtp):
    url = f"/admin/correspondence/message/sinistro/{claim.pk}/enviar/link-segurado/"
    form = analyst.get(url)
    assert 'value="pedro@example.com"' in form.content.decode()

    preview = analyst.post(url, {"email": "joana@example.com", "note": "Conforme conversamos.",
                                 "pre-visualizar": "1"})
    assert preview.status_code == 200
    body = preview.content.decode()
    assert "Acompanhe o seu sinistro" in body and "Conforme conversamos." in body
    assert Message.objects.filter(claim=claim, letter="link-segurado").count() == 0

    sent = analyst.post(url, {"email": "joana@example.com", "note": "Conforme conversamos.",
                              "enviar": "1"})
    assert sent.status_code == 302
    message = Message.objects.get(claim=claim, letter="link-segurado")
    assert (message.recipient_email, message.created_by.username) == ("joana@example.com", "ana")
    assert sending.send(message.pk) == "sent"
    mail = smtp.received[-1]
    assert mail.envelope_to == ["joana@example.com"]
    assert "/segurado/acesso/" in mail.text()


def test_a_reminder_lists_the_documents_still_missing(claim, analyst, smtp):
    url = f"/admin/correspondence/message/sinistro/{claim.pk}/enviar/lembrete-documentos/"

    analyst.post(url, {"email": "pedro@example.com", "enviar": "1"})

    message = Message.objects.get(claim=claim, letter="lembrete-documentos")
    assert "Certidão de óbito" in message.body_text
    sending.send(message.pk)
    assert "lembrete" in smtp.received[-1].subject


def test_a_failed_letter_is_resent_to_another_address_and_the_original_stays(
        claim, analyst, smtp, settings):
    settings.EMAIL_MAX_ATTEMPTS = 1
    smtp.handler.refuse_next = 1
    original = Message.objects.get(claim=claim)
    assert sending.send(original.pk) == "failed"
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert ("Não enviada para pedro@example.com: o servidor de e-mail recusou a mensagem "
            "(SMTPDataError") in page and "451" in page

    response = analyst.post(f"/admin/correspondence/message/{original.pk}/reenviar/",
                            {"email": "pedro.novo@example.com"})

    assert response.status_code == 302
    copy = Message.objects.get(resent_from=original)
    assert copy.body_html == original.body_html
    assert sending.send(copy.pk) == "sent"
    original.refresh_from_db()
    assert original.status == "falhou"
    assert smtp.received[-1].envelope_to == ["pedro.novo@example.com"]


def test_someone_who_cannot_work_claims_cannot_send_letters(claim, db):
    reader = logged_in(staff("leitor", None))
    reader.user.user_permissions.add(*Permission.objects.filter(
        codename__in=["view_claim", "view_message"]))

    response = reader.post(
        f"/admin/correspondence/message/sinistro/{claim.pk}/enviar/link-segurado/",
        {"email": "x@example.com", "enviar": "1"})

    assert response.status_code == 403
    assert not Message.objects.filter(letter="link-segurado").exists()


def test_the_chase_documents_task_sends_the_reminder_and_is_done_by_it(claim, analyst, smtp):
    from workbench.models import ToDo

    task = ToDo.objects.create(claim=claim, kind=ToDo.Kind.CHASE_DOCUMENTS,
                               subject="Cobrar documentos", due_on=claim.notified_at.date())
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    url = (f"/admin/correspondence/message/sinistro/{claim.pk}/enviar/lembrete-documentos/"
           f"?tarefa={task.pk}")
    assert f'href="{url}"' in page and "Enviar lembrete" in page

    analyst.post(url, {"email": "pedro@example.com", "enviar": "1"})

    task.refresh_from_db()
    assert task.status == "concluida"
    assert Message.objects.filter(claim=claim, letter="lembrete-documentos").exists()


def test_the_claim_page_query_count_does_not_grow_with_letters(analyst, db):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.support.factories import ClaimFactory

    def letters(claim, n):
        for i in range(n):
            Message.objects.create(
                claim=claim, channel=claim.sale.channel, letter="recusa", role="contato",
                recipient_name=f"P{i}", recipient_email=f"p{i}@example.com", subject="s",
                body_html="<p>x</p>", body_text="x", attachment_name="x.pdf",
                created_by=analyst.user, status="enviado", sent_at=claim.notified_at)

    def queries(claim) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert analyst.get(f"/admin/claims/claim/{claim.pk}/change/").status_code == 200
        return len(captured)

    small, big = ClaimFactory(), ClaimFactory()
    letters(small, 1), letters(big, 20)

    assert queries(big) == queries(small)


def test_with_the_channel_telling_the_insured_letters_are_not_resent_by_email(
        claim, analyst, channel):
    from correspondence.models import ChannelLetters

    ChannelLetters.objects.create(channel=channel, channel_tells_insured=True)
    message = Message.objects.get(claim=claim)

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    response = analyst.post(f"/admin/correspondence/message/{message.pk}/reenviar/",
                            {"email": "x@example.com"})

    assert "Reenviar</a>" not in page and "O canal comunica o segurado" in page
    assert response.status_code == 302
    assert Message.objects.filter(claim=claim).count() == 1


def test_with_the_channel_telling_the_insured_a_reminder_is_written_for_the_channel(
        claim, analyst, channel):
    from correspondence.models import ChannelLetters

    ChannelLetters.objects.create(channel=channel, channel_tells_insured=True)
    base = f"/admin/correspondence/message/sinistro/{claim.pk}/enviar/"
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    form = analyst.get(base + "lembrete-documentos/").content.decode()

    assert "Enviar lembrete de documentos" in page
    assert "Enviar link de acompanhamento" not in page  # the channel makes its own links
    assert 'name="email"' not in form and "Nada vai por e-mail" in form

    response = analyst.post(base + "lembrete-documentos/", {"enviar": "1"}, follow=True)

    assert "gerada e disponível ao canal" in response.content.decode()
    reminder = Message.objects.get(claim=claim, letter="lembrete-documentos")
    assert reminder.status == "com-o-canal"
    assert analyst.get(base + "link-segurado/").status_code == 302


def test_the_link_preview_says_where_the_link_will_be(claim, analyst):
    url = f"/admin/correspondence/message/sinistro/{claim.pk}/enviar/link-segurado/"

    preview = analyst.post(url, {"email": "pedro@example.com", "pre-visualizar": "1"})

    assert "[link pessoal do segurado, criado no envio]" in preview.content.decode()
