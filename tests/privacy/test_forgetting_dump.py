"""THE DUMP TEST: a claim with a full life through the real API and services (documents
in a real S3 server, the heir's PIX key, letters and their stored PDFs, a payment sent
to the bank in a CNAB 240 file and settled by its return, webhook deliveries, SRO
submissions), then its retention clock runs out and the run anonymises it. In a
``pg_dump`` of the whole test database (bytea columns decoded) no table holds the
person's name, CPF (digits or formatted), e-mail, phone or PIX key; the files are gone
from the bucket; another person's claim is untouched."""

import datetime as dt
import re
import subprocess

import pytest
import requests
from django.db import connection

from claims.folding import fold
from claims.models import DocumentFile
from correspondence.downloads import stored_pdf
from correspondence.models import Message
from payouts.cnab240 import read_return
from payouts.models import BankReturn, Remittance
from privacy.forgetting import runs
from privacy.forgetting.redaction import unaccented_upper
from sro.models import CoverageCode, Submission
from tests.payouts.conftest import (bank_dirs, boss, paying_account,  # noqa: F401
                                    register, treasury_roles)
from tests.payouts.test_round_trip import send_and_answer
from tests.support.concurrency import postgres_only
from tests.support.deliveries import make_subscription
from tests.support.documents import PDF, upload_body
from tests.support.factories import (ClaimFactory, CoverageFactory, DocumentRequirementFactory,
                                     SaleFactory)
from tests.support.lifecycle import acted, open_claim
from tests.support.s3 import BUCKET, empty_bucket, use_s3
from webhooks import relay
from webhooks.models import Delivery
from whitelabel.models import AccessLink

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]

INSURED = "Joana Conceição Prado"
INSURED_CPF = "39053344705"
INSURED_EMAIL = "joana.prado@example.com"
INSURED_PHONE = "912345678"
REQUESTER = "Pedro Albuquerque Prado"
REQUESTER_EMAIL = "pedro.prado@example.com"
HEIR = "Maria Helena Prado"
HEIR_CPF = "52998224725"
HEIR_PIX = "maria.helena@example.com"
OTHER = "Carlos Outro Ferreira"
OTHER_CPF = "11144477735"


@pytest.fixture
def bucket(settings, s3_server):
    client = use_s3(settings, s3_server)
    yield client
    empty_bucket(client)


