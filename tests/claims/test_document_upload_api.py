"""Endpoint 3 (enviar-documento) and the documents rules, with the embedded default:
local storage and the service's own signed upload URL."""

import datetime as dt
from urllib.parse import urlparse

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from claims.models import Claim, ClaimHistory, DocumentFile, Event
from claims.services import sweep_pending_uploads
from claims.workflow import ClaimStatus
from tests.support.documents import HEIC, JPEG, OPEN_BODY, PDF, PNG, put, upload_body
from tests.support.factories import DocumentRequirementFactory


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"
    return settings.MEDIA_ROOT


@pytest.fixture
def number(api, sale):
    """A claim waiting for two documents."""
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    DocumentRequirementFactory(coverage_name="cobertura/morte", nature="morte-acidental",
                               doc_type="boletim-de-ocorrencia", title="Boletim de ocorrência")
    response = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY, format="json")
    assert response.json()["status"] == "pendente-de-documentacao"
    return response.json()["numero-sinistro"]


def ask(api, number, **body):
    return api.post(f"/api/v1/sinistros/{number}/enviar-documento", upload_body(**body),
                    format="json")


def send(api, number, content=PDF, content_type="application/pdf", **body):
    url = ask(api, number, **body).json()["url-envio"]
    return put(url, content, content_type)


def claim_of(api, number):
    return api.get(f"/api/v1/sinistros/{number}").json()


# --- the upload URL ---------------------------------------------------------------------


def test_asking_for_an_upload_url_returns_the_contract_fields(api, number, settings):
    response = ask(api, number, **{"id-externo": "doc-123"})

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["nome-arquivo"] == "certidao.pdf"
    assert body["data-envio"] == "2026-11-21T15:00:00Z"
    assert body["id-externo"] == "doc-123"
    assert body["url-envio"].startswith(f"{settings.BASE_URL}/uploads/")
    assert body["tipo-de-conteudo"] == "application/pdf"
    assert str(DocumentFile.objects.get().id) == body["id"]
    expires = dt.datetime.fromisoformat(body["expira-em"].replace("Z", "+00:00"))
    assert dt.timedelta(minutes=14) < expires - timezone.now() <= dt.timedelta(minutes=15)


def test_storage_keys_are_random_and_not_derived_from_public_ids(api, number):
    ask(api, number)
    ask(api, number)

    first, second = DocumentFile.objects.values_list("storage_key", flat=True)
    assert first != second
    assert number not in first and str(DocumentFile.objects.first().id) not in first


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"file_name": ""}, "nome-arquivo"),
        ({"file_name": "certidao"}, "nome-arquivo"),
        ({"file_name": ".pdf"}, "nome-arquivo"),
        ({"file_name": "../../etc/passwd.pdf"}, "nome-arquivo"),
        ({"file_name": "pasta\\certidao.pdf"}, "nome-arquivo"),
        ({"file_name": "virus.exe"}, "nome-arquivo"),
        ({"tipo": "Tipo Com Espaço"}, "tipo"),
        ({"tipo": "cnh"}, "tipo"),  # not requested on this claim
    ],
)
def test_bad_upload_requests_are_refused_field_by_field(api, number, body, field):
    response = ask(api, number, **body)

    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert [e["campo"] for e in response.json()["campos-invalidos"]] == [field]
    assert not DocumentFile.objects.exists()


def test_data_envio_is_required(api, number):
    response = api.post(f"/api/v1/sinistros/{number}/enviar-documento",
                        {"nome-arquivo": "a.pdf"}, format="json")

    assert [e["campo"] for e in response.json()["campos-invalidos"]] == ["data-envio"]


def test_another_channels_claim_is_not_found(other_api, number):
    response = ask(other_api, number)

    assert response.status_code == 404
    assert response.json()["problem-id"] == "claim-not-found"
    assert not DocumentFile.objects.exists()


@pytest.mark.parametrize("status", [ClaimStatus.FINALIZED, ClaimStatus.DENIED])
def test_a_closed_claim_takes_no_documents(api, number, status):
    Claim.objects.filter(number=number).update(status=status)

    response = ask(api, number)

    assert response.status_code == 422
    assert response.json()["problem-id"] == "claim-not-accepting-documents"


@pytest.mark.parametrize("status", [ClaimStatus.FINALIZED, ClaimStatus.DENIED])
def test_a_link_issued_before_the_claim_closed_takes_no_file(api, number, status, media_root):
    url = ask(api, number).json()["url-envio"]
    Claim.objects.filter(number=number).update(status=status)

    response = put(url, PDF)

    assert response.status_code == 422, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "claim-not-accepting-documents"
    assert "encerrado" in response.json()["detail"]
    document = DocumentFile.objects.get()
    assert document.status == DocumentFile.Status.REJECTED
    assert not (media_root / document.storage_key).exists()
    assert claim_of(api, number)["documentacao"]["documentos-recebidos"] == []


