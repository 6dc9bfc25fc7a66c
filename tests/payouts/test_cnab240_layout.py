"""The CNAB 240 remittance, return and validator, read back with an independent reader
(tests/payouts/cnab_reader.py) written from the published positions."""

import dataclasses
import datetime as dt
from decimal import Decimal

import pytest

from payouts.cnab240 import (
    OCCURRENCES, Company, Form, LayoutError, Order, describe, outcome, read_remittance,
    read_return, validate_remittance, write_remittance, write_return)
from payouts.cnab240.brcode import build as build_brcode
from tests.payouts.cnab_reader import records

PAY_ON = dt.date(2026, 12, 1)
AT = dt.datetime(2026, 11, 27, 14, 30, 5)
# FEBRABAN's base layout, paying from an Itaú account (SISPAG's particulars: below)
COMPANY = Company(bank="341", branch="0057", branch_digit="", account="12345",
                  account_digit="7", agreement="", tax_id="11222333000181",
                  name="Seguradora Vitória S.A.")
BOLETO_BAR = "23797" + "1234" + "0000012345" + "0" * 25


def orders() -> list[Order]:
    return [
        Order("PG-0001", Form.SAME_BANK, Decimal("1234.56"), PAY_ON, "João Conceição Ávila",
              "52998224725", bank="341", branch="0057", account="12345", account_digit="7"),
        Order("PG-0002", Form.TED, Decimal("10000.00"), PAY_ON, "Maria D'Ávila & Filhos",
              "11222333000181", bank="001", branch="1234", branch_digit="3",
              account="123456", account_digit="0"),
        Order("PG-0003", Form.PIX_KEY, Decimal("50.10"), PAY_ON, "Ana Lúcia",
              "52998224725", pix_key="ana@example.com", pix_key_type="email"),
        Order("PG-0004", Form.PIX_KEY, Decimal("0.01"), PAY_ON, "Pedro",
              "52998224725", pix_key="+5511912345678", pix_key_type="telefone"),
        Order("PG-0005", Form.PIX_ACCOUNT, Decimal("99.99"), PAY_ON, "Bia", "52998224725",
              ispb="60701190", branch="0001", account="998877", account_digit="1"),
        Order("PG-0006", Form.BOLETO, Decimal("123.45"), PAY_ON, "Funerária São José",
              "11222333000181", barcode=BOLETO_BAR),
        Order("PG-0007", Form.PIX_BRCODE, Decimal("80.00"), PAY_ON, "Hospital Santa Cruz",
              "11222333000181", brcode=build_brcode("hospital@example.com", name="HOSPITAL",
                                                    city="SAO PAULO", txid="FATURA123")),
    ]


@pytest.fixture
def remittance() -> bytes:
    return write_remittance(COMPANY, sequence=42, generated_at=AT, orders=orders())


def test_every_line_has_240_columns_ends_in_crlf_and_is_ascii(remittance):
    assert remittance.endswith(b"\r\n")
    lines = remittance.split(b"\r\n")[:-1]
    assert all(len(line) == 240 for line in lines)
    assert b"\n" not in b"".join(lines)
    remittance.decode("ascii")
    assert validate_remittance(remittance) == []


def test_headers_carry_the_company_and_the_file_sequence(remittance):
    rows = records(remittance)
    kind, head = rows[0]
    assert kind == "file_header" and head["bank"] == "341" and head["kind"] == "1"
    assert head["tax_kind"] == "2" and head["tax_id"] == "11222333000181"
    assert (head["branch"], head["account"], head["account_dv"]) == ("00057", "000000012345", "7")
    assert head["company"].rstrip() == "SEGURADORA VITORIA S.A."
    assert (head["date"], head["time"], head["sequence"]) == ("27112026", "143005", "000042")
    assert head["version"] == "103"
    lots = [f for k, f in rows if k == "lot_header"]
    assert [(f["service"], f["launch"]) for f in lots] == [
        ("20", "01"), ("20", "41"), ("20", "45"), ("20", "45"), ("20", "31"), ("20", "47")]
    assert [f["lot"] for f in lots] == ["0001", "0002", "0003", "0004", "0005", "0006"]


