"""Every decision that changes what a person must do or will receive writes to them:
documentation approved, payment data asked for, a reconsideration granted (the claim
reopens), a payment settled, the claim closed with payment. Each letter goes through a
real SMTP server with its PDF, addresses a bereaved family formally, names the deceased
and the policy, says what happens next and by when (a date), and is signed by a named
person of an identified insurer."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.utils import timezone

from claims import roles
from claims import services as claim_services
from claims.formatting import brl
from claims.models import Beneficiary, Payment
from correspondence import sending
from correspondence.models import Message
from tests.support.lifecycle import (
    DENIAL, HEIR_DETAILS, VALID_PIX, act, acted, claim_under_review, logged_in, staff)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_media")]

INSURER_FOOT = ("Helena Duarte Lima", "Diretora de Sinistros", "Seguradora Exemplo S.A.",
                "CNPJ 12.345.678/0001-95", "Avenida Paulista, 1000")


def flat(text: str) -> str:
    return " ".join(text.split())


def day(moment) -> str:
    return timezone.localdate(moment).strftime("%d/%m/%Y")


def sent(letter: str, to: str, smtp):
    """Send the pending messages and return the one e-mail of ``letter`` to ``to``, its
    text and its PDF's text."""
    for pk in Message.objects.filter(status=Message.Status.PENDING).values_list("pk", flat=True):
        assert sending.send(pk) == "sent"
    message = Message.objects.get(letter=letter, recipient_email=to)
    [mail] = [m for m in smtp.received if m.message_id == message.message_id]
    assert mail.envelope_to == [to]
    assert mail.attachment_names() == [message.attachment_name]
    return mail, flat(mail.text()), flat(mail.pdf_text())


def assert_formal(text: str, *, reader: str, insured: str) -> None:
    assert f"Prezado(a) {reader}," in text
    assert "Olá" not in text
    assert f"falecimento de {insured}" in text and "condolências" in text
    assert "Apólice" in text and "AP-2025-000123" in text
    assert "Certificado" in text and "CT-0042" in text
    assert not re.search(r"\bele\b", text)
    # (The ombudsman's own answer time, "em até 10 dias úteis" from a complaint nobody has
    # made yet, is the one duration no date can replace: INSURER_OMBUDSMAN_TEXT.)
    assert not re.search(r"em até \d+ dias(?! úteis)", text)
    for words in INSURER_FOOT:
        assert words in text


@pytest.fixture
def sale(sale):
    sale.policy_number, sale.certificate_number = "AP-2025-000123", "CT-0042"
    sale.save(update_fields=["policy_number", "certificate_number"])
    return sale


@pytest.fixture
def reviewed(api, sale, smtp):
    """A death claim whose documents arrived; its heir Maria (100%) has an e-mail and
    has given no payment data yet."""
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    Beneficiary.objects.filter(claim=claim).update(email="maria@example.com",
                                                   payment_method=None, destination="")
    Message.objects.all().delete()
    return claim


def test_approving_the_documents_tells_the_family_when_the_payment_is_due(
        reviewed, analyst, sale, smtp):
    claim = acted(analyst, reviewed, "aprovar-documentacao")

    mail, text, pdf = sent("documentacao-aprovada", "pedro@example.com", smtp)

    assert "documentação aprovada" in mail.subject
    claim.refresh_from_db()
    for body in (text, pdf):
        assert "a documentação foi aprovada" in body
        assert f"até {day(claim.clock_deadline)}" in body  # art. 87, the claim's own clock
        assert_formal(body, reader="Pedro da Silva", insured=sale.insured_name)


