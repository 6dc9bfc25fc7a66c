"""`manage.py import_sales FILE --channel SLUG`: loads a channel's sales from a JSON
file whose rows have the shape of GET /api/v1/vendas/{id}."""

import copy
import json
import uuid
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.models import Coverage, Sale
from claims.workflow import ClaimStatus
from tests.support.api import client_for
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory, make_channel, make_cpf

pytestmark = pytest.mark.django_db


def sale_row(n: int, **changes) -> dict:
    """A valid import row (the contract's sale document), numbered ``n``."""
    row = {
        "id-venda": str(uuid.uuid4()),
        "id-proposta": str(uuid.uuid4()),
        "id-combo-produto": str(uuid.uuid4()),
        "id-afiliacao": str(uuid.uuid4()),
        "status": "ativa",
        "segurado": {
            "nome": f"Segurado {n}",
            "cpf": make_cpf(200000 + n),
            "email": f"segurado{n}@example.com",
            "telefone": {"codigo-area": "11", "numero-telefone": f"9{n:08d}"[-9:]},
        },
        "inicio-vigencia": "2026-01-01",
        "fim-vigencia": "2027-12-31",
        "lmg": 60000.5,
        # Sorted by name, the order in which the API lists them.
        "coberturas": [
            {"cobertura": "cobertura/morte", "lmi": 50000, "ativa": True},
            {"cobertura": "cobertura/perda-de-renda", "lmi": 12000.25, "ativa": True},
        ],
        # The policy's number as issued (the SRO's apolice_codigo); a certificate only in
        # collective policies: empty reads back empty.
        "numero-apolice": f"77{n:08d}",
        "numero-certificado": "",
    }
    row.update(changes)
    return row


