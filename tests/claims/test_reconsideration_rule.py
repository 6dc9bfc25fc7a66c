"""After a kept denial, a new request for reconsideration needs a document received
since the answer, and one denial is reconsidered at most RECONSIDERATION_MAX_REQUESTS
times (docs/denials.md): in the service and through the API."""

import re

import pytest

from claims import errors, roles, services
from claims.models import Claim, DocumentFile, Reconsideration
from correspondence.models import Letter, Message
from tests.support.api import assert_problem
from tests.support.documents import PDF, put, upload_body
from tests.support.lifecycle import (
    DENIAL,
    acted,
    claim_under_review,
    logged_in,
    send_document,
    staff,
)

pytestmark = pytest.mark.usefixtures("local_media")


def url(claim) -> str:
    return f"/api/v1/sinistros/{claim.number}/reconsideracao"


@pytest.fixture
def denied(api, sale, supervisor):
    return acted(supervisor, claim_under_review(api, sale), "recusar",
                 {**DENIAL, "reason": "Doença preexistente não declarada."})


@pytest.fixture
def sofia(db):
    return staff("sofia", roles.SUPERVISOR)


def ask(claim, text="Discordo.") -> Reconsideration:
    return services.request_reconsideration(claim_id=claim.pk, role="segurado", text=text,
                                            actor="segurado:teste")


def keep(claim, sofia) -> None:
    services.keep_denial(claim_id=claim.pk, user=sofia, note="A exclusão se aplica.")


def test_after_a_kept_denial_the_same_request_without_news_is_refused(denied, sofia):
    ask(denied)
    keep(denied, sofia)

    with pytest.raises(errors.ReconsiderationNeedsNewDocuments):
        ask(denied, "Discordo de novo.")
    assert Reconsideration.objects.filter(claim=denied).count() == 1


def test_a_document_sent_after_the_answer_opens_a_new_request(api, denied, sofia):
    ask(denied)
    keep(denied, sofia)
    send_document(api, denied, "reconsideracao")

    second = ask(denied, "O laudo novo mostra outra causa.")

    assert second.status == "pendente"


def test_a_document_sent_before_the_answer_was_already_seen(api, denied, sofia):
    send_document(api, denied, "reconsideracao")  # went with the first request
    ask(denied)
    keep(denied, sofia)

    with pytest.raises(errors.ReconsiderationNeedsNewDocuments):
        ask(denied, "Discordo de novo.")


def test_a_refused_file_is_nothing_new(api, denied, sofia):
    ask(denied)
    keep(denied, sofia)
    sent = api.post(f"/api/v1/sinistros/{denied.number}/enviar-documento",
                    upload_body(file_name="laudo.pdf", tipo="reconsideracao"), format="json")
    put(sent.json()["url-envio"], b"not a pdf at all")
    assert DocumentFile.objects.get(claim=denied, doc_type="reconsideracao").status == "rejeitado"

    with pytest.raises(errors.ReconsiderationNeedsNewDocuments):
        ask(denied, "Discordo de novo.")


def test_a_denial_is_reconsidered_at_most_the_limit_even_with_new_documents(
        api, denied, sofia, settings):
    settings.RECONSIDERATION_MAX_REQUESTS = 2
    ask(denied)
    keep(denied, sofia)
    send_document(api, denied, "reconsideracao")
    ask(denied, "O laudo novo mostra outra causa.")
    keep(denied, sofia)
    send_document(api, denied, "reconsideracao")

    with pytest.raises(errors.ReconsiderationLimitReached):
        ask(denied, "Mais um laudo.")


def test_a_new_denial_after_a_reopening_starts_the_count_again(api, denied, sofia, supervisor):
    ask(denied)
    keep(denied, sofia)
    services.reopen(claim_id=denied.pk, user=sofia, reason="Revisão de ofício.")
    claim = acted(supervisor, Claim.objects.get(pk=denied.pk), "recusar",
                  {**DENIAL, "reason": "Outra exclusão."})

    assert ask(claim, "Discordo desta nova recusa.").status == "pendente"


def test_the_api_answers_the_rule_with_its_problems(api, denied, sofia, settings):
    settings.RECONSIDERATION_MAX_REQUESTS = 2
    assert api.post(url(denied), {"motivo": "Discordo."}, format="json").status_code == 201
    keep(denied, sofia)

    again = api.post(url(denied), {"motivo": "Discordo de novo."}, format="json")
    assert_problem(again, 422, "reconsideration-needs-new-documents")

    send_document(api, denied, "reconsideracao")
    assert api.post(url(denied), {"motivo": "Laudo novo."}, format="json").status_code == 201
    keep(denied, sofia)
    send_document(api, denied, "reconsideracao")
    assert_problem(api.post(url(denied), {"motivo": "Outro laudo."}, format="json"),
                   422, "reconsideration-limit-reached")


def test_the_supervisors_form_shows_the_documents_sent_with_the_request(api, denied, sofia):
    send_document(api, denied, "reconsideracao")
    ask(denied, "O laudo novo mostra outra causa.")
    supervisor = logged_in(sofia)

    for action in ("manter-recusa", "reabrir"):
        form = supervisor.get(f"/admin/claims/claim/{denied.pk}/acoes/{action}/")
        page = form.content.decode()
        assert "Documentos do pedido de reconsideração" in page, action
        link = re.search(r'<a href="([^"]+)"[^>]*>reconsideracao\.pdf</a>', page)
        assert link, action
        opened = supervisor.get(link.group(1))
        assert opened.status_code == 200
        assert b"".join(opened.streaming_content) == PDF


def test_a_request_without_documents_says_so_on_the_form(denied, sofia):
    ask(denied)

    page = logged_in(sofia).get(f"/admin/claims/claim/{denied.pk}/acoes/manter-recusa/")

    assert "Nenhum documento foi enviado com o pedido." in page.content.decode()


def test_the_kept_denial_letter_promises_only_what_the_rule_allows(api, denied, sofia, settings):
    settings.RECONSIDERATION_MAX_REQUESTS = 2
    ask(denied)
    keep(denied, sofia)
    first = Message.objects.filter(claim=denied, letter=Letter.DENIAL_KEPT).latest("created_at")
    text = " ".join(first.body_text.split())
    assert "só é aceito com pelo menos um documento novo, enviado depois desta resposta" in text
    assert "se quiser, novos documentos" not in text

    send_document(api, denied, "reconsideracao")
    ask(denied, "O laudo novo mostra outra causa.")
    keep(denied, sofia)
    last = Message.objects.filter(claim=denied, letter=Letter.DENIAL_KEPT).latest("created_at")
    text = " ".join(last.body_text.split())
    assert "já foi reconsiderada o número máximo de vezes" in text
    assert "pode pedir que a decisão seja revista" not in text
    assert "documento novo" not in text
