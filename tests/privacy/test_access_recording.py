"""Who looked (LGPD art. 37): every reading of a claim's personal data writes one access
record per claim read, with who read it (the analyst, or the channel) and how: the
claim page, a search, an export, a document or letter download, the channel's API, the
person's own hosted page. Nothing is recorded for what was not shown."""

import re
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import Group, Permission
from rest_framework.test import APIClient

from claims.models import DocumentFile
from correspondence.models import Message
from payouts import roles as payouts_roles
from privacy.models import AccessRecord
from tests.payouts.treasury_rows import orders, paying_account, remittance, treasury_user
from tests.privacy.access_support import recorded
from tests.support.factories import ClaimFactory, DocumentRequirementFactory, SaleFactory
from tests.support.hosted import generate_link, open_session, path_of
from tests.support.lifecycle import logged_in, open_claim, send_document

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_media")]


@pytest.fixture
def claim(api, sale):
    """A claim opened by the channel (its "aviso recebido" letter written), a death
    certificate received: nothing read yet."""
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    claim = open_claim(api, sale)
    send_document(api, claim, "certidao-de-obito")
    AccessRecord.objects.all().delete()  # the opening's own answer is not a reading
    return claim


# --- the analysts ----------------------------------------------------------------------


def test_the_claim_page_records_one_reading_by_the_analyst(analyst, claim):
    response = analyst.get(f"/admin/claims/claim/{claim.pk}/change/")

    assert response.status_code == 200
    assert recorded() == [(claim.number, "pagina", "ana", None)]


def test_a_search_records_the_claims_on_the_page_shown_and_not_the_term(analyst, db):
    found = [ClaimFactory(sale=SaleFactory(insured_name="Joana Prado Vieira")) for _ in range(2)]
    ClaimFactory(sale=SaleFactory(insured_name="Outro Nome"))

    response = analyst.get("/admin/claims/claim/?fila=todos&q=prado")

    assert response.status_code == 200
    assert sorted(recorded()) == sorted((c.number, "busca", "ana", None) for c in found)
    # The term may be a CPF: the log has no place for it.
    assert {field.name for field in AccessRecord._meta.concrete_fields} == {
        "id", "at", "claim", "kind", "user", "channel"}


def test_the_list_without_a_search_records_nothing(analyst, claim):
    assert analyst.get("/admin/claims/claim/?fila=todos").status_code == 200
    assert recorded() == []


def test_an_export_records_every_claim_it_wrote_once(analyst, db):
    claims = [ClaimFactory() for _ in range(3)]

    response = analyst.get("/admin/claims/claim/exportar/?fila=todos")
    b"".join(response.streaming_content)  # the download ends

    assert sorted(recorded()) == sorted((c.number, "exportacao", "ana", None) for c in claims)


def test_an_analysts_document_download_is_recorded(analyst, claim):
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    link = re.search(r'href="(/documentos/[^"]+)"', page).group(1)

    response = analyst.get(link)

    assert response.status_code == 200
    assert recorded(kind="documento") == [(claim.number, "documento", "ana", None)]


def test_an_analysts_letter_reading_and_pdf_are_recorded(analyst, claim):
    message = Message.objects.filter(claim=claim).first()

    assert analyst.get(f"/admin/correspondence/message/{message.pk}/ver/").status_code == 200
    assert analyst.get(f"/admin/correspondence/message/{message.pk}/pdf/").status_code == 200

    assert recorded() == [(claim.number, "carta", "ana", None)] * 2


# --- the channel's API ------------------------------------------------------------------


def test_the_apis_claim_detail_is_recorded_by_channel(api, channel, claim):
    assert api.get(f"/api/v1/sinistros/{claim.number}").status_code == 200

    assert recorded() == [(claim.number, "api", None, channel.name)]


def test_the_apis_claim_list_records_each_claim_on_the_page_once(api, channel, sale, claim):
    other = ClaimFactory(coverage=sale.coverages.get(name="cobertura/invalidez-permanente"))

    body = api.get("/api/v1/sinistros").json()

    assert {item["numero-sinistro"] for item in body["dados"]} == {claim.number, other.number}
    assert sorted(recorded()) == sorted([(claim.number, "api", None, channel.name),
                                         (other.number, "api", None, channel.name)])


