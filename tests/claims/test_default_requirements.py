"""The documents each coverage asks for by default are each coverage's real documents,
as docs/claims.md ("Default requirements") lists them with their sources: the file
``load_default_requirements`` loads, that table and what a claim asks for agree."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from claims.coverages import CATALOGUE, default_documents, default_documents_table
from claims.models import DocumentRequirement
from tests.support.api import opening_body

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "claims.md"


def documented() -> list[tuple[str, str, str, str]]:
    """(cobertura, natureza, tipo, título) of each row of the documented table."""
    text = DOC.read_text(encoding="utf-8")
    table = re.search(r"<!-- default-requirements:start -->\n(.*?)<!-- default-requirements:end -->",
                      text, re.S).group(1)
    rows = []
    for line in table.strip().splitlines()[2:]:
        cells = [cell.strip().strip("`") for cell in line.strip("|").split("|")]
        rows.append(tuple(cells))
    return rows


def test_the_shipped_file_is_the_documented_table():
    assert [(d.coverage, d.nature, d.doc_type, d.title) for d in default_documents_table()
            ] == documented()


def test_every_coverage_of_the_catalogue_has_its_own_documents():
    assert {d.coverage for d in default_documents_table()} == set(CATALOGUE)
    for coverage in CATALOGUE.values():
        for nature in coverage.natures or ("",):
            assert {d.doc_type for d in default_documents(coverage.name, nature)} > {"cpf-cnpj"}


def test_a_death_asks_for_the_death_certificate_and_never_a_medical_report():
    for nature in ("morte-natural", "morte-acidental"):
        titles = [d.title for d in default_documents("cobertura/morte", nature)]
        assert titles[:3] == ["Certidão de óbito", "Documento de identificação do segurado com CPF",
                              "Documento de identificação com CPF de cada beneficiário"]
        assert not any("médico" in title.lower() for title in titles)
    assert [d.title for d in default_documents("cobertura/morte", "morte-acidental")][3:] == [
        "Boletim de ocorrência", "Laudo de necropsia do IML"]
    assert default_documents("cobertura/desconhecida") == []


# (cobertura, natureza) -> the types a claim asks for once the defaults are loaded.
EXPECTED = {
    ("cobertura/morte", "morte-natural"): [
        "certidao-de-obito", "cpf-cnpj", "documentos-dos-beneficiarios"],
    ("cobertura/morte", "morte-acidental"): [
        "certidao-de-obito", "cpf-cnpj", "documentos-dos-beneficiarios",
        "boletim-de-ocorrencia", "laudo-iml"],
    ("cobertura/invalidez-permanente", None): ["cpf-cnpj", "laudo-medico", "exames"],
    ("cobertura/perda-de-renda", "perda-de-renda-desemprego"): [
        "cpf-cnpj", "termo-de-rescisao", "carteira-de-trabalho"],
    ("cobertura/perda-de-renda", "perda-de-renda-invalidez-fisica"): ["cpf-cnpj", "laudo-medico"],
}


@pytest.mark.parametrize(("coverage", "nature"), list(EXPECTED))
def test_a_claim_on_each_coverage_asks_for_its_documented_list(api, sale, coverage, nature):
    call_command("load_default_requirements", stdout=StringIO())
    assert DocumentRequirement.objects.count() == len(documented())

    response = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro",
                        opening_body(cobertura=coverage, natureza=nature), format="json")

    assert response.status_code == 200, response.content
    pending = response.json()["documentacao"]["documentos-pendentes"]
    titles = {d.doc_type: d.title for d in default_documents(coverage, nature or "")}
    assert sorted(p["tipo"] for p in pending) == sorted(EXPECTED[(coverage, nature)])
    assert {p["tipo"]: p["titulo"] for p in pending} == titles
    assert all(p["recebido"] is False for p in pending)