def test_asking_for_payment_data_writes_to_each_beneficiary_with_their_share(
        reviewed, analyst, sale, smtp):
    claim = acted(analyst, reviewed, "aprovar-documentacao", {"request_payment_data": "on"})
    claim.refresh_from_db()
    assert claim.status == "pendente-de-dados-de-pagamento"

    mail, text, pdf = sent("solicitacao-dados-pagamento", "maria@example.com", smtp)

    assert "dados de pagamento solicitados" in mail.subject
    for body in (text, pdf):
        assert "Prezado(a) Maria da Silva," in body
        assert f"Sua participação 100% Valor previsto {brl(claim.amount)}" in body
        assert f"vence em {day(claim.clock_deadline)}" in body
        assert_formal(body, reader="Maria da Silva", insured=sale.insured_name)
    assert "/segurado/acesso/" in text  # where to give the data: her own link
    # The contact person hears whose data are awaited, not the share's figures.
    _, contact_text, contact_pdf = sent("solicitacao-dados-pagamento", "pedro@example.com", smtp)
    assert "Maria da Silva" in contact_pdf and brl(claim.amount) not in contact_pdf
    assert Message.objects.filter(letter="documentacao-aprovada").count() == 1


def test_a_granted_reconsideration_tells_everyone_the_denial_went_to(
        reviewed, supervisor, sale, smtp):
    claim = acted(supervisor, reviewed, "recusar", {
        **DENIAL, "reason": "A morte decorreu de doença preexistente."})
    claim_services.request_reconsideration(claim_id=claim.pk, role="solicitante",
                                           text="O laudo novo mostra outra causa.",
                                           actor="segurado:teste")
    sofia = logged_in(staff("sofia", roles.SUPERVISOR))  # took no part in the denial
    Message.objects.all().delete()
    claim = acted(sofia, claim, "reabrir", {"reason": "O novo laudo afasta a preexistência.",
                                            "next_status": "em-regulacao"})
    claim.refresh_from_db()

    mail, text, pdf = sent("reabertura", "pedro@example.com", smtp)

    assert "sinistro reaberto" in mail.subject
    for body in (text, pdf):
        assert "pedido de reconsideração" in body and "o atendeu" in body
        assert "O novo laudo afasta a preexistência." in body
        assert f"decide sobre a cobertura até {day(claim.clock_deadline)}" in body
        assert_formal(body, reader="Pedro da Silva", insured=sale.insured_name)
    _, _, heir_pdf = sent("reabertura", "maria@example.com", smtp)
    assert "Prezado(a) Maria da Silva," in heir_pdf


@pytest.fixture
def paid(api, sale, analyst, supervisor, smtp):
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    Beneficiary.objects.filter(claim=claim).update(email="maria@example.com")
    claim = acted(analyst, claim, "aprovar-documentacao")
    claim = acted(analyst, claim, "ajustar-reserva", {"amount": "1500,00", "reason": "Acordo."})
    heir = claim.beneficiaries.get()
    act(supervisor, claim, "registrar-pagamento",
        {"amount": "1500,00", "beneficiary": str(heir.pk), **VALID_PIX})
    payment = Payment.objects.get(claim=claim)
    Message.objects.all().delete()
    acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": "E123",
        "paid_on": timezone.localdate().isoformat(), "reason": "Cheque nominal compensado."})
    return claim


def test_a_settled_payment_tells_the_heir_the_amount_the_day_and_the_key_type(
        paid, sale, smtp):
    mail, text, pdf = sent("pagamento", "maria@example.com", smtp)

    today = timezone.localdate()
    for body in (text, pdf):
        assert "Valor pago R$ 1.500,00" in body
        assert f"Data {today:%d/%m/%Y}" in body
        assert "PIX, chave do tipo e-mail" in body
        assert "maria@example.com" not in body.split("Favorecido")[1].split("Prezado")[0]
        assert_formal(body, reader="Maria da Silva", insured=sale.insured_name)
    credit, working_days = today, 0
    while working_days < 2:  # two working days after the bank paid
        credit += dt.timedelta(days=1)
        working_days += credit.weekday() < 5
    assert f"até {credit:%d/%m/%Y}" in pdf


