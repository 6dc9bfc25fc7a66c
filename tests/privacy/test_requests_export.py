"""The access export (LGPD art. 18, II and V): a person who is an heir on one claim and
the insured on another finds both, and nothing of the other heirs nor of the deceased;
in the JSON and in the PDF; read in a fixed number of queries."""

import io
import json

import pypdfium2
import pytest
from django.core.files.storage import default_storage
from django.db import connection
from django.test.utils import CaptureQueriesContext

from correspondence.models import Letter, Message
from correspondence.sending import build_email
from privacy.models import RequestKind
from privacy.requests import export, services
from tests.privacy.requests_support import OTHERS, PAULA, paula_two_claims
from tests.support.factories import ClaimFactory

pytestmark = pytest.mark.usefixtures("local_media")


def pdf_text(content: bytes) -> str:
    document = pypdfium2.PdfDocument(io.BytesIO(content))
    return "\n".join(page.get_textpage().get_text_range() for page in document)


@pytest.fixture
def claims(channel):
    return paula_two_claims(channel)


def answered(kind=RequestKind.ACCESS):
    request = services.register_request(cpf=PAULA, kind=kind, origin="pagina",
                                        registered_by="usuario:teste")
    return services.answer_request(request, answered_by="usuario:teste")


def test_the_export_holds_both_claims_in_each_role_and_nothing_of_the_others(claims):
    heir_claim, own_claim = claims
    request = answered()

    with default_storage.open(request.export_json) as handle:
        raw = handle.read().decode()
    data = json.loads(raw)
    by_number = {row["numero"]: row for row in data["sinistros"]}
    assert set(by_number) == {heir_claim.number, own_claim.number}
    assert by_number[heir_claim.number]["papeis"] == ["beneficiario", "favorecido"]
    assert by_number[own_claim.number]["papeis"] == ["segurado", "solicitante", "contato"]
    assert data["titular"]["nomes"] == ["Paula Titular"]
    # Her own data, in full: her share, her PIX key, her payment and its order, her
    # document, her letter, the claim's automatic decision and the sharing.
    heir = by_number[heir_claim.number]
    own_row = next(b for b in heir["beneficiarios"] if b["proprio"])
    assert own_row["dados-de-pagamento"]["pix"]["key"] == "paula-pix"
    paid = next(p for p in heir["pagamentos"] if p["proprio"])
    assert (paid["valor"], paid["ordem-de-pagamento"]["referencia"]) == (
        "5000.00", "OP000000000000000001")
    assert {d["arquivo"] for d in heir["documentos"]} == {"rg-paula.pdf", "certidao.pdf"}
    assert [c["email"] for c in heir["cartas"]] == ["paula@example.com"]
    assert heir["decisao-automatica"]["motivos"] == ["Certidão de óbito lida e conferida"]
    assert {(s["tipo"], s["evento"]) for s in data["compartilhamentos"]} == {
        ("canal", "sinistro-criado")}
    assert by_number[own_claim.number]["contato"]["relato"] == "Fui demitida."
    # The others: their role and a masked CPF, no more.
    descriptions = [b.get("descricao") for b in heir["beneficiarios"] if not b["proprio"]]
    assert all(d.startswith("Outro beneficiário (CPF ***.***.**") for d in descriptions)
    assert heir["segurado"]["descricao"].startswith("Segurado (CPF ***.***.**")
    assert heir["contato"] is None
    for theirs in OTHERS:
        assert theirs not in raw, theirs

    with default_storage.open(request.export_pdf) as handle:
        text = pdf_text(handle.read())
    assert heir_claim.number in text and own_claim.number in text
    assert "Paula Titular" in text and "paula-pix" in text
    for theirs in OTHERS:
        assert theirs not in text, theirs


def test_the_answer_is_a_letter_to_her_own_email_with_the_export_attached(claims):
    heir_claim, own_claim = claims
    request = answered()

    letter = Message.objects.get(letter=Letter.DATA_REQUEST_ANSWER)
    # The most recent claim (her own), to her own e-mail, the two files attached.
    assert (letter.claim_id, letter.recipient_email) == (own_claim.pk, "paula@example.com")
    assert letter.status == Message.Status.PENDING
    assert f"requisição nº <b>{request.pk}</b>" in letter.body_html
    assert ("Encontramos o seu CPF em 2 sinistros; você é a pessoa segurada em 1 seguro."
            in letter.body_text)
    email = build_email(letter)
    names = [attachment[0] for attachment in email.attachments]
    assert names == [f"resposta-titular-{request.pk}.pdf",
                     f"dados-pessoais-{request.pk}.pdf", f"dados-pessoais-{request.pk}.json"]
    assert json.loads(email.attachments[2][1])["titular"]["cpf"].endswith(PAULA[-2:])
    assert "Carta enviada a paula@example.com" in request.answer


def test_the_channel_never_lists_the_answer_letter(claims, api):
    _, own_claim = claims
    answered()

    assert Message.objects.filter(claim=own_claim).count() == 1
    response = api.get(f"/api/v1/sinistros/{own_claim.number}/cartas")
    assert response.status_code == 200, response.content
    assert response.json()["cartas"] == []


