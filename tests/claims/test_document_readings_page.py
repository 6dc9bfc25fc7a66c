"""What an analyst sees of the readings on the claim page: beside each received file,
the kind, the fields read, each check with ✔/✘/? and "leitura incerta"; in the same
number of queries however many files were read."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims import services
from tests.support.certificates import death_certificate_lines, matricula_for, text_pdf
from tests.support.readings import DIED, NAME, death_claim, receive

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


def certificate(cpf="529.982.247-25", valid=True):
    return text_pdf(death_certificate_lines(name=NAME, cpf=cpf, died=DIED,
                                            matricula_text=matricula_for(valid=valid)))


def received_section(page: str) -> str:
    return page.split("<h3>Recebidos</h3>")[1].split("</table>")[0]


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_each_file_shows_what_was_read_and_how_it_compares(analyst):
    claim = death_claim(occurred=DIED + dt.timedelta(days=3))
    good = receive(claim, certificate(), file_name="certidao.pdf")
    bad = receive(claim, certificate(cpf="111.444.777-35", valid=False), file_name="outra.pdf")
    unsure = receive(claim, certificate(cpf="não informado"), file_name="sem-cpf.pdf")
    receive(claim, certificate(), file_name="pendente.pdf")
    for document in (good, bad, unsure):
        services.read_document(file_id=document.pk)

    section = text_of(received_section(
        analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()))

    good_row = section.split("certidao.pdf")[1].split("outra.pdf")[0]
    assert "Certidão de óbito" in good_row and "texto do PDF" in good_row
    assert f"Nome {NAME}" in good_row and "CPF 529.982.247-25" in good_row
    assert "Data do óbito 12/03/2026" in good_row
    assert "Matrícula 104539 01 55 2026 4 00012 021 0000123-14" in good_row
    assert "✔ nome confere" in good_row and "✔ CPF confere" in good_row
    assert "✘ data diverge em 3 dias" in good_row and "✔ matrícula válida" in good_row
    bad_row = section.split("outra.pdf")[1].split("sem-cpf.pdf")[0]
    assert "✘ CPF diverge" in bad_row and "✘ matrícula inválida" in bad_row
    assert "lido: ***.444.777-**; segurado: ***.982.247-**" in bad_row
    unsure_row = section.split("sem-cpf.pdf")[1].split("pendente.pdf")[0]
    assert "leitura incerta" in unsure_row and "? CPF não encontrado" in unsure_row
    assert "leitura incerta" not in good_row
    assert "leitura pendente" in section.split("pendente.pdf")[1]


def test_the_page_reads_no_more_for_more_readings(analyst, django_assert_max_num_queries):
    claim = death_claim()
    services.read_document(file_id=receive(claim, certificate()).pk)
    url = f"/admin/claims/claim/{claim.pk}/change/"
    with CaptureQueriesContext(connection) as one:
        assert analyst.get(url).status_code == 200
    for index in range(4):
        services.read_document(file_id=receive(claim, certificate(),
                                               file_name=f"c{index}.pdf").pk)
    with django_assert_max_num_queries(len(one)):
        page = analyst.get(url).content.decode()
    assert text_of(received_section(page)).count("✔ nome confere") == 5