def keys(client) -> set[str]:
    return {item["Key"] for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", [])}


def lived_claim(api, channel, analyst, boss, bank_dirs, capsys):  # noqa: F811
    sale = SaleFactory(channel=channel, insured_name=INSURED, insured_cpf=INSURED_CPF,
                       insured_email=INSURED_EMAIL, insured_phone_area_code="11",
                       insured_phone_number=INSURED_PHONE)
    CoverageFactory(sale=sale, name="cobertura/morte", max_indemnity="50000.00")
    CoverageCode.objects.create(coverage_name="cobertura/morte", group_branch="0977",
                                coverage_code="00101")
    make_subscription(channel, "https://hooks.parceiro.example/sinistros", ["*"])
    for doc_type, title in [("certidao-de-obito", "Certidão de óbito"),
                            ("cpf-cnpj", "Documento com CPF")]:
        DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type=doc_type,
                                   title=title)
    # The channel hands the insured person a link to the hosted pages, with the heir's
    # payment details to offer.
    link = api.post("/api/v1/sinistros/whitelabel/gerar-url", {
        "id-venda": str(sale.pk), "id-usuario": INSURED_EMAIL, "detalhes-pagamento": {
            "beneficiario": {"tipo": "outro", "nome": HEIR, "cpf-ou-cnpj": HEIR_CPF,
                             "parentesco": "conjuge", "participacao": 100},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": HEIR_PIX}}}},
        format="json")
    assert link.status_code == 200, link.content
    claim = open_claim(api, sale, **{
        "solicitante": {"nome": REQUESTER, "cpf": HEIR_CPF},
        "pessoa-para-contato": {"nome": REQUESTER, "email": REQUESTER_EMAIL,
                                "telefone": {"codigo-area": "21",
                                             "numero-telefone": "998877665"}},
        "relato-do-ocorrido": f"{INSURED} faleceu; CPF {INSURED_CPF}.",
        "detalhes-pagamento": {
            "beneficiario": {"tipo": "outro", "nome": HEIR, "cpf-ou-cnpj": HEIR_CPF,
                             "parentesco": "conjuge", "participacao": 100},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": HEIR_PIX}}}})
    for doc_type in ("certidao-de-obito", "cpf-cnpj"):
        answer = api.post(f"/api/v1/sinistros/{claim.number}/enviar-documento",
                          upload_body(file_name=f"{HEIR} {doc_type}.pdf", tipo=doc_type),
                          format="json").json()
        assert requests.put(answer["url-envio"], data=PDF, timeout=10,
                            headers={"Content-Type": "application/pdf"}).status_code == 200
    assert api.get(f"/api/v1/sinistros/{claim.number}").status_code == 200
    claim.refresh_from_db()
    claim = acted(analyst, claim, "aprovar-documentacao")
    register(claim, boss, amount=str(claim.amount))
    send_and_answer(bank_dirs, capsys)
    claim = acted(analyst, claim, "finalizar", {"reason": "Pago."})
    for message in Message.objects.filter(claim=claim):
        stored_pdf(message)  # the letters' PDFs, in the bucket
    relay.fan_out_pending()
    return claim


def dump_text() -> str:
    db = connection.settings_dict
    dump = subprocess.run(
        ["/usr/bin/pg_dump", "--data-only", "-h", db["HOST"], "-p", str(db["PORT"]),
         "-U", db["USER"], db["NAME"]], capture_output=True, check=True, timeout=120,
        env={"PGPASSWORD": db.get("PASSWORD") or ""}).stdout.decode()
    decoded = [bytes.fromhex(found).decode("latin-1")
               for found in re.findall(r"\\\\x((?:[0-9a-f]{2})+)", dump)]
    return dump + "\n".join(decoded)


def spellings(name: str) -> list[str]:
    return [name, unaccented_upper(name), fold(name)]


def test_nothing_of_the_person_is_left_in_the_database_nor_in_the_bucket(
        api, channel, analyst, boss, bank_dirs, capsys, bucket, settings,  # noqa: F811
        paying_account):  # noqa: F811
    claim = lived_claim(api, channel, analyst, boss, bank_dirs, capsys)
    other = ClaimFactory(coverage=CoverageFactory(sale=SaleFactory(
        insured_name=OTHER, insured_cpf=OTHER_CPF, insured_email="carlos@example.com")))
    stored = keys(bucket)
    # The life was full: every place personal data goes was written.
    assert DocumentFile.objects.filter(claim=claim).count() == 2
    assert Remittance.objects.exists() and BankReturn.objects.exists()
    assert Delivery.objects.filter(event__claim=claim).exists()
    assert Submission.objects.filter(registration__claim=claim).exists()
    assert Message.objects.filter(claim=claim).exists()
    assert AccessLink.objects.filter(sale=claim.sale).exists()
    assert len(stored) >= 3
    before = dump_text()
    for secret in (INSURED, HEIR, REQUESTER, INSURED_CPF, HEIR_CPF, HEIR_PIX, INSURED_EMAIL):
        assert secret in before  # the check below would see them
    assert unaccented_upper(HEIR) in before  # in the bank's files: bytea, decoded

    settings.RETENTION_YEARS = 0
    outcome = runs.run_retention(today=dt.date(2031, 1, 2), started_by="teste")

    assert outcome.claims == [claim.number]
    removed = claim.anonymisation.removed
    assert removed["arquivos"] == len(stored) and removed["arquivos_cnab_linhas"] >= 2
    dump = dump_text()
    secrets = [*spellings(INSURED), *spellings(HEIR), *spellings(REQUESTER),
               INSURED_CPF, "390.533.447-05", HEIR_CPF, "529.982.247-25",
               INSURED_EMAIL, REQUESTER_EMAIL, HEIR_PIX, INSURED_PHONE, "998877665"]
    left = {secret: dump.count(secret) for secret in secrets if secret in dump}
    assert left == {}
    assert keys(bucket) == set()
    # The bank's files keep their layout: the return still reads, order by order.
    assert read_return(bytes(BankReturn.objects.get().content))
    assert OTHER in dump and OTHER_CPF in dump
    other.refresh_from_db()
    assert other.sale.insured_name == OTHER