def test_the_apis_document_download_is_recorded_once(api, channel, claim):
    document = DocumentFile.objects.get(claim=claim, status="recebido")

    response = api.get(f"/api/v1/sinistros/{claim.number}/documentos/{document.pk}")
    assert response.status_code == 302
    assert APIClient().get(urlparse(response.url).path).status_code == 200

    # The redirect is the reading; following its signed link adds nothing.
    assert recorded() == [(claim.number, "api", None, channel.name)]


def test_the_apis_letters_and_their_pdf_are_recorded(api, channel, claim):
    letters = api.get(f"/api/v1/sinistros/{claim.number}/cartas").json()["cartas"]
    assert APIClient().get(urlparse(letters[0]["url-pdf"]).path).status_code == 200

    assert recorded() == [(claim.number, "api", None, channel.name),
                          (claim.number, "carta", None, channel.name)]


def test_another_channels_reads_of_a_claim_are_refused_and_not_recorded(other_api, claim):
    assert other_api.get(f"/api/v1/sinistros/{claim.number}").status_code == 404
    assert other_api.get(f"/api/v1/sinistros/{claim.number}/cartas").status_code == 404
    assert other_api.get("/api/v1/sinistros").json()["dados"] == []

    assert recorded() == []


# --- the person's own hosted page ---------------------------------------------------------


def test_the_hosted_pages_readings_are_recorded_without_user_or_channel(api, sale, claim):
    insured = open_session(generate_link(api, sale)["url"])
    AccessRecord.objects.all().delete()
    document = DocumentFile.objects.get(claim=claim, status="recebido")
    message = Message.objects.filter(claim=claim, role="contato").first()

    assert insured.get(f"/segurado/sinistros/{claim.number}").status_code == 200
    download = insured.get(f"/segurado/sinistros/{claim.number}/documentos/{document.pk}")
    assert download.status_code == 302
    assert insured.get(path_of(download.url)).status_code == 200
    assert insured.get(
        f"/segurado/sinistros/{claim.number}/cartas/{message.pk}.pdf").status_code == 200

    assert recorded() == [(claim.number, "pagina", None, None),
                          (claim.number, "documento", None, None),
                          (claim.number, "carta", None, None)]


# --- the bank's files ---------------------------------------------------------------------


def test_a_remittance_download_records_each_paid_claim_once(settings, tmp_path, db):
    settings.BANK_OUTBOX_DIR = tmp_path / "outbox"
    payouts_roles.sync_roles(Group, Permission)  # a transactional test may have flushed it
    treasury = logged_in(treasury_user("tereza"))
    account = paying_account()
    first, second = ClaimFactory(status="em-regulacao"), ClaimFactory(status="em-regulacao")
    sent = remittance(account, orders(account, ["150.00", "20.00"], claim=first)
                      + orders(account, ["90.00"], claim=second))

    response = treasury.post(f"/admin/payouts/remittance/{sent.pk}/baixar/")

    assert response.status_code == 200
    # The file names each payee (name, CPF, bank account): an export of their data.
    assert sorted(recorded()) == sorted([(first.number, "exportacao", "tereza", None),
                                         (second.number, "exportacao", "tereza", None)])


def test_a_payment_orders_page_records_a_reading_of_its_claim(settings, tmp_path, db):
    payouts_roles.sync_roles(Group, Permission)
    treasury = logged_in(treasury_user("tereza"))
    account = paying_account()
    order = orders(account, ["150.00"])[0]

    response = treasury.get(f"/admin/payouts/paymentorder/{order.pk}/change/")

    assert response.status_code == 200
    assert "Maria Beneficiária" in response.content.decode()
    assert recorded() == [(order.payment.claim.number, "pagina", "tereza", None)]
    assert treasury.get("/admin/payouts/paymentorder/").status_code == 200  # the list: not
    assert len(recorded()) == 1
