"""The requests' admin, for the privacy role only: registering one (the simplified answer
at once), the list with the overdue in red words and its filter, the dashboard card, the
answer and the export's downloads, each a recorded reading of every claim included."""

import datetime as dt

import pytest
from django.utils import timezone

from privacy.models import AccessRecord, DataRequest
from privacy.requests import services
from tests.privacy.requests_support import PAULA, paula_two_claims, privacy_officer  # noqa: F401

pytestmark = pytest.mark.usefixtures("local_media")

LIST = "/admin/privacy/datarequest/"


def old_request(days: int, cpf: str = "52998224725") -> DataRequest:
    return services.register_request(
        cpf=cpf, kind="acesso", origin="carta", registered_by="usuario:teste",
        received_at=timezone.now() - dt.timedelta(days=days))


def test_only_the_privacy_role_sees_the_requests(privacy_officer, analyst):  # noqa: F811
    assert analyst.get(LIST).status_code == 403
    assert analyst.get(f"{LIST}add/").status_code == 403
    assert "Requisições de titulares" not in analyst.get("/admin/").content.decode()
    assert privacy_officer.get(LIST).status_code == 200


def test_registering_shows_the_number_and_the_term_at_once(privacy_officer):  # noqa: F811
    received = timezone.localtime().replace(microsecond=0)
    response = privacy_officer.post(f"{LIST}add/", {
        "cpf": "529.982.247-25", "kind": "acesso", "origin": "pagina", "details": "Quero "
        "meus dados.", "received_at_0": f"{received:%d/%m/%Y}",
        "received_at_1": f"{received:%H:%M:%S}"}, follow=True)

    request = DataRequest.objects.get()
    page = response.content.decode()
    assert (request.cpf, request.registered_by) == ("52998224725", "usuario:priscila")
    assert (f"Requisição nº {request.pk} registrada. Prazo da resposta completa: "
            f"{request.due_on:%d/%m/%Y}.") in page
    assert "529.982.247-25" in page and "Aberta, no prazo" in page


def test_a_bad_cpf_is_refused_on_the_form(privacy_officer):  # noqa: F811
    response = privacy_officer.post(f"{LIST}add/", {"cpf": "123", "kind": "acesso",
                                                    "origin": "carta"})
    assert "CPF inválido: 123." in response.content.decode()
    assert not DataRequest.objects.exists()


def test_the_list_and_the_card_show_the_overdue_in_red_words(privacy_officer):  # noqa: F811
    late = old_request(16)
    old_request(3, cpf="11144477735")

    page = privacy_officer.get(LIST).content.decode()
    assert f'<span class="overdue">Atrasada: prazo vencido em {late.due_on:%d/%m/%Y}</span>' \
        in page
    overdue_only = privacy_officer.get(f"{LIST}?situacao=atrasada").content.decode()
    assert overdue_only.count("Atrasada: prazo vencido") == 1
    assert "Aberta, no prazo" not in overdue_only

    home = privacy_officer.get("/admin/").content.decode()
    assert "Requisições de titulares (LGPD)" in home
    assert "atrasada (prazo de 15 dias vencido)" in home


def test_answering_and_downloading_records_a_reading_of_each_claim(
        privacy_officer, channel):  # noqa: F811
    heir_claim, own_claim = paula_two_claims(channel)
    request = old_request(1, cpf=PAULA)

    page = privacy_officer.post(f"{LIST}{request.pk}/responder/", follow=True)
    page = page.content.decode()
    request.refresh_from_db()
    assert request.status == "respondida"
    assert "Carta enviada a paula@example.com" in page
    assert not AccessRecord.objects.exists()

    pdf = privacy_officer.get(f"{LIST}{request.pk}/exportacao.pdf")
    assert pdf.status_code == 200
    assert b"".join(pdf.streaming_content)[:4] == b"%PDF"
    assert set(AccessRecord.objects.values_list("claim_id", "kind", "user__username")) == {
        (heir_claim.pk, "exportacao", "priscila"), (own_claim.pk, "exportacao", "priscila")}
    assert privacy_officer.get(f"{LIST}{request.pk}/exportacao.json").status_code == 200
    assert AccessRecord.objects.count() == 4