def write(tmp_path, rows, name="vendas.json"):
    path = tmp_path / name
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def import_file(path, channel):
    """Run the command; returns (stdout, stderr). Raises CommandError like the CLI."""
    out, err = StringIO(), StringIO()
    slug = channel if isinstance(channel, str) else channel.slug
    call_command("import_sales", str(path), "--channel", slug, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def import_failing(path, channel) -> tuple[str, str]:
    """Run the command expecting failure; returns (error message, stderr)."""
    err = StringIO()
    slug = channel if isinstance(channel, str) else channel.slug
    with pytest.raises(CommandError) as failure:
        call_command("import_sales", str(path), "--channel", slug, stdout=StringIO(), stderr=err)
    return str(failure.value), err.getvalue()


def coverage(sale_id, name) -> Coverage:
    return Coverage.objects.get(sale_id=sale_id, name=name)


# --- loading ---------------------------------------------------------------------------


def test_it_loads_the_rows_and_prints_a_summary_of_created_and_updated(tmp_path, channel):
    rows = [sale_row(1), sale_row(2), sale_row(3)]

    out, _ = import_file(write(tmp_path, rows), channel)

    assert "3 venda(s) importada(s): 3 criada(s), 0 atualizada(s)." in out
    sales = Sale.objects.filter(channel=channel)
    assert {str(pk) for pk in sales.values_list("pk", flat=True)} == {r["id-venda"] for r in rows}
    sale = Sale.objects.get(pk=rows[0]["id-venda"])
    assert sale.insured_name == "Segurado 1"
    assert sale.insured_cpf == rows[0]["segurado"]["cpf"]
    assert sale.max_guarantee == Decimal("60000.50")
    assert coverage(sale.pk, "cobertura/perda-de-renda").max_indemnity == Decimal("12000.25")
    assert Coverage.objects.count() == 6


def test_importing_the_same_file_twice_creates_nothing_new(tmp_path, channel):
    path = write(tmp_path, [sale_row(1), sale_row(2)])
    import_file(path, channel)

    out, _ = import_file(path, channel)

    assert "2 venda(s) importada(s): 0 criada(s), 2 atualizada(s)." in out
    assert Sale.objects.count() == 2
    assert Coverage.objects.count() == 4


def test_a_second_import_updates_changed_values(tmp_path, channel):
    row = sale_row(1)
    import_file(write(tmp_path, [row]), channel)
    row["lmg"] = 75000
    row["status"] = "cancelada"
    row["segurado"]["nome"] = "Segurado Renomeado"
    row["coberturas"][0]["lmi"] = 55000.1

    out, _ = import_file(write(tmp_path, [row]), channel)

    assert "0 criada(s), 1 atualizada(s)" in out
    sale = Sale.objects.get(pk=row["id-venda"])
    assert sale.max_guarantee == Decimal("75000.00")
    assert sale.status == Sale.Status.CANCELLED
    assert sale.insured_name == "Segurado Renomeado"
    assert coverage(sale.pk, "cobertura/morte").max_indemnity == Decimal("55000.10")
    assert sale.channel_id == channel.pk


def test_a_coverage_left_out_of_a_row_is_deactivated_not_deleted(tmp_path, channel):
    row = sale_row(1)
    import_file(write(tmp_path, [row]), channel)
    dropped = coverage(row["id-venda"], "cobertura/perda-de-renda")
    row["coberturas"] = [c for c in row["coberturas"] if c["cobertura"] != dropped.name]

    import_file(write(tmp_path, [row]), channel)

    dropped.refresh_from_db()  # still there: claims may point at it
    assert dropped.is_active is False
    assert coverage(row["id-venda"], "cobertura/morte").is_active is True


def test_a_coverage_listed_again_is_reactivated(tmp_path, channel):
    row = sale_row(1)
    full = copy.deepcopy(row)
    row["coberturas"] = row["coberturas"][:1]
    import_file(write(tmp_path, [full]), channel)
    import_file(write(tmp_path, [row]), channel)

    import_file(write(tmp_path, [full]), channel)

    assert coverage(row["id-venda"], "cobertura/perda-de-renda").is_active is True


def test_leaving_out_a_coverage_of_one_sale_does_not_touch_other_sales(tmp_path, channel):
    first, second = sale_row(1), sale_row(2)
    import_file(write(tmp_path, [first, second]), channel)
    first["coberturas"] = first["coberturas"][:1]

    import_file(write(tmp_path, [first]), channel)

    assert Coverage.objects.filter(sale_id=second["id-venda"], is_active=True).count() == 2


# --- refusals: nothing is loaded --------------------------------------------------------


def _invalid_cpf(row):
    cpf = row["segurado"]["cpf"]
    row["segurado"]["cpf"] = cpf[:-1] + str((int(cpf[-1]) + 1) % 10)  # wrong check digit


def _missing_field(row):
    del row["id-proposta"]


def _validity_backwards(row):
    row["inicio-vigencia"], row["fim-vigencia"] = "2027-12-31", "2026-01-01"


def _repeated_coverage(row):
    row["coberturas"].append({"cobertura": "cobertura/morte", "lmi": 1000, "ativa": True})


@pytest.mark.parametrize(
    "spoil, reason",
    [
        (_invalid_cpf, "CPF inválido"),
        (_missing_field, "id-proposta"),
        (_validity_backwards, "fim-vigencia"),
        (_repeated_coverage, "Coberturas repetidas"),
    ],
    ids=["invalid-cpf", "missing-field", "validity-backwards", "repeated-coverage"],
)
def test_a_bad_row_loads_nothing_and_names_its_index(tmp_path, channel, spoil, reason):
    rows = [sale_row(1), sale_row(2), sale_row(3)]
    spoil(rows[1])

    message, stderr = import_failing(write(tmp_path, rows), channel)

    bad_lines = [line for line in stderr.splitlines() if line.startswith("linha ")]
    assert len(bad_lines) == 1
    assert bad_lines[0].startswith("linha 1:")
    assert reason in bad_lines[0]
    assert "nada foi importado" in message
    assert not Sale.objects.exists()  # not even rows 0 and 2
    assert not Coverage.objects.exists()


def test_a_bad_row_leaves_previously_imported_sales_unchanged(tmp_path, channel):
    good = sale_row(1)
    import_file(write(tmp_path, [good]), channel)
    changed = copy.deepcopy(good)
    changed["lmg"] = 1
    changed["coberturas"] = changed["coberturas"][:1]
    bad = sale_row(2)
    _invalid_cpf(bad)

    import_failing(write(tmp_path, [changed, bad]), channel)

    sale = Sale.objects.get(pk=good["id-venda"])
    assert sale.max_guarantee == Decimal("60000.50")
    assert sale.coverages.filter(is_active=True).count() == 2
    assert Sale.objects.count() == 1


def test_every_bad_row_is_reported(tmp_path, channel):
    rows = [sale_row(1), sale_row(2), sale_row(3), "not a sale"]
    _missing_field(rows[0])
    _validity_backwards(rows[2])

    message, stderr = import_failing(write(tmp_path, rows), channel)

    indexes = [line.split(":")[0] for line in stderr.splitlines() if line.startswith("linha ")]
    assert indexes == ["linha 0", "linha 2", "linha 3"]
    assert message.startswith("3 linha(s) inválida(s) de 4")


def test_a_repeated_id_venda_in_the_file_is_reported(tmp_path, channel):
    first = sale_row(1)
    repeated = sale_row(2, **{"id-venda": first["id-venda"]})

    _, stderr = import_failing(write(tmp_path, [first, sale_row(3), repeated]), channel)

    assert f"linha 2: id-venda {first['id-venda']} repetido (linha 0)" in stderr
    assert not Sale.objects.exists()


def test_a_sale_of_another_channel_is_refused_and_left_untouched(tmp_path, channel):
    other = make_channel("Varejo Concorrente")
    theirs = SaleFactory(channel=other, max_guarantee=Decimal("1000.00"), insured_name="Deles")
    CoverageFactory(sale=theirs, name="cobertura/morte", max_indemnity=Decimal("900.00"))
    takeover = sale_row(2, **{"id-venda": str(theirs.pk)})

    message, stderr = import_failing(write(tmp_path, [sale_row(1), takeover]), channel)

    assert f"linha 1: id-venda {theirs.pk} pertence a outro canal" in stderr
    assert "nada foi importado" in message
    theirs.refresh_from_db()
    assert theirs.channel_id == other.pk
    assert theirs.insured_name == "Deles"
    assert theirs.max_guarantee == Decimal("1000.00")
    assert list(theirs.coverages.values_list("name", "max_indemnity", "is_active")) == [
        ("cobertura/morte", Decimal("900.00"), True)
    ]
    assert Sale.objects.filter(channel=channel).count() == 0


def test_an_unknown_channel_fails(tmp_path, db):
    message, _ = import_failing(write(tmp_path, [sale_row(1)]), "canal-que-nao-existe")

    assert "canal-que-nao-existe" in message
    assert "não encontrado" in message
    assert not Sale.objects.exists()


def test_a_missing_file_fails_with_a_clear_message(tmp_path, channel):
    missing = tmp_path / "nao-existe.json"

    message, _ = import_failing(missing, channel)

    assert message == f"Arquivo não encontrado: {missing}"


def test_a_path_that_cannot_be_read_fails_with_a_clear_message(tmp_path, channel):
    message, _ = import_failing(tmp_path, channel)  # a directory, not a file

    assert str(tmp_path) in message


def test_a_file_that_is_not_json_fails_with_a_clear_message(tmp_path, channel):
    path = tmp_path / "vendas.csv"
    path.write_text("id-venda;status\n123;ativa\n", encoding="utf-8")

    message, _ = import_failing(path, channel)

    assert message.startswith(f"{path} não é JSON válido")


def test_a_file_that_is_not_utf8_fails_with_a_clear_message(tmp_path, channel):
    path = tmp_path / "vendas.json"
    path.write_bytes(b"\xff\xfe[\x00]\x00")

    message, _ = import_failing(path, channel)

    assert message.startswith(f"{path} não é JSON válido")


def test_a_json_object_instead_of_a_list_fails_with_a_clear_message(tmp_path, channel):
    message, _ = import_failing(write(tmp_path, sale_row(1)), channel)

    assert message == "O arquivo deve conter uma lista JSON de vendas."
    assert not Sale.objects.exists()


def test_an_empty_list_imports_nothing(tmp_path, channel):
    out, _ = import_file(write(tmp_path, []), channel)

    assert "0 venda(s) importada(s)" in out


# --- volume ----------------------------------------------------------------------------


def test_a_large_file_loads_in_batches_with_progress_and_few_queries(tmp_path, channel):
    rows = [sale_row(n) for n in range(1200)]
    path = write(tmp_path, rows)

    with CaptureQueriesContext(connection) as queries:
        out, err = import_file(path, channel)

    assert "1200 venda(s) importada(s): 1200 criada(s), 0 atualizada(s)." in out
    assert [line for line in err.splitlines() if line.startswith("...")] == [
        "... 500/1200",
        "... 1000/1200",
        "... 1200/1200",
    ]
    assert Sale.objects.filter(channel=channel).count() == 1200
    assert Coverage.objects.count() == 2400
    assert len(queries) < 60, f"{len(queries)} queries for 1200 rows"


# --- round trip ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "row",
    [
        sale_row(1),
        sale_row(
            2,
            **{"id-afiliacao": None, "status": "cancelada", "lmg": 0,
               "segurado": {"nome": "Sem Contato", "cpf": make_cpf(777)}},
        ),
        sale_row(
            3,
            coberturas=[
                {"cobertura": "cobertura/invalidez-permanente", "lmi": 30000, "ativa": False},
                {"cobertura": "cobertura/morte", "lmi": 0.01, "ativa": True},
            ],
        ),
    ],
    ids=["complete", "without-affiliation-email-phone", "inactive-coverage"],
)
def test_an_imported_sale_reads_back_from_the_api_as_the_same_document(tmp_path, channel, row):
    import_file(write(tmp_path, [row]), channel)

    response = client_for(channel).get(f"/api/v1/vendas/{row['id-venda']}")

    assert response.status_code == 200, response.content
    assert response.json() == row


