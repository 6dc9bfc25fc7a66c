"""Analysts work documents and payment data in the admin: every action is a real form
posted over HTTP, each move writes its history row and its outbox event."""

import pytest

from claims.models import ClaimHistory, DocumentFile
from tests.support.lifecycle import (
    DENIAL,
    act,
    acted,
    claim_under_review,
    events_of,
    last_event,
    open_claim,
    page_messages,
    send_document,
)

pytestmark = pytest.mark.usefixtures("local_media")


def pending_types(api, claim) -> list[str]:
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    return [item["tipo"] for item in body["documentacao"]["documentos-pendentes"]]


def test_approving_the_documentation_moves_the_claim_to_regulation_and_clears_pending(
        analyst, api, sale):
    claim = claim_under_review(api, sale)
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert page.count("Arquivo recebido, aguardando análise") == 2

    claim = acted(analyst, claim, "aprovar-documentacao", {"note": "Tudo certo."})

    assert claim.status == "em-regulacao"
    assert pending_types(api, claim) == []
    event = last_event(claim)
    assert event.envelope()["evento"] == "sinistro-documentacao-aprovada"
    assert event.envelope()["versao"] == "1"
    assert event.envelope()["detalhes"] == {
        "id-combo-produto": str(sale.product_combo_id), "id-proposta": str(sale.proposal_id),
        "id-venda": str(sale.id), "numero-sinistro": claim.number,
    }
    row = ClaimHistory.objects.filter(claim=claim).latest("id")
    assert (row.action, row.from_status, row.to_status) == (
        "aprovar-documentacao", "documentacao-em-analise", "em-regulacao")
    assert row.user == analyst.user and row.event == event
    assert "Tudo certo." in row.note


def test_approving_can_ask_for_payment_data_at_once_with_both_events(analyst, api, sale):
    claim = claim_under_review(api, sale)

    claim = acted(analyst, claim, "aprovar-documentacao", {"request_payment_data": "on"})

    assert claim.status == "pendente-de-dados-de-pagamento"
    assert [e.name for e in events_of(claim)][-2:] == [
        "sinistro-documentacao-aprovada", "sinistro-pendente-de-dados-de-pagamento"]


def test_approval_is_not_offered_and_is_refused_once_the_claim_moved_on(analyst, api, sale):
    claim = claim_under_review(api, sale)
    acted(analyst, claim, "aprovar-documentacao")

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    response = act(analyst, claim, "aprovar-documentacao")

    assert 'acoes/aprovar-documentacao/' not in page
    assert response.status_code == 302
    assert "Aprovar documentação: documentação já aprovada." in page_messages(analyst, response)
    assert [e.name for e in events_of(claim)].count("sinistro-documentacao-aprovada") == 1


def test_asking_for_documents_lists_them_as_pending_and_emits_documentacao_negada(
        analyst, api, sale):
    claim = claim_under_review(api, sale)

    claim = acted(analyst, claim, "solicitar-documentos", {
        "new_type": "laudo-pericial", "new_title": "Laudo pericial", "note": "Falta o laudo.",
    })

    assert claim.status == "pendente-de-documentacao"
    assert "laudo-pericial" in pending_types(api, claim)
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "<td>Laudo pericial</td><td>" in page and "Aguardando envio" in page
    assert "<td>certidao-de-obito.pdf</td><td>Certidão de óbito</td>" in page
    assert last_event(claim).name == "sinistro-documentacao-negada"
    assert claim.document_requests.get(doc_type="laudo-pericial").note == "Falta o laudo."


def test_a_rejected_file_leaves_the_received_list_and_its_type_is_asked_again(
        analyst, api, sale):
    claim = claim_under_review(api, sale)
    certificate = DocumentFile.objects.get(claim=claim, doc_type="certidao-de-obito")

    claim = acted(analyst, claim, "solicitar-documentos", {
        "replace_files": [str(certificate.pk)], "replace_reason": "Ilegível.",
    })

    certificate.refresh_from_db()
    assert certificate.status == "rejeitado"
    assert certificate.rejection_reason == "Substituição solicitada: Ilegível."
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    received = {d["tipo"] for d in body["documentacao"]["documentos-recebidos"]}
    assert "certidao-de-obito" not in received
    assert claim.status == "pendente-de-documentacao"
    # The replacement arrives: the claim is back under review, exactly once.
    send_document(api, claim, "certidao-de-obito")
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise"


def test_asking_for_nothing_is_refused_on_the_form(analyst, api, sale):
    claim = claim_under_review(api, sale)

    response = act(analyst, claim, "solicitar-documentos", {"note": "?"})

    assert response.status_code == 200
    assert "Escolha ao menos um documento" in response.content.decode()
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise"


def test_more_items_can_be_added_while_already_waiting_for_documents(analyst, api, sale):
    claim = claim_under_review(api, sale)
    acted(analyst, claim, "solicitar-documentos", {"new_type": "laudo", "new_title": "Laudo",
                                                  "note": "Para confirmar a causa."})

    claim = acted(analyst, claim, "solicitar-documentos",
                  {"new_type": "extrato", "new_title": "Extrato", "note": "Renda do mês."})

    assert claim.status == "pendente-de-documentacao"
    assert {"laudo", "extrato"} <= set(pending_types(api, claim))