# --- uploading --------------------------------------------------------------------------


def test_a_file_appears_in_received_documents_only_after_its_bytes_arrive(api, number):
    url = ask(api, number, **{"id-externo": "ext-1"}).json()["url-envio"]
    assert claim_of(api, number)["documentacao"]["documentos-recebidos"] == []

    assert put(url, PDF).status_code == 200

    received = claim_of(api, number)["documentacao"]["documentos-recebidos"]
    document = DocumentFile.objects.get()
    assert received == [{
        "tipo": "certidao-de-obito",
        "titulo": "Certidão de óbito",
        "arquivos": [{
            "id": str(document.id),
            "nome-arquivo": "certidao.pdf",
            "data-envio": "2026-11-21T15:00:00Z",
            "tipo-documento": "certidao-de-obito",
            "id-externo": "ext-1",
        }],
    }]
    assert document.size == len(PDF)


def test_a_received_type_stays_pending_until_the_insurer_approves(api, number):
    send(api, number)

    pending = claim_of(api, number)["documentacao"]["documentos-pendentes"]
    assert {p["tipo"] for p in pending} == {"certidao-de-obito", "boletim-de-ocorrencia"}
    assert claim_of(api, number)["status"] == "pendente-de-documentacao"


def test_when_every_pending_item_has_a_file_the_claim_goes_to_analysis_once(api, number):
    send(api, number)
    send(api, number, file_name="bo.jpg", tipo="boletim-de-ocorrencia",
         content=JPEG, content_type="image/jpeg")
    send(api, number, file_name="bo-verso.png", tipo="boletim-de-ocorrencia",
         content=PNG, content_type="image/png")

    claim = claim_of(api, number)
    assert claim["status"] == "documentacao-em-analise"
    events = list(Event.objects.filter(claim__number=number).values_list("name", flat=True))
    assert events == ["sinistro-criado", "sinistro-documentacao-em-analise"]
    moved = ClaimHistory.objects.get(action="completar-documentacao")
    assert (moved.from_status, moved.to_status) == ("pendente-de-documentacao",
                                                     "documentacao-em-analise")
    groups = {g["tipo"]: len(g["arquivos"]) for g in claim["documentacao"]["documentos-recebidos"]}
    assert groups == {"certidao-de-obito": 1, "boletim-de-ocorrencia": 2}


def test_a_file_without_tipo_is_filed_under_other_documents_and_counts_for_nothing(api, number):
    send(api, number, tipo=None, file_name="extra.heic", content=HEIC, content_type="image/heic")

    claim = claim_of(api, number)
    assert claim["documentacao"]["documentos-recebidos"][0]["tipo"] == "outros"
    assert claim["documentacao"]["documentos-recebidos"][0]["titulo"] == "Outros documentos"
    assert claim["status"] == "pendente-de-documentacao"


def test_more_documents_are_accepted_while_under_analysis(api, number):
    send(api, number)
    send(api, number, tipo="boletim-de-ocorrencia")

    assert send(api, number, tipo=None).status_code == 200
    assert Event.objects.filter(name="sinistro-documentacao-em-analise").count() == 1


# --- what arrives is checked ------------------------------------------------------------


def assert_rejected(response, reason_part: str, status=422, problem_id="upload-rejected"):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == problem_id
    document = DocumentFile.objects.get()
    assert document.status == DocumentFile.Status.REJECTED
    assert reason_part in document.rejection_reason
    return document


def test_an_oversized_file_is_refused_and_never_counts(api, number, settings, media_root):
    settings.UPLOAD_MAX_BYTES = 100

    response = send(api, number, content=PDF + b"x" * 200)

    document = assert_rejected(response, "excede", status=413, problem_id="upload-too-large")
    assert claim_of(api, number)["documentacao"]["documentos-recebidos"] == []
    assert not (media_root / document.storage_key).exists()


def test_an_empty_file_is_rejected(api, number):
    assert_rejected(send(api, number, content=b""), "vazio")


def test_content_that_is_not_what_the_name_says_is_rejected(api, number, media_root):
    document = assert_rejected(send(api, number, content=PNG), "não é um arquivo PDF")

    assert not (media_root / document.storage_key).exists()
    assert claim_of(api, number)["documentacao"]["documentos-recebidos"] == []


def test_a_put_with_another_media_type_is_refused(api, number):
    url = ask(api, number).json()["url-envio"]

    response = put(url, PDF, content_type="image/png")

    assert response.status_code == 415
    assert response.json()["problem-id"] == "upload-content-type-mismatch"
    assert DocumentFile.objects.get().status == DocumentFile.Status.AWAITING_UPLOAD
    assert put(url, PDF).status_code == 200  # the same link still works with the right type