@pytest.mark.usefixtures("claims")
def test_the_export_is_read_in_the_same_number_of_queries_for_2_and_for_6_claims():
    with CaptureQueriesContext(connection) as two:
        first = export.assemble(PAULA)
    for _ in range(4):
        ClaimFactory(requester_tax_id=PAULA)
    with CaptureQueriesContext(connection) as six:
        second = export.assemble(PAULA)

    assert (len(first["sinistros"]), len(second["sinistros"])) == (2, 6)
    assert len(two) == len(six)
    # The claims (with their sales and SRO registrations); beneficiaries, payments (with
    # their orders), files, letters, events, deliveries, rule evaluations, SRO
    # submissions; the sales of the CPF without claims.
    assert len(six) <= 10, [q["sql"][:80] for q in six.captured_queries]


def test_a_cpf_the_service_never_saw_gets_an_empty_export_and_no_letter(db):
    request = services.register_request(cpf="52998224725", kind=RequestKind.PORTABILITY,
                                        origin="carta", registered_by="usuario:teste")
    request = services.answer_request(request, answered_by="usuario:teste")

    with default_storage.open(request.export_json) as handle:
        data = json.load(handle)
    assert (data["sinistros"], data["vendas"]) == ([], [])
    assert "Nenhum dado pessoal ligado ao CPF" in request.answer
    assert not Message.objects.exists()


def test_forgetting_a_person_deletes_the_stored_exports_and_keeps_the_request(claims):
    from privacy.requests.delivery import forget_exports

    request = answered()
    paths = (request.export_json, request.export_pdf)

    assert forget_exports(cpfs=[PAULA]) == 2
    assert not any(default_storage.exists(path) for path in paths)
    request.refresh_from_db()
    assert (request.cpf, request.export_json, request.export_pdf) == (PAULA, "", "")
    assert forget_exports(cpfs=[PAULA]) == 0


def test_sharing_lists_the_webhook_deliveries_the_registradora_and_the_bank(claims):
    from django.utils import timezone

    from claims.models import Event
    from payouts.models import PayingAccount, PaymentOrder
    from sro.models import Registration, Submission
    from webhooks.models import Delivery, Subscription

    heir_claim, _ = claims
    now = timezone.now()
    subscription = Subscription.objects.create(channel=heir_claim.channel,
                                               url="https://canal.example/webhook",
                                               secret_encrypted="-")
    event = Event.objects.get(claim=heir_claim)
    Delivery.objects.create(subscription=subscription, event=event,
                            message_id=event.pk, event_name=event.name, body="{}",
                            status="entregue", delivered_at=now)
    registration = Registration.objects.create(claim=heir_claim)
    Submission.objects.create(registration=registration, kind="registro", sequence=0,
                              trigger="aviso", sro_status=1, occurred_at=now,
                              deadline=now.date(), body={}, status="enviado", sent_at=now)
    account = PayingAccount.objects.create(
        name="Banco Pagador", bank="341", branch="1234", account="56789",
        agreement="1", company_tax_id="11222333000181", company_name="Seguradora")
    PaymentOrder.objects.filter(reference="OP000000000000000001").update(account=account)

    with CaptureQueriesContext(connection) as queries:
        data = export.assemble(PAULA)

    kinds = {(row["tipo"], row["com"]) for row in data["compartilhamentos"]}
    assert kinds == {("canal", heir_claim.channel.name), ("webhook", heir_claim.channel.name),
                     ("registradora", export.SRO_NAME),
                     ("banco", "Banco pagador: Banco Pagador")}
    assert len(queries) == 10


def test_forgetting_a_claim_deletes_the_exports_of_its_people(claims, settings):
    import datetime as dt

    from django.utils import timezone

    from claims.models import Claim, Sale
    from privacy.forgetting.services import anonymise_claim

    _, own_claim = claims
    request = answered()
    settings.RETENTION_YEARS = 5
    long_ago = dt.date(2019, 1, 31)
    Sale.objects.filter(pk=own_claim.sale_id).update(valid_from=long_ago,
                                                     valid_until=long_ago)
    Claim.objects.filter(pk=own_claim.pk).update(
        status="finalizado", closed_at=timezone.make_aware(dt.datetime(2019, 3, 1, 12)))

    evidence = anonymise_claim(Claim.objects.get(pk=own_claim.pk))

    assert evidence.removed["exportacoes_de_titulares"] == 2
    assert not default_storage.exists(request.export_json)
    assert not default_storage.exists(request.export_pdf)


def test_the_deceased_insured_never_gets_the_relative_who_reported_the_death(db):
    """After a death, whoever reported it is someone else: the insured's export leaves
    out their name, e-mail and letters, and the answer goes to the insured's own e-mail."""
    from tests.support.factories import CoverageFactory, SaleFactory

    sale = SaleFactory(insured_name="Sebastião Segurado", insured_cpf=PAULA,
                       insured_email="sebastiao@example.com")
    ClaimFactory(coverage=CoverageFactory(sale=sale, name="cobertura/morte"),
                 requester_name="Patrícia Parente", requester_tax_id="",
                 contact_name="Patrícia Parente", contact_email="patricia@example.com")

    request = answered()

    data = json.dumps(export.assemble(PAULA), ensure_ascii=False)
    pdf = pdf_text(default_storage.open(request.export_pdf).read())
    for text in (data, pdf):
        assert "Patrícia" not in text and "patricia@example.com" not in text
    letter = Message.objects.get(letter=Letter.DATA_REQUEST_ANSWER)
    assert letter.recipient_email == "sebastiao@example.com"
