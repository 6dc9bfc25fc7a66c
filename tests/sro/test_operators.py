"""What operators see of the SRO: "Registros SRO" filtered by where each stands, a retry
after a correction, the claim page's section, the supervisor's card, the metrics and
``manage.py sro_status``."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from sro.models import CoverageCode, Submission
from tests.support.lifecycle import logged_in, open_claim, staff
from tests.support.factories import SaleFactory, CoverageFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_media", "codes")]
LIST = "/admin/sro/submission/"


@pytest.fixture
def situations(api, sale, channel):
    """One submission in each situation: pending, late, refused, incomplete, sent."""
    claims = {}
    for name in ("pendente", "atrasado", "recusado", "incompleto", "enviado"):
        other = SaleFactory(channel=channel)
        CoverageFactory(sale=other, name="cobertura/morte", max_indemnity="50000.00")
        claims[name] = open_claim(api, other)
    rows = Submission.objects.filter
    rows(registration__claim=claims["atrasado"]).update(deadline=dt.date(2026, 1, 2))
    rows(registration__claim=claims["recusado"]).update(
        status="recusado", last_error="SIN-422 Campo inválido: data_ocorrencia",
        errors=[{"codigo": "SIN-422", "titulo": "Campo inválido", "detalhe": "data_ocorrencia"}])
    rows(registration__claim=claims["incompleto"]).update(
        status="incompleto", missing=["A cobertura cobertura/morte não tem grupo/ramo."])
    rows(registration__claim=claims["enviado"]).update(
        status="enviado", sent_at=timezone.now(), batch_id="L" * 24)
    return claims


@pytest.mark.parametrize("situation", ["pendente", "atrasado", "recusado", "incompleto",
                                       "enviado"])
def test_the_list_filters_by_situation(supervisor, situations, situation):
    response = supervisor.get(LIST, {"situacao": situation})

    assert response.status_code == 200
    page = response.content.decode()
    shown = {name for name, claim in situations.items() if claim.number in page}
    expected = {"pendente": {"pendente", "atrasado"}, "atrasado": {"atrasado"},
                "recusado": {"recusado"}, "incompleto": {"incompleto"},
                "enviado": {"enviado"}}[situation]
    assert shown == expected


def test_the_list_says_when_nothing_is_sent_and_why_each_waits(supervisor, situations,
                                                               settings):
    settings.SRO_API_URL = ""
    page = supervisor.get(LIST).content.decode()

    assert "SRO_API_URL vazio" in page
    assert "SIN-422 Campo inválido: data_ocorrencia" in page
    assert "não tem grupo/ramo" in page
    assert "(atrasado)" in page


def test_a_supervisor_retries_a_refused_registration_after_the_correction(supervisor,
                                                                         situations):
    refused = Submission.objects.get(registration__claim=situations["recusado"])

    response = supervisor.post(LIST, {"action": "retry", "_selected_action": [refused.pk]})

    assert response.status_code == 302
    refused.refresh_from_db()
    assert (refused.status, refused.errors, refused.last_error) == ("pendente", [], "")


def test_an_analyst_sees_the_registrations_but_cannot_retry(situations, db):
    analyst = logged_in(staff("ana", "Analista de sinistros"))
    refused = Submission.objects.get(registration__claim=situations["recusado"])

    assert analyst.get(LIST).status_code == 200
    analyst.post(LIST, {"action": "retry", "_selected_action": [refused.pk]})

    refused.refresh_from_db()
    assert refused.status == "recusado"


def test_a_registration_is_read_only(supervisor, situations):
    sent = Submission.objects.get(registration__claim=situations["enviado"])
    url = f"{LIST}{sent.pk}/change/"

    page = supervisor.get(url).content.decode()
    assert situations["enviado"].number in page and "codigo_sinistro" in page
    assert supervisor.post(url, {}).status_code == 405


def test_the_claim_page_shows_its_registrations(supervisor, situations):
    claim = situations["recusado"]

    page = supervisor.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "Registro SRO (SUSEP)" in page
    assert "Recusado pela registradora" in page and "data_ocorrencia" in page
    assert "6 – Avaliação inicial" in page


def test_the_supervisors_dashboard_counts_late_refused_and_incomplete(supervisor,
                                                                      situations):
    page = supervisor.get("/admin/").content.decode()

    assert "Registros SRO" in page
    assert '<span class="n">1</span>atrasado' in page
    assert '<span class="n">1</span>recusado' in page
    assert '<span class="n">1</span>incompleto' in page
    assert "(prazo mais antigo: 02/01/2026)" in page


def test_the_dashboard_reads_as_many_queries_however_many_registrations(
        supervisor, situations, api, channel):
    with CaptureQueriesContext(connection) as few:
        supervisor.get("/admin/")
    for _ in range(3):
        other = SaleFactory(channel=channel)
        CoverageFactory(sale=other, name="cobertura/morte", max_indemnity="100.00")
        open_claim(api, other)
    Submission.objects.update(deadline=dt.date(2026, 1, 5))
    with CaptureQueriesContext(connection) as more:
        supervisor.get("/admin/")
    assert len(more) == len(few)


def test_sro_status_reports_and_fails_its_check_when_something_is_late(situations, capsys):
    call_command("sro_status")
    out = capsys.readouterr().out
    assert "Atrasados: 1 (prazo mais antigo: 02/01/2026)" in out
    assert "Recusados pela registradora: 1" in out

    with pytest.raises(SystemExit) as exit_:
        call_command("sro_status", "--check")
    assert exit_.value.code == 1


def test_sro_status_check_passes_when_all_is_in_time(api, sale):
    open_claim(api, sale)
    call_command("sro_status", "--check")  # pending within its deadline: no alarm


def test_the_metrics_count_each_situation(client, settings, situations):
    settings.METRICS_TOKEN = "t" * 40

    text = client.get("/metricas", HTTP_AUTHORIZATION="Bearer " + "t" * 40).content.decode()

    assert 'sinistros_sro_registrations{situation="pending"} 2.0' in text
    assert 'sinistros_sro_registrations{situation="late"} 1.0' in text
    assert 'sinistros_sro_registrations{situation="refused"} 1.0' in text
    assert 'sinistros_sro_registrations{situation="incomplete"} 1.0' in text


def test_operators_set_a_coverages_susep_codes_and_bad_ones_are_refused(supervisor):
    response = supervisor.post("/admin/sro/coveragecode/add/", {
        "coverage_name": "cobertura/desemprego", "group_branch": "97", "coverage_code": "x"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "Quatro dígitos" in page and "Até cinco dígitos" in page
    supervisor.post("/admin/sro/coveragecode/add/", {
        "coverage_name": "cobertura/desemprego", "group_branch": "0977",
        "coverage_code": "00104"})
    assert CoverageCode.objects.filter(coverage_name="cobertura/desemprego").exists()


def test_a_registration_accepted_after_its_deadline_says_so(supervisor, situations):
    sent = Submission.objects.get(registration__claim=situations["enviado"])
    Submission.objects.filter(pk=sent.pk).update(deadline=dt.date(2026, 1, 2))

    listed = supervisor.get(LIST, {"situacao": "enviado"}).content.decode()
    claim_page = supervisor.get(
        f"/admin/claims/claim/{situations['enviado'].pk}/change/").content.decode()

    assert "02/01/2026 (enviado fora do prazo)" in listed
    assert "(enviado fora do prazo)" in claim_page
