"""The reference data ops keep: the table of banks (refresh_banks) and the documents
each coverage asks for by default (load_default_requirements)."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from claims.banks import bank_by_code, find_bank, forget_banks
from claims.models import Bank, DocumentRequirement

pytestmark = pytest.mark.django_db

HEADER = ("COMPE,ISPB,Document,LongName,ShortName,Network,Type,PixType,Charge,CreditDocument,"
          "LegalCheque,DetectaFlow,PCR,PCRP,SalaryPortability,Products,Url,LogoUrl,"
          "DateOperationStarted,DatePixStarted,DateRegistered,DateUpdated\n")


@pytest.fixture(autouse=True)
def fresh_bank_cache():
    """The table is cached per process: a test's table must not outlive its transaction."""
    forget_banks()
    yield
    forget_banks()


def run(command, *args) -> str:
    out = StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def test_the_shipped_table_knows_the_banks_people_name():
    assert Bank.objects.count() > 400
    assert bank_by_code("341").name == "ITAÚ UNIBANCO S.A."
    assert bank_by_code("00000000").compe == "001"  # Banco do Brasil by its ISPB
    assert [b.compe for b in find_bank("banco do brasil")] == ["001"]
    assert [b.compe for b in find_bank("001 Banco do Brasil S.A.")] == ["001"]
    assert len(find_bank("Itaú")) > 1  # several: the form asks which


def test_refresh_banks_takes_the_data_sets_csv_and_replaces_the_table(tmp_path):
    data = tmp_path / "bancos.csv"
    data.write_text("\ufeff" + HEADER
                    + "001,00000000,00.000.000/0001-91,Banco do Brasil S.A.,BB,RSFN,,,,,,,,,,,,,,,,\n"
                    + ",99999999,,Nova Fintech S.A.,NOVA,,,,,,,,,,,,,,,,,\n", encoding="utf-8")

    out = run("refresh_banks", str(data))

    assert "2 bancos" in out
    assert set(Bank.objects.values_list("ispb", "compe")) == {("00000000", "001"), ("99999999", "")}
    assert bank_by_code("99999999").name == "Nova Fintech S.A."  # every process sees it


@pytest.mark.parametrize("text, says", [
    ("compe,ispb,name,short_name\n001,123,Banco,B\n", "Linha inválida"),
    ("compe,ispb,name,short_name\n1,00000000,Banco,B\n", "Código COMPE inválido"),
    ("compe,ispb,name,short_name\n001,00000000,A,A\n002,00000000,B,B\n", "repete um ISPB"),
    ("compe,ispb,name,short_name\n", "não tem nenhum banco"),
])
def test_a_bad_file_changes_nothing_and_says_why(tmp_path, text, says):
    before = Bank.objects.count()
    data = tmp_path / "bancos.csv"
    data.write_text(text, encoding="utf-8")

    with pytest.raises(CommandError, match=says):
        run("refresh_banks", str(data))
    assert Bank.objects.count() == before


def test_default_requirements_are_created_once_and_edits_stay():
    first = run("load_default_requirements")
    laudo = DocumentRequirement.objects.get(coverage_name="cobertura/invalidez-permanente",
                                            doc_type="laudo-medico")
    laudo.title = "Laudo médico com CID"
    laudo.save()

    again = run("load_default_requirements")

    assert "12 criado(s)" in first and "0 criado(s), 12 já existiam" in again
    laudo.refresh_from_db()
    assert laudo.title == "Laudo médico com CID"