def test_credit_orders_go_in_segment_a_with_b_naming_the_payee(remittance):
    rows = records(remittance)
    a_rows = [f for k, f in rows if k == "A"]
    assert [f["reference"] for f in a_rows] == [
        "PG-0001".ljust(20), "PG-0002".ljust(20), "PG-0003".ljust(20), "PG-0004".ljust(20),
        "PG-0005".ljust(20)]
    same, ted, pix_email, _pix_phone, pix_account = a_rows
    assert same["name"] == "JOAO CONCEICAO AVILA".ljust(30)
    assert ted["name"] == "MARIA DAVILA  FILHOS".ljust(30)
    assert (ted["clearing"], ted["bank"], ted["branch"], ted["branch_dv"]) == (
        "018", "001", "01234", "3")
    assert (ted["account"], ted["account_dv"], ted["amount"]) == (
        "000000123456", "0", "000000001000000")
    assert ted["date"] == "01122026" and ted["currency"] == "BRL"
    assert (pix_email["clearing"], pix_email["bank"], pix_email["account"]) == (
        "009", "000", "0" * 12)
    assert pix_account["clearing"] == "009" and pix_account["account"] == "000000998877"
    b_rows = [f for k, f in rows if k == "B"]
    assert [f["initiation"] for f in b_rows] == ["   ", "   ", "02 ", "01 ", "05 "]
    assert b_rows[1]["tax_kind"] == "2" and b_rows[1]["tax_id"] == "11222333000181"
    assert b_rows[0]["tax_kind"] == "1" and b_rows[0]["tax_id"] == "00052998224725"
    assert b_rows[2]["pix_key"].rstrip() == "ana@example.com"
    assert b_rows[3]["pix_key"].rstrip() == "+5511912345678"
    assert b_rows[4]["ispb"] == "60701190"


def test_boleto_and_br_code_go_in_segment_j_with_j52(remittance):
    rows = records(remittance)
    j_rows = [f for k, f in rows if k == "J"]
    j52 = [f for k, f in rows if k == "J52"]
    boleto, pix = j_rows
    assert boleto["barcode"] == BOLETO_BAR and boleto["face"] == "000000000012345"
    assert boleto["reference"] == "PG-0006".ljust(20) and boleto["amount"] == "000000000012345"
    assert boleto["name"] == "FUNERARIA SAO JOSE".ljust(30)
    assert pix["barcode"].strip() == "" and pix["reference"] == "PG-0007".ljust(20)
    assert [f["optional"] for f in j52] == ["52", "52"]
    assert j52[0]["payer_tax_id"] == "011222333000181" and j52[0]["payee_kind"] == "2"
    assert j52[0]["payee"].rstrip() == "FUNERARIA SAO JOSE"
    assert j52[1]["pix_key"].rstrip() == "hospital@example.com"
    assert j52[1]["txid"].rstrip() == "FATURA123"


def test_trailers_count_records_and_sum_amounts(remittance):
    rows = records(remittance)
    trailers = [f for k, f in rows if k == "lot_trailer"]
    assert [f["records"] for f in trailers] == ["000004", "000004", "000006", "000004",
                                                 "000004", "000004"]
    assert trailers[2]["total"] == f"{5011:018d}"        # 50,10 + 0,01
    assert trailers[0]["total"] == f"{123456:018d}"
    kind, last = rows[-1]
    assert kind == "file_trailer" and last["lot"] == "9999"
    assert (last["lots"], last["records"]) == ("000006", f"{len(rows):06d}")


def test_the_remittance_reads_back_as_it_was_written(remittance):
    company, sequence, generated_at, back = read_remittance(remittance)
    assert (company.tax_id, company.branch, company.account, company.flavour) == (
        "11222333000181", "0057", "12345", "febraban")
    assert (sequence, generated_at) == (42, AT)
    assert [(o.reference, o.form, o.amount, o.payment_date) for o in back] == [
        (o.reference, o.form, o.amount, o.payment_date) for o in orders()]
    assert back[2].pix_key == "ana@example.com" and back[2].pix_key_type == "email"
    assert back[6].pix_key == "hospital@example.com"


def test_a_reference_outside_the_alphabet_is_refused_before_writing():
    bad = Order("pg-ç1", Form.TED, Decimal("1"), PAY_ON, "X", "52998224725", bank="001",
                branch="1", account="1")
    with pytest.raises(ValueError, match="referência"):
        write_remittance(COMPANY, sequence=1, generated_at=AT, orders=[bad])


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\r\n")[:-1]


