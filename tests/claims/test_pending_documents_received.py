"""``recebido`` on each item of ``documentos-pendentes``: an item stays pending until the
insurer approves the documentation (the contract's rule 2), and ``recebido`` tells the
channel that a file already answered it, so it does not send it again."""

import datetime as dt
import json
from urllib.parse import urlparse

import jsonschema
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from claims.models import DocumentFile, DocumentRequest
from tests.support.documents import upload_body
from tests.support.factories import DocumentRequirementFactory
from tests.support.lifecycle import acted, open_claim, send_document

pytestmark = pytest.mark.usefixtures("local_media")


def documentation(api, claim) -> dict:
    response = api.get(f"/api/v1/sinistros/{claim.number}")
    assert response.status_code == 200, response.content
    return response.json()["documentacao"]


def pending(api, claim) -> dict[str, bool]:
    """tipo -> recebido, in the order the claim lists them."""
    return {item["tipo"]: item["recebido"] for item in documentation(api, claim)["documentos-pendentes"]}


@pytest.fixture
def death_claim(api, sale):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="cpf-cnpj",
                               title="Documento de identificação do segurado com CPF")
    return open_claim(api, sale)


def test_a_received_type_stays_pending_and_says_it_was_received(api, death_claim):
    assert pending(api, death_claim) == {"certidao-de-obito": False, "cpf-cnpj": False}

    send_document(api, death_claim, "certidao-de-obito")

    docs = documentation(api, death_claim)
    assert docs["documentos-pendentes"][0] == {
        "tipo": "certidao-de-obito", "titulo": "Certidão de óbito",
        "data-solicitacao": docs["documentos-pendentes"][0]["data-solicitacao"],
        "recebido": True,
    }
    assert pending(api, death_claim) == {"certidao-de-obito": True, "cpf-cnpj": False}
    assert [d["tipo"] for d in docs["documentos-recebidos"]] == ["certidao-de-obito"]

    send_document(api, death_claim, "cpf-cnpj")

    death_claim.refresh_from_db()
    assert death_claim.status == "documentacao-em-analise"
    # Both received, both still pending: the insurer has not approved them yet.
    assert pending(api, death_claim) == {"certidao-de-obito": True, "cpf-cnpj": True}


def test_a_file_the_insurer_asks_to_replace_no_longer_counts(analyst, api, death_claim):
    send_document(api, death_claim, "certidao-de-obito")
    send_document(api, death_claim, "cpf-cnpj")
    certificate = DocumentFile.objects.get(claim=death_claim, doc_type="certidao-de-obito")

    acted(analyst, death_claim, "solicitar-documentos", {
        "replace_files": [str(certificate.pk)], "replace_reason": "Ilegível."})

    assert pending(api, death_claim) == {"certidao-de-obito": False, "cpf-cnpj": True}
    send_document(api, death_claim, "certidao-de-obito")
    assert pending(api, death_claim) == {"certidao-de-obito": True, "cpf-cnpj": True}


def test_approval_empties_the_list_and_a_new_request_starts_unreceived(analyst, api, death_claim):
    send_document(api, death_claim, "certidao-de-obito")
    send_document(api, death_claim, "cpf-cnpj")
    acted(analyst, death_claim, "aprovar-documentacao")
    assert pending(api, death_claim) == {}

    acted(analyst, death_claim, "solicitar-documentos", {
        "new_title": "Documento com CPF atualizado", "new_type": "cpf-cnpj",
        "note": "O documento enviado está vencido."})

    # The file sent before this request is still received, but answers the old one.
    assert pending(api, death_claim) == {"cpf-cnpj": False}
    assert "cpf-cnpj" in {d["tipo"] for d in documentation(api, death_claim)["documentos-recebidos"]}
    send_document(api, death_claim, "cpf-cnpj")
    assert pending(api, death_claim) == {"cpf-cnpj": True}


def test_a_refused_upload_is_not_received(api, death_claim):
    url = api.post(f"/api/v1/sinistros/{death_claim.number}/enviar-documento",
                   upload_body(file_name="certidao.pdf", tipo="certidao-de-obito"),
                   format="json").json()["url-envio"]
    refused = APIClient().generic("PUT", urlparse(url).path, b"not a pdf at all",
                                  content_type="application/pdf")

    assert refused.status_code == 422
    assert DocumentFile.objects.get(claim=death_claim).status == "rejeitado"
    assert pending(api, death_claim) == {"certidao-de-obito": False, "cpf-cnpj": False}


def count_queries(api, claim) -> int:
    with CaptureQueriesContext(connection) as queries:
        documentation(api, claim)
    return len(queries)


def test_the_query_count_does_not_grow_with_received_files(api, death_claim, sale):
    few = open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)
    DocumentRequest.objects.create(claim=few, doc_type="laudo-medico", title="Laudo médico",
                                   requested_at=dt.datetime.now(dt.timezone.utc))
    send_document(api, few, "laudo-medico")
    for _ in range(3):
        send_document(api, death_claim, "certidao-de-obito")
        send_document(api, death_claim, "cpf-cnpj")
    now = dt.datetime.now(dt.timezone.utc)
    DocumentRequest.objects.bulk_create(
        DocumentRequest(claim=death_claim, doc_type=f"t{i}", title=f"T{i}", requested_at=now)
        for i in range(30))

    assert len(documentation(api, death_claim)["documentos-pendentes"]) == 32
    assert count_queries(api, death_claim) == count_queries(api, few)


def test_the_claim_with_recebido_is_valid_against_the_published_schema(api, death_claim):
    send_document(api, death_claim, "certidao-de-obito")
    schema = json.loads(Client().get("/api/v1/schema/", {"format": "json"}).content)
    operation = schema["paths"]["/api/v1/sinistros/{numero-sinistro}"]["get"]
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    validator = jsonschema.Draft202012Validator({**body, "components": schema["components"]})

    claim = api.get(f"/api/v1/sinistros/{death_claim.number}").json()

    assert [item["recebido"] for item in claim["documentacao"]["documentos-pendentes"]] == [
        True, False]
    assert list(validator.iter_errors(claim)) == []
