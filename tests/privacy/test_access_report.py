"""The access report (LGPD art. 37): "who saw this person's data, and when", per claim
and per CPF, for the privacy role only, in Portuguese, a page at a time, its statements
flat; reading it is itself recorded; the claim page links to it."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.signals import ReadKind, data_read
from privacy.models import AccessRecord
from tests.privacy.access_support import privacy_officer, recorded
from tests.support.factories import BeneficiaryFactory, ClaimFactory, SaleFactory, make_channel
from tests.support.lifecycle import staff

pytestmark = pytest.mark.django_db

REPORT = "/admin/privacy/accessrecord/"
CPF = "52998224725"


@pytest.fixture
def officer(db):
    return privacy_officer()


@pytest.fixture
def person_claims(db):
    """The person (CPF 529.982.247-25) is the insured on one claim and a beneficiary on
    another; a third claim is someone else's."""
    insured_on = ClaimFactory(sale=SaleFactory(insured_cpf=CPF))
    beneficiary_on = ClaimFactory()
    BeneficiaryFactory(claim=beneficiary_on, tax_id=CPF)
    return insured_on, beneficiary_on, ClaimFactory()


def at(day: int, hour: int, minute: int) -> dt.datetime:
    return dt.datetime(2026, 11, day, hour, minute, tzinfo=ZoneInfo("America/Sao_Paulo"))


def test_the_report_of_a_claim_says_who_read_it_how_and_when(officer, settings, db):
    settings.TIME_ZONE = "America/Sao_Paulo"
    claim = ClaimFactory()
    analyst = staff("ana", None)
    analyst.first_name, analyst.last_name = "Ana", "Souza"
    analyst.save()
    channel = make_channel("Banco Parceiro")
    AccessRecord.objects.create(claim=claim, kind="pagina", user=analyst, at=at(3, 9, 5))
    AccessRecord.objects.create(claim=claim, kind="api", channel=channel, at=at(4, 14, 30))
    AccessRecord.objects.create(claim=claim, kind="documento", at=at(5, 20, 0))

    page = officer.get(f"{REPORT}?sinistro={claim.number}").content.decode()

    assert f"Acessos ao sinistro {claim.number}" in page
    rows = page.split('id="acessos"', 1)[1]
    expected = [("05/11/2026 20:00", "Download de documento",
                 "Titular, pela página do segurado (link de acesso)"),
                ("04/11/2026 14:30", "Leitura pela API", "Canal Banco Parceiro"),
                ("03/11/2026 09:05", "Página do sinistro", "Ana Souza")]
    positions = [rows.index(moment) for moment, _, _ in expected]
    assert positions == sorted(positions)  # newest first
    for moment, kind, reader in expected:
        assert moment in rows and kind in rows and reader in rows
    assert "3 acessos" in page


def test_the_report_of_a_cpf_lists_its_claims_with_the_roles_and_their_readings(
        officer, person_claims, analyst):
    insured_on, beneficiary_on, someone_elses = person_claims
    for claim in (insured_on, beneficiary_on, someone_elses):
        assert analyst.get(f"/admin/claims/claim/{claim.pk}/change/").status_code == 200

    page = officer.get(f"{REPORT}?cpf=529.982.247-25").content.decode()

    assert "Sinistros do CPF 529.982.247-25" in page
    claims_table = page.split('id="sinistros-do-cpf"', 1)[1].split("</section>", 1)[0]
    assert insured_on.number in claims_table and "segurado" in claims_table
    assert beneficiary_on.number in claims_table and "beneficiário" in claims_table
    readings = page.split('id="acessos"', 1)[1]
    assert readings.count("Página do sinistro") == 2
    assert someone_elses.number not in page


def test_reading_the_report_is_recorded_for_every_claim_it_named(officer, person_claims):
    insured_on, beneficiary_on, _ = person_claims

    officer.get(f"{REPORT}?cpf={CPF}")

    assert sorted(recorded()) == sorted([(insured_on.number, "relatorio", "paula", None),
                                         (beneficiary_on.number, "relatorio", "paula", None)])


def test_an_unknown_number_or_a_malformed_cpf_says_so(officer, db):
    assert "Nenhum sinistro com o número SIN-NADA." in officer.get(
        f"{REPORT}?sinistro=SIN-NADA").content.decode()
    assert "Informe um CPF com 11 dígitos." in officer.get(f"{REPORT}?cpf=123").content.decode()
    assert "Nenhum sinistro com este CPF." in officer.get(
        f"{REPORT}?cpf=11144477735").content.decode()
    assert AccessRecord.objects.count() == 0


def test_the_report_pages_fifty_readings_at_a_time(officer, db):
    claim = ClaimFactory()
    data_read([claim.pk], kind=ReadKind.CLAIM_PAGE)
    AccessRecord.objects.bulk_create(AccessRecord(claim=claim, kind="busca") for _ in range(60))

    first = officer.get(f"{REPORT}?sinistro={claim.number}").content.decode()
    second = officer.get(f"{REPORT}?sinistro={claim.number}&p=2").content.decode()

    assert "61 acessos" in first and "página 1 de 2" in first and "próxima" in first
    # The first view was recorded too: 62 on the second.
    assert "página 2 de 2" in second and "anterior" in second
    assert first.split('id="acessos"', 1)[1].count("<tr>") == 51  # the head and 50


@pytest.mark.parametrize("query", [f"cpf={CPF}", "sinistro={number}"])
def test_the_reports_statements_do_not_grow_with_the_readings(officer, person_claims, query):
    insured_on, beneficiary_on, _ = person_claims
    url = f"{REPORT}?{query.format(number=insured_on.number)}"
    officer.get(url)  # the session and the permissions, as on any later view

    def statements() -> int:
        with CaptureQueriesContext(connection) as context:
            assert officer.get(url).status_code == 200
        return len(context.captured_queries)

    few = statements()
    people = [staff(f"analista{i}", None) for i in range(5)]
    channels = [make_channel(f"Canal {i}") for i in range(3)]
    AccessRecord.objects.bulk_create(
        [AccessRecord(claim=insured_on, kind="pagina", user=person) for person in people]
        + [AccessRecord(claim=beneficiary_on, kind="api", channel=c) for c in channels] * 4)

    assert statements() == few
    # The claims, the readings' count and page, and the report's own INSERT.
    assert few <= (10 if query.startswith("cpf") else 9)


def test_only_the_privacy_role_reads_the_report_and_sees_the_claim_pages_link(
        officer, analyst, db):
    claim = ClaimFactory()

    assert analyst.get(f"{REPORT}?sinistro={claim.number}").status_code == 403
    assert "Acessos aos dados pessoais" not in analyst.get(
        f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    officer.user.groups.add(*analyst.user.groups.all())  # also an analyst: opens the page
    page = officer.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "Acessos aos dados pessoais" in page
    assert f'href="{REPORT}?sinistro={claim.number}"' in page


def test_nobody_adds_changes_or_deletes_a_record_in_the_admin(officer, db):
    claim = ClaimFactory()
    data_read([claim.pk], kind=ReadKind.CLAIM_PAGE)
    record = AccessRecord.objects.get()

    assert officer.get(f"{REPORT}add/").status_code == 404
    assert officer.get(f"{REPORT}{record.pk}/change/").status_code == 404
    assert officer.get(f"{REPORT}{record.pk}/delete/").status_code == 404