def test_an_updated_sale_reads_back_with_its_deactivated_coverage(tmp_path, channel):
    row = sale_row(1)
    import_file(write(tmp_path, [row]), channel)
    updated = copy.deepcopy(row)
    updated["coberturas"] = updated["coberturas"][:1]
    updated["lmg"] = 123.45

    import_file(write(tmp_path, [updated]), channel)

    expected = copy.deepcopy(updated)
    expected["coberturas"].append({**row["coberturas"][1], "ativa": False})
    response = client_for(channel).get(f"/api/v1/vendas/{row['id-venda']}")
    assert response.json() == expected


# --- cancelling a sale ------------------------------------------------------------------


def imported_with_a_claim(tmp_path, channel, status) -> tuple[dict, str]:
    """An imported active sale with one claim in ``status``; returns (row, number)."""
    row = sale_row(1)
    import_file(write(tmp_path, [row], "antes.json"), channel)
    claim = ClaimFactory(coverage=coverage(row["id-venda"], "cobertura/morte"), status=status)
    return row, claim.number


def test_cancelling_a_sale_with_an_open_claim_is_reported_and_loads_nothing(tmp_path, channel):
    row, number = imported_with_a_claim(tmp_path, channel, ClaimStatus.PENDING_DOCUMENTS)
    cancelled = {**row, "status": "cancelada"}

    message, stderr = import_failing(write(tmp_path, [sale_row(2), cancelled]), channel)

    bad_lines = [line for line in stderr.splitlines() if line.startswith("linha ")]
    assert bad_lines == [
        f"linha 1: sale-cancellation-insurance-has-open-claims: a venda {row['id-venda']} "
        f"tem sinistro(s) em aberto ({number}): finalize-os ou recuse-os antes de cancelar a venda"
    ]
    assert "nada foi importado" in message
    assert Sale.objects.get(pk=row["id-venda"]).status == "ativa"
    assert Sale.objects.count() == 1  # row 0 was not loaded either