@pytest.mark.parametrize("headers", [
    {"CONTENT_LENGTH": "", "HTTP_TRANSFER_ENCODING": "chunked"},
    {"CONTENT_LENGTH": ""},
    {"CONTENT_LENGTH": str(len(PDF)), "HTTP_TRANSFER_ENCODING": "chunked"},
])
def test_a_put_without_a_length_is_refused_and_the_link_still_works(api, number, headers):
    url = ask(api, number).json()["url-envio"]

    response = put(url, PDF, **headers)

    assert response.status_code == 411, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "upload-length-required"
    assert DocumentFile.objects.get().status == DocumentFile.Status.AWAITING_UPLOAD
    assert put(url, PDF).status_code == 200


def test_a_link_is_used_once(api, number):
    url = ask(api, number).json()["url-envio"]
    assert put(url, PDF).status_code == 200

    replay = put(url, PDF)

    assert replay.status_code == 409
    assert replay.json()["problem-id"] == "upload-already-received"
    assert DocumentFile.objects.count() == 1


def test_a_tampered_link_is_refused(api, number):
    url = ask(api, number).json()["url-envio"]
    token = url.rsplit("/", 1)[1]
    tampered = url[: -len(token)] + token[:-3] + ("AAA" if token[-3:] != "AAA" else "BBB")

    response = put(tampered, PDF)

    assert response.status_code == 403
    assert response.json()["problem-id"] == "upload-link-invalid"
    assert DocumentFile.objects.get().status == DocumentFile.Status.AWAITING_UPLOAD


def test_a_link_for_another_file_cannot_be_forged_from_a_valid_one(api, number):
    from claims.documents.storage import local_upload_token

    ask(api, number)
    forged = local_upload_token(DocumentFile.objects.get().id, "image/png")  # wrong media type

    response = put(f"/uploads/{forged}", PNG, content_type="image/png")

    assert response.status_code == 403


def test_an_expired_link_is_refused(api, number):
    url = ask(api, number).json()["url-envio"]
    DocumentFile.objects.update(upload_expires_at=timezone.now() - dt.timedelta(seconds=1))

    response = put(url, PDF)

    assert response.status_code == 403
    assert response.json()["problem-id"] == "upload-link-expired"


def test_an_expired_signature_is_refused_even_if_the_record_says_otherwise(api, number, settings):
    url = ask(api, number).json()["url-envio"]
    settings.UPLOAD_URL_EXPIRE_SECONDS = -1  # every signature is now too old

    assert put(url, PDF).json()["problem-id"] == "upload-link-expired"


def test_the_upload_url_accepts_cross_origin_puts_from_browsers(api, number):
    url = ask(api, number).json()["url-envio"]
    path = urlparse(url).path

    preflight = APIClient().options(path, HTTP_ORIGIN="https://segurado.example.com",
                                    HTTP_ACCESS_CONTROL_REQUEST_METHOD="PUT")
    upload = put(url, PDF, HTTP_ORIGIN="https://segurado.example.com")

    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Origin"] == "*"
    assert "PUT" in preflight["Access-Control-Allow-Methods"]
    assert "Content-Type" in preflight["Access-Control-Allow-Headers"]
    assert upload.status_code == 200
    assert upload["Access-Control-Allow-Origin"] == "*"


def test_cors_can_be_limited_to_known_origins(api, number, settings):
    settings.UPLOAD_CORS_ALLOWED_ORIGINS = ["https://segurado.example.com"]
    path = urlparse(ask(api, number).json()["url-envio"]).path

    allowed = APIClient().options(path, HTTP_ORIGIN="https://segurado.example.com")
    other = APIClient().options(path, HTTP_ORIGIN="https://evil.example.com")

    assert allowed["Access-Control-Allow-Origin"] == "https://segurado.example.com"
    assert "Access-Control-Allow-Origin" not in other


# --- sweeping and reading ----------------------------------------------------------------


def test_the_sweep_expires_links_that_ran_out_with_nothing_stored(api, number):
    ask(api, number)
    ask(api, number)
    DocumentFile.objects.filter(pk=DocumentFile.objects.first().pk).update(
        upload_expires_at=timezone.now() - dt.timedelta(hours=1))

    assert sweep_pending_uploads() == (0, 1)
    statuses = sorted(DocumentFile.objects.values_list("status", flat=True))
    assert statuses == ["aguardando-envio", "expirado"]


def test_the_claim_query_count_stays_flat_from_one_to_fifty_files(api, number):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert api.get(f"/api/v1/sinistros/{number}").status_code == 200
        return len(captured)

    send(api, number)
    with_one = queries()
    for index in range(49):
        send(api, number, file_name=f"pagina-{index}.pdf", tipo=None)
    assert DocumentFile.objects.filter(status="recebido").count() == 50

    assert queries() == with_one