def test_closing_with_payment_tells_the_family_what_was_paid_to_whom(
        paid, supervisor, sale, smtp):
    Message.objects.all().delete()
    acted(supervisor, paid, "finalizar", {"reason": ""})

    mail, text, pdf = sent("encerramento", "pedro@example.com", smtp)

    assert "sinistro encerrado" in mail.subject
    today = timezone.localdate()
    for body in (text, pdf):
        assert f"Maria da Silva R$ 1.500,00, em {today:%d/%m/%Y}" in body
        assert "Total pago R$ 1.500,00" in body
        assert "chave" not in body  # where the money went is the payee's own news
        assert_formal(body, reader="Pedro da Silva", insured=sale.insured_name)


def test_asking_for_documents_names_each_one_why_and_the_date_it_depends_on(
        reviewed, analyst, sale, smtp):
    claim = acted(analyst, reviewed, "aprovar-documentacao")
    Message.objects.all().delete()
    acted(analyst, claim, "solicitar-documentos", {
        "new_type": "laudo-medico", "new_title": "Laudo médico",
        "note": "Para confirmar a causa da morte."})

    mail, text, pdf = sent("solicitacao-documentos", "pedro@example.com", smtp)

    for body in (text, pdf):
        assert "Laudo médico. Por quê: Para confirmar a causa da morte." in body
        assert re.search(r"entregues hoje, o prazo vence em \d\d/\d\d/\d{4}", body)
        assert_formal(body, reader="Pedro da Silva", insured=sale.insured_name)


def test_the_death_claim_denial_is_formal_and_gives_the_reconsideration_day(
        reviewed, supervisor, sale, smtp, settings):
    settings.RECONSIDERATION_DAYS = 30
    claim = acted(supervisor, reviewed, "recusar", {
        **DENIAL, "reason": "A morte decorreu de doença preexistente."})
    claim.refresh_from_db()

    mail, text, pdf = sent("recusa", "pedro@example.com", smtp)

    until = timezone.localdate(claim.denied_at) + dt.timedelta(days=30)
    for body in (text, pdf):
        assert_formal(body, reader="Pedro da Silva", insured=sale.insured_name)
        assert "decidimos que o sinistro não tem cobertura" in body
        assert f"revista até {until:%d/%m/%Y}" in body
        assert "podem ser baixados na página do sinistro, na seção" in body
        assert "Seus documentos" in body
        assert "fundamentos da decisão" in body
    assert "/segurado/acesso/" in text  # the page's link, made when the e-mail left


def test_every_letter_template_is_free_of_the_faults(reviewed, sale, smtp):
    """Each kind of letter, written for the family of a death claim: a formal greeting,
    condolences, the deceased and the policy, no "ele" for the claim, no "em até N
    dias", the insurer identified and a named signatory."""
    from correspondence import services
    from correspondence.models import PRIVATE_LETTERS, Letter

    payment = Payment(claim=reviewed, beneficiary=reviewed.beneficiaries.get(),
                      amount=Decimal("10.00"), beneficiary_name="Maria da Silva", method="pix",
                      destination="pix:maria@example.com", paid_on=timezone.localdate())
    # A private letter (the answer to a person's data request) has its own writer.
    for letter in (letter for letter in Letter if letter not in PRIVATE_LETTERS):
        subject = payment if letter == Letter.PAYMENT else None
        for message in services.write_letter(reviewed, letter, subject=subject):
            assert_formal(flat(message.body_text), reader=message.recipient_name,
                          insured=sale.insured_name)


def test_the_channel_lists_every_new_letter_and_the_api_names_them(
        reviewed, analyst, api, smtp):
    acted(analyst, reviewed, "aprovar-documentacao", {"request_payment_data": "on"})

    letters = api.get(f"/api/v1/sinistros/{reviewed.number}/cartas").json()["cartas"]

    assert {(c["carta"], c["destinatario"]["email"]) for c in letters} == {
        ("documentacao-aprovada", "pedro@example.com"),
        ("solicitacao-dados-pagamento", "pedro@example.com"),
        ("solicitacao-dados-pagamento", "maria@example.com"),
    }
    schema = api.get("/api/v1/schema/?format=json").json()
    description = schema["paths"]["/api/v1/sinistros/{numero-sinistro}/cartas"]["get"][
        "description"]
    for words in ("documentação aprovada", "solicitação de dados de pagamento",
                  "sinistro reaberto", "pagamento", "encerramento"):
        assert words in description