def _join(lines: list[bytes]) -> bytes:
    return b"\r\n".join(lines) + b"\r\n"


def _replace(line: bytes, start: int, text: str) -> bytes:
    return line[:start - 1] + text.encode() + line[start - 1 + len(text):]


def test_validator_finds_a_short_line(remittance):
    lines = _lines(remittance)
    lines[3] = lines[3][:-1]
    assert validate_remittance(_join(lines)) == ["linha 4: 239 caracteres em vez de 240"]


def test_validator_finds_lf_without_cr(remittance):
    problems = validate_remittance(remittance.replace(b"\r\n", b"\n"))
    assert len(problems) == 1 and "sem CR" in problems[0] and problems[0].startswith("linha 1")


def test_validator_finds_records_out_of_order(remittance):
    lines = _lines(remittance)
    lines[4], lines[5] = lines[5], lines[4]     # a lot trailer after the next lot's header
    problems = validate_remittance(_join(lines))
    assert any("sem o trailer" in p for p in problems)


def test_validator_finds_a_wrong_count_and_a_wrong_sum(remittance):
    lines = _lines(remittance)
    lines[4] = _replace(lines[4], 18, "000005")
    lines[8] = _replace(lines[8], 24, f"{1:018d}")
    problems = validate_remittance(_join(lines))
    assert problems == [
        "linha 5: trailer do lote diz 000005 registros, o lote tem 000004",
        f"linha 9: trailer do lote soma {1:018d}, os detalhes somam {1000000:018d}"]


def test_validator_finds_a_file_trailer_that_miscounts(remittance):
    lines = _lines(remittance)
    lines[-1] = _replace(lines[-1], 18, "000002")
    assert validate_remittance(_join(lines)) == [
        f"linha {len(lines)}: trailer do arquivo diz 000002 lotes, há 000006"]


def test_validator_finds_a_wrong_itau_account_digit(remittance):
    lines = _lines(remittance)
    lines[2] = _replace(lines[2], 42, "8")      # PG-0001's Itaú account 0057/12345-7
    assert validate_remittance(_join(lines)) == [
        "linha 3: DV da conta Itaú 00057/000000012345 deveria ser 7, veio 8"]


def test_itau_sispag_particulars_are_written_read_and_checked_where_sispag_has_them():
    sispag = write_remittance(dataclasses.replace(COMPANY, flavour="itau"), sequence=3,
                              generated_at=AT, orders=orders())
    lines = _lines(sispag)
    assert lines[0][14:17] == b"081" and lines[0][163:166] == b"   "   # version at 15-17
    assert lines[0][70:72] == b" 7"                 # the branch + account DAC at 72
    assert lines[1][13:16] == b"040"                # credit lot version
    same_bank = lines[2]
    assert same_bank[41:43] == b" 7" and same_bank[101:104] == b"REA"   # A: DAC at 43
    assert validate_remittance(sispag) == []
    company, _sequence, _at, back = read_remittance(sispag)
    assert company.flavour == "itau" and company.account_digit == "7"
    assert back[0].account_digit == "7"
    lines[0] = _replace(lines[0], 72, "1")
    lines[2] = _replace(lines[2], 43, "2")
    assert validate_remittance(_join(lines)) == [
        "linha 1: empresa: DV da conta Itaú 00057/000000012345 deveria ser 7, veio 1",
        "linha 3: DV da conta Itaú 00057/000000012345 deveria ser 7, veio 2"]


def test_validator_finds_a_name_outside_the_layouts_alphabet(remittance):
    lines = _lines(remittance)
    lines[2] = _replace(lines[2], 44, "Joao")
    assert validate_remittance(_join(lines)) == [
        "linha 3: nome do favorecido (44-73) com caracteres fora do alfabeto do layout: 'ao'"]


def test_an_empty_remittance_is_not_written():
    with pytest.raises(ValueError, match="sem ordens"):
        write_remittance(COMPANY, sequence=1, generated_at=AT, orders=[])