@pytest.mark.parametrize("status", [ClaimStatus.FINALIZED, ClaimStatus.DENIED])
def test_a_sale_whose_claims_are_closed_can_be_cancelled(tmp_path, channel, status):
    row, _ = imported_with_a_claim(tmp_path, channel, status)

    import_file(write(tmp_path, [{**row, "status": "cancelada"}]), channel)

    assert Sale.objects.get(pk=row["id-venda"]).status == "cancelada"


def test_a_sale_already_cancelled_imports_again_even_with_an_open_claim(tmp_path, channel):
    """Not a cancellation: the file is the same as before (e.g. loaded again)."""
    row, _ = imported_with_a_claim(tmp_path, channel, ClaimStatus.UNDER_REGULATION)
    Sale.objects.filter(pk=row["id-venda"]).update(status="cancelada")

    import_file(write(tmp_path, [{**row, "status": "cancelada", "lmg": 1}]), channel)

    assert Sale.objects.get(pk=row["id-venda"]).max_guarantee == Decimal("1.00")


# --- the old name, import_vendas: an alias for one release -----------------------------


def test_the_new_name_prints_no_deprecation_notice(tmp_path, channel):
    _, err = import_file(write(tmp_path, [sale_row(1)]), channel)

    assert "obsoleto" not in err


def test_the_old_name_still_imports_and_says_on_stderr_it_is_deprecated(tmp_path, channel,
                                                                          capsys):
    rows = [sale_row(1), sale_row(2)]

    # No stdout/stderr given: the command writes to the process's own streams.
    call_command("import_vendas", str(write(tmp_path, rows)), "--channel", channel.slug)

    out, err = capsys.readouterr()
    assert "2 venda(s) importada(s): 2 criada(s), 0 atualizada(s)." in out
    assert {str(pk) for pk in Sale.objects.values_list("pk", flat=True)} == {
        r["id-venda"] for r in rows}
    assert err.splitlines() == [
        "Aviso: o comando import_vendas está obsoleto e será removido na próxima versão; "
        "use import_sales (mesmos argumentos)."]
    assert "obsoleto" not in out
