"""The claim page's upload calls: an upload link for a pending item (the API's service),
the PUT to it, and the check that tells the page whether the file was accepted."""

import pytest
from django.utils import timezone

from claims.models import Claim, DocumentFile
from claims.workflow import ClaimStatus
from tests.support.documents import PDF
from tests.support.factories import ClaimFactory, SaleFactory
from tests.support.hosted import NEW, csrf_token, opening, path_of, post_form


@pytest.fixture
def claim(insured, death_certificate, local_media):
    post_form(insured, f"{NEW}?cobertura=cobertura/morte", opening())
    return Claim.objects.get()


def start(insured, claim, **fields):
    page = f"/segurado/sinistros/{claim.number}"
    data = {"tipo": "certidao-de-obito", "nome-arquivo": "certidao.pdf", "tamanho": str(len(PDF)),
            **fields}
    return post_form(insured, page, data, action=f"{page}/envios")


def test_a_pending_item_gets_an_upload_link_then_the_file_moves_the_claim(insured, claim):
    link = start(insured, claim)
    assert link.status_code == 200, link.content
    body = link.json()
    assert body["tipo-de-conteudo"] == "application/pdf"

    put = insured.put(path_of(body["url"]), PDF, content_type="application/pdf")
    assert put.status_code == 200
    token = csrf_token(insured, f"/segurado/sinistros/{claim.number}")
    confirmed = insured.post(body["confirmar"], {"csrfmiddlewaretoken": token})

    assert confirmed.json() == {"situacao": "recebido", "mensagem": "Arquivo recebido."}
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DOCUMENTS_UNDER_REVIEW
    page = insured.get(f"/segurado/sinistros/{claim.number}").content.decode()
    assert "Documentos em análise" in page and "certidao.pdf" in page


def test_a_file_that_is_not_what_it_says_is_reported_as_not_accepted(insured, claim):
    body = start(insured, claim).json()
    insured.put(path_of(body["url"]), b"not a pdf at all", content_type="application/pdf")
    token = csrf_token(insured, f"/segurado/sinistros/{claim.number}")

    confirmed = insured.post(body["confirmar"], {"csrfmiddlewaretoken": token}).json()

    assert confirmed["situacao"] == "rejeitado"
    assert confirmed["mensagem"] == ("O arquivo não pôde ser aberto como PDF, JPG, PNG ou HEIC "
                                     "(estava vazio, incompleto ou é de outro tipo). "
                                     "Escolha outro arquivo.")
    page = insured.get(f"/segurado/sinistros/{claim.number}").content.decode()
    assert "O arquivo certidao.pdf não foi aceito. O arquivo não pôde ser aberto" in page
    assert "application/pdf" not in page.split("Documentos pedidos")[1].split("<form")[0]


def test_a_file_arriving_after_the_claim_closed_is_reported_as_not_attached(insured, claim):
    body = start(insured, claim).json()
    Claim.objects.filter(pk=claim.pk).update(status=ClaimStatus.FINALIZED)
    insured.put(path_of(body["url"]), PDF, content_type="application/pdf")
    token = csrf_token(insured, f"/segurado/sinistros/{claim.number}")

    confirmed = insured.post(body["confirmar"], {"csrfmiddlewaretoken": token}).json()

    assert confirmed == {"situacao": "rejeitado", "mensagem": (
        "O sinistro foi encerrado antes de o arquivo chegar, e ele não foi anexado.")}


@pytest.mark.parametrize("fields, status, message", [
    ({"tipo": "rg"}, 400, "certidao-de-obito"),
    ({"nome-arquivo": "virus.exe"}, 400, "Tipo de arquivo não permitido"),
    ({"tamanho": str(50 * 1024 * 1024)}, 400, "passa de"),
])
def test_bad_uploads_are_refused_before_any_link(insured, claim, fields, status, message):
    response = start(insured, claim, **fields)

    assert response.status_code == status
    assert message in response.json()["mensagem"]
    assert not DocumentFile.objects.exists()


def test_a_closed_claim_takes_no_more_files(insured, claim):
    Claim.objects.filter(pk=claim.pk).update(status=ClaimStatus.FINALIZED)

    response = start(insured, claim)

    assert response.status_code == 422
    assert "não recebe documentos" in response.json()["mensagem"]


def test_another_sales_claim_and_file_are_not_found(insured, claim, channel):
    elsewhere = ClaimFactory(sale=SaleFactory(channel=channel))
    page = f"/segurado/sinistros/{claim.number}"
    foreign_file = DocumentFile.objects.create(
        claim=elsewhere, doc_type="x", file_name="a.pdf", sent_at=timezone.now(),
        content_type="application/pdf", storage_key="k/a.pdf", upload_expires_at=timezone.now())

    started = post_form(insured, page, {"tipo": "x", "nome-arquivo": "a.pdf"},
                        action=f"/segurado/sinistros/{elsewhere.number}/envios")
    confirmed = post_form(insured, page, {},
                          action=f"/segurado/sinistros/{claim.number}/envios/{foreign_file.pk}")

    assert started.status_code == 404 and confirmed.status_code == 404


def test_upload_calls_need_the_session_and_the_csrf_token(insured, claim, client):
    page = f"/segurado/sinistros/{claim.number}"

    without_token = insured.post(f"{page}/envios", {"tipo": "certidao-de-obito",
                                                    "nome-arquivo": "a.pdf"})
    without_session = client.post(f"{page}/envios", {"tipo": "certidao-de-obito"})

    assert without_token.status_code == 403
    assert without_session.status_code == 403
    assert without_session.json()["mensagem"] == "Sua sessão terminou. Peça um novo link."
    assert not DocumentFile.objects.exists()


def test_upload_links_are_rate_limited_per_session(insured, claim, settings):
    settings.WHITELABEL_UPLOAD_RATE_LIMIT = 2

    answers = [start(insured, claim) for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 200, 429]
    assert int(answers[-1]["Retry-After"]) > 0
    assert "Muitos envios seguidos" in answers[-1].json()["mensagem"]
    assert DocumentFile.objects.count() == 2


def test_the_claim_page_lets_the_browser_reach_the_storage(insured, claim, settings):
    policy = insured.get(f"/segurado/sinistros/{claim.number}")["Content-Security-Policy"]

    assert f"connect-src 'self' {settings.BASE_URL}" in policy