def test_a_second_request_warns_that_the_clock_no_longer_suspends(analyst, api, sale):
    claim = claim_under_review(api, sale)
    acted(analyst, claim, "solicitar-documentos", {"new_type": "laudo", "new_title": "Laudo",
                                                  "note": "Para confirmar a causa."})
    send_document(api, claim, "laudo")

    form = analyst.get(f"/admin/claims/claim/{claim.pk}/acoes/solicitar-documentos/")

    assert ("NÃO suspende o prazo de decisão sobre a cobertura (Lei 15.040/2024, art. 86), "
            "que continua correndo") in form.content.decode()


def test_the_first_request_does_not_warn(analyst, api, sale):
    claim = claim_under_review(api, sale)

    form = analyst.get(f"/admin/claims/claim/{claim.pk}/acoes/solicitar-documentos/")

    assert form.status_code == 200
    assert "NÃO suspende" not in form.content.decode()


def test_payment_data_is_asked_for_and_the_channel_answers_it(analyst, api, sale):
    claim = claim_under_review(api, sale)
    acted(analyst, claim, "aprovar-documentacao")

    claim = acted(analyst, claim, "solicitar-dados-de-pagamento")
    assert claim.status == "pendente-de-dados-de-pagamento"
    assert last_event(claim).name == "sinistro-pendente-de-dados-de-pagamento"

    response = api.post(f"/api/v1/sinistros/{claim.number}/detalhes-pagamento", {
        "beneficiario": {"tipo": "outro", "nome": "Maria", "cpf-ou-cnpj": "52998224725"},
        "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}},
    }, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "em-regulacao"


def test_a_claim_that_required_no_documents_can_be_approved_as_it_stands(analyst, api, sale):
    claim = open_claim(api, sale)
    assert claim.status == "criado"

    claim = acted(analyst, claim, "aprovar-documentacao")

    assert claim.status == "em-regulacao"


@pytest.mark.parametrize("action, message", [
    # No longer allowed in the new status: said so.
    ("aprovar-documentacao", "Aprovar documentação: aguardando os documentos solicitados"),
    # Still allowed, but decided on what the page showed before: look again.
    ("solicitar-documentos", "alterado por outra pessoa enquanto você decidia"),
])
def test_a_form_shown_before_another_analyst_acted_is_refused_with_a_clear_message(
        analyst, supervisor, api, sale, action, message):
    claim = claim_under_review(api, sale)
    claim.refresh_from_db()
    seen = claim.version
    acted(supervisor, claim, "solicitar-documentos", {"new_type": "laudo", "new_title": "Laudo",
                                                     "note": "Para confirmar a causa."})

    response = act(analyst, claim, action, {"new_type": "x", "new_title": "X", "note": "X."},
                   version=seen)

    assert response.status_code == 302
    text = page_messages(analyst, response)
    assert message in text
    assert ClaimHistory.objects.filter(claim=claim, user=analyst.user).count() == 0


# --- the documents as the claim page lists them ------------------------------------------


def documents_section(client, claim) -> str:
    page = client.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    return page.split('id="documentos"')[1].split("</section>")[0]


def approved_line(section: str) -> str:
    return section.split("<h3>Aprovados</h3>")[1].split("</p>")[0] if "<h3>Aprovados</h3>" in section else ""


def test_a_type_asked_for_again_after_approval_is_listed_once_as_last_approved(
        analyst, api, sale):
    claim = claim_under_review(api, sale)
    acted(analyst, claim, "aprovar-documentacao")
    certificate = DocumentFile.objects.get(claim=claim, doc_type="certidao-de-obito")
    acted(analyst, claim, "solicitar-documentos", {
        "replace_files": [str(certificate.pk)], "replace_reason": "Ilegível."})

    asked_again = approved_line(documents_section(analyst, claim))
    send_document(api, claim, "certidao-de-obito")
    acted(analyst, claim, "aprovar-documentacao")
    approved_again = approved_line(documents_section(analyst, claim))

    # Its first approval's file was rejected: the certificate is pending, not approved.
    assert "Documento com CPF" in asked_again and "Certidão de óbito" not in asked_again
    assert approved_again.count("Certidão de óbito") == 1
    assert approved_again.count("Documento com CPF") == 1


@pytest.mark.parametrize("closing, data, words", [
    ("recusar", {**DENIAL, "reason": "Doença preexistente."}, "sinistro recusado"),
    ("finalizar", {"reason": "Desistência do beneficiário."}, "sinistro finalizado"),
])
def test_a_closed_claims_files_are_not_awaiting_analysis(
        supervisor, api, sale, closing, data, words):
    claim = claim_under_review(api, sale)
    acted(supervisor, claim, "solicitar-documentos", {"new_type": "laudo", "new_title": "Laudo",
                                                     "note": "Para confirmar a causa."})
    acted(supervisor, claim, closing, data)

    section = documents_section(supervisor, claim)

    assert "aguardando análise" not in section and "Aguardando envio" not in section
    assert "Pendentes de aprovação" not in section
    assert "Solicitados e não aprovados" in section
    assert section.count(f"Não analisado: {words}") == 2  # the two files that arrived
    assert section.count(f"Não enviado: {words}") == 1  # the report never sent