def test_the_demo_cnpj_is_valid_and_a_wrong_one_stops_the_start(settings):
    from stdnum.br import cnpj

    from correspondence.checks import insurer_cnpj

    assert cnpj.is_valid(settings.INSURER_CNPJ)
    assert insurer_cnpj() == []
    settings.INSURER_CNPJ = "12.345.678/0001-96"
    [error] = insurer_cnpj()
    assert error.id == "correspondence.E001"


def test_the_hosted_page_lists_the_new_letters_and_opens_them(
        reviewed, analyst, api, sale, smtp):
    from tests.support.hosted import generate_link, open_session

    acted(analyst, reviewed, "aprovar-documentacao", {"request_payment_data": "on"})
    person = open_session(generate_link(api, sale)["url"])

    page = person.get(f"/segurado/sinistros/{reviewed.number}").content.decode()

    assert "Documentação aprovada" in page and "Solicitação de dados de pagamento" in page
    approved = Message.objects.get(letter="documentacao-aprovada")
    letter = person.get(f"/segurado/sinistros/{reviewed.number}/cartas/{approved.pk}")
    assert "a documentação foi aprovada" in letter.content.decode()
    # Maria's own letter (her share) is hers, not on the contact person's pages.
    hers = Message.objects.get(letter="solicitacao-dados-pagamento",
                               recipient_email="maria@example.com")
    assert person.get(f"/segurado/sinistros/{reviewed.number}/cartas/{hers.pk}").status_code == 404


def test_a_living_insured_is_greeted_formally_without_condolences(db):
    from correspondence import services
    from correspondence.models import Letter
    from tests.support.factories import ClaimFactory

    claim = ClaimFactory(coverage__name="cobertura/perda-de-renda",
                         nature="perda-de-renda-desemprego",
                         coverage__sale__insured_name="Carla Nunes")

    [message] = services.write_letter(claim, Letter.RECEIVED)

    text = flat(message.body_text)
    assert "Prezado(a) Pedro Contato," in text and "Olá" not in text
    assert "condolências" not in text and "falecimento" not in text
    assert "Segurado(a) Carla Nunes" in text and "Ocorrência em" in text
    assert f"Seguro (id da venda) {claim.sale_id}" in text  # no policy number on file
    assert "CNPJ 12.345.678/0001-95" in text and "Helena Duarte Lima" in text


@pytest.mark.parametrize("destination, method, words", [
    ("conta:60701190:1234:5678901", "ted", "TED, conta terminada em 8901"),
    ("conta:60701190:1234:5678901", "pix", "PIX, conta terminada em 8901"),
    ("pix:+5511912345678", "pix", "PIX, chave do tipo telefone"),
    ("pix:52998224725", "pix", "PIX, chave do tipo CPF"),
    ("pix:123e4567-e89b-12d3-a456-426614174000", "pix", "PIX, chave do tipo aleatória"),
    ("", "boleto", "Boleto"),
])
def test_the_payment_letter_shows_where_the_money_went_without_the_whole_destination(
        destination, method, words):
    from correspondence.letters import destination_words

    assert destination_words(Payment(destination=destination, method=method)) == words


def test_asking_for_payment_data_before_anyone_is_named_asks_who_receives(db):
    from correspondence import services
    from correspondence.models import Letter
    from tests.support.factories import ClaimFactory

    claim = ClaimFactory(status="pendente-de-dados-de-pagamento")

    [message] = services.write_letter(claim, Letter.PAYMENT_DATA_REQUESTED)

    assert message.recipient_email == "pedro@example.com"
    assert "precisamos saber quem a recebe" in flat(message.body_text)
