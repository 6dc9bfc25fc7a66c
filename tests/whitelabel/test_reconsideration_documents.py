"""A denied claim takes the files of a request for reconsideration (type
``reconsideracao``), from the hosted page and from the channel, and no other file."""

import pytest

from claims import services
from claims.models import Claim, DocumentFile
from claims.workflow import ClaimStatus
from tests.support.documents import PDF, upload_body
from tests.support.hosted import csrf_token, path_of, post_form
from tests.support.lifecycle import claim_under_review, staff

pytestmark = pytest.mark.usefixtures("local_media")


@pytest.fixture
def denied(api, sale):
    claim = claim_under_review(api, sale)
    services.deny(claim_id=claim.pk, user=staff("sergio", "Supervisor de sinistros"),
                  reason="Doença preexistente.", code=1, clause="Cláusula 5.2")
    return Claim.objects.get(pk=claim.pk)


def send_from_the_page(insured, claim, doc_type="reconsideracao"):
    page = f"/segurado/sinistros/{claim.number}"
    link = post_form(insured, page, {"tipo": doc_type, "nome-arquivo": "laudo.pdf",
                                     "tamanho": str(len(PDF))}, action=f"{page}/envios")
    if link.status_code != 200:
        return link
    insured.put(path_of(link.json()["url"]), PDF, content_type="application/pdf")
    return insured.post(link.json()["confirmar"],
                        {"csrfmiddlewaretoken": csrf_token(insured, page)})


def test_the_person_sends_a_file_for_the_reconsideration_and_the_analyst_sees_it(
        insured, denied, analyst):
    page = insured.get(f"/segurado/sinistros/{denied.number}").content.decode()
    assert "Documentos para a reconsideração (opcional)" in page
    assert "Documentos pedidos" not in page  # a denied claim waits for none of them

    confirmed = send_from_the_page(insured, denied)

    assert confirmed.json()["situacao"] == "recebido"
    denied.refresh_from_db()
    assert denied.status == ClaimStatus.DENIED  # a file changes no status
    assert DocumentFile.objects.get(claim=denied, doc_type="reconsideracao").status == "recebido"
    claim_page = analyst.get(f"/admin/claims/claim/{denied.pk}/change/").content.decode()
    assert "Documentos do pedido de reconsideração" in claim_page


def test_a_denied_claim_takes_no_other_file(insured, denied):
    response = send_from_the_page(insured, denied, doc_type="certidao-de-obito")

    assert response.status_code == 422
    assert "não recebe documentos" in response.json()["mensagem"]


def test_the_channel_sends_a_reconsideration_file_and_sees_it_by_name(api, denied):
    response = api.post(f"/api/v1/sinistros/{denied.number}/enviar-documento",
                        upload_body(file_name="laudo.pdf", tipo="reconsideracao"), format="json")
    assert response.status_code == 200, response.content
    from tests.support.documents import put
    assert put(response.json()["url-envio"], PDF).status_code == 200

    body = api.get(f"/api/v1/sinistros/{denied.number}").json()
    received = {d["tipo"]: d["titulo"] for d in body["documentacao"]["documentos-recebidos"]}
    assert received["reconsideracao"] == "Documentos do pedido de reconsideração"


def test_an_open_claim_takes_no_reconsideration_file(api, sale):
    claim = claim_under_review(api, sale)

    response = api.post(f"/api/v1/sinistros/{claim.number}/enviar-documento",
                        upload_body(file_name="laudo.pdf", tipo="reconsideracao"), format="json")

    assert response.status_code == 400
    assert "sinistro recusado" in response.content.decode()