def test_validator_finds_a_wrong_bb_branch_digit(remittance):
    lines = _lines(remittance)
    lines[6] = _replace(lines[6], 29, "4")      # PG-0002 at BB 1234-3
    assert validate_remittance(_join(lines)) == [
        "linha 7: DV da agência BB 01234 deveria ser 3, veio 4"]


@pytest.mark.parametrize("initiation, key", [
    ("02", "ana-at-example.com"), ("01", "11912345678"), ("03", "52998224700"),
    ("04", "not-a-uuid")])
def test_validator_finds_a_pix_key_of_the_wrong_shape(remittance, initiation, key):
    lines = _lines(remittance)
    line = _replace(lines[11], 15, initiation)
    lines[11] = _replace(line, 128, key.ljust(99))
    problems = validate_remittance(_join(lines))
    assert len(problems) == 1 and problems[0].startswith("linha 12: chave PIX")


def test_return_round_trip(remittance):
    outcomes = {o.reference: (("00",), PAY_ON, None) for o in orders()}
    outcomes["PG-0002"] = (("AG",), None, None)
    outcomes["PG-0003"] = (("PJ",), None, None)
    outcomes["PG-0006"] = (("BD",), None, None)
    outcomes["PG-0007"] = (("00",), PAY_ON, Decimal("79.90"))
    answer = read_return(write_return(remittance, outcomes=outcomes,
                                      generated_at=dt.datetime(2026, 12, 1, 8, 0)))
    assert answer.sequence == 42 and answer.company_tax_id == "11222333000181"
    assert answer.generated_at == dt.datetime(2026, 12, 1, 8, 0)
    by_ref = {item.reference: item for item in answer.items}
    assert [outcome(by_ref[f"PG-000{i}"].occurrences) for i in range(1, 8)] == [
        "settled", "refused", "refused", "settled", "settled", "scheduled", "settled"]
    assert by_ref["PG-0001"].amount == Decimal("1234.56")
    assert by_ref["PG-0001"].paid_on == PAY_ON
    assert by_ref["PG-0002"].paid_on is None and by_ref["PG-0002"].amount == 0
    assert by_ref["PG-0007"].amount == Decimal("79.90")
    assert describe(by_ref["PG-0003"].occurrences) == "PJ Chave não cadastrada no DICT"
    rows = records(write_return(remittance, outcomes=outcomes, generated_at=AT))
    assert rows[0][1]["kind"] == "2" and rows[0][1]["sequence"] == "000042"
    a_rows = [f for k, f in rows if k == "A"]
    assert a_rows[1]["occurrences"] == "AG        " and a_rows[0]["real_date"] == "01122026"


@pytest.mark.parametrize("damage, message", [
    (lambda lines: lines[:-1], "sem trailer"),
    (lambda lines: [lines[0][:-1]] + lines[1:], "239 caracteres"),
    (lambda lines: [lines[0]] + [_replace(lines[1], 8, "7")] + lines[2:], "tipo de registro"),
    (lambda lines: [lines[0]] + [_replace(lines[2], 120, "ABC")] + lines[1:2] + lines[3:],
     "fora de um lote"),
])
def test_a_malformed_return_raises_layout_error_with_the_line(remittance, damage, message):
    outcomes = {o.reference: (("00",), PAY_ON, None) for o in orders()}
    lines = _lines(write_return(remittance, outcomes=outcomes, generated_at=AT))
    with pytest.raises(LayoutError, match=message) as error:
        read_return(_join(damage(lines)))
    assert error.value.line is not None


def test_a_remittance_is_not_read_as_a_return(remittance):
    with pytest.raises(LayoutError, match="linha 1: código remessa/retorno"):
        read_return(remittance)


def test_occurrence_table_and_outcomes():
    for code in ["00", "BD"] + [f"A{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"] + \
            [f"B{c}" for c in "ABCDEFGHIJKLMNOPQRS"]:
        assert code in OCCURRENCES
    assert outcome(("00",)) == "settled"
    assert outcome(("BD",)) == "scheduled"
    assert outcome(("00", "ZA")) == "refused"
    assert outcome(("HA",)) == "refused"
    assert outcome(("BD", "BE")) == "scheduled"
    assert outcome(()) == "scheduled"        # nothing known yet: never "refused"
    assert describe(("AG", "PJ")) == ("AG Agência/Conta Corrente/DV Inválido; "
                                      "PJ Chave não cadastrada no DICT")
