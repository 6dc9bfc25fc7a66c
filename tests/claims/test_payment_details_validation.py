"""Exact checks of ``detalhes-pagamento``: the validators one by one, then over HTTP.

The boleto examples are real-looking lines whose check digits were verified against the
FEBRABAN rules; the BR Code is the static example of the BCB's BR Code manual.
"""

import binascii

import pytest
from django.core.exceptions import ValidationError

from claims.models import Claim
from claims.validators import (
    crc16_ccitt_false,
    mask_tax_id,
    validate_boleto,
    validate_brcode,
    validate_compe,
    validate_cpf,
    validate_cpf_or_cnpj,
    validate_ispb,
    validate_pix_key,
)
from tests.support.api import open_url, opening_body, payment

CPF = "52998224725"
CNPJ = "11222333000181"
ALPHANUMERIC_CNPJ = "12ABC34501DE35"

# Bank boleto (Banco do Brasil): the typeable line and its bar code.
BANK_LINE = "00190500954014481606906809350314337370000000100"
BANK_BARCODE = "00193373700000001000500940144816060680935031"
BRADESCO_LINE = "23793381286000782713695000063305975520000370000"
# Collection (arrecadação): 3rd digit 6 -> modulo 10; 8 -> modulo 11.
COLLECTION_LINE_MOD10 = "836200000005667800481000180975657313001589636081"
COLLECTION_LINE_MOD11 = "848900000002404201622015806051904292586034111220"
COLLECTION_BARCODE_MOD11 = "84890000000404201622018060519042958603411122"
GPS_LINE = "858200000015669802701162300012800189672220251130"

PIX_ACCOUNT = "0014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000"
BR_CODE = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-42665544000052040000530398658"
    "02BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)


def tlv(tag: str, value: str) -> str:
    return f"{tag}{len(value):02d}{value}"


def brcode(*fields: str) -> str:
    """A BR Code of ``fields`` closed by its CRC16/CCITT-FALSE."""
    payload = "".join(fields) + "6304"
    return payload + f"{binascii.crc_hqx(payload.encode(), 0xFFFF):04X}"


def standard_fields(**overrides: str) -> list[str]:
    """The fields of a static BR Code in order; an empty override leaves a field out."""
    fields = {"00": "01", "01": "", "26": PIX_ACCOUNT, "27": "", "52": "0000", "53": "986",
              "54": "150.00", "58": "BR", "59": "Fulano de Tal", "60": "BRASILIA",
              "62": tlv("05", "***")}
    fields.update(overrides)
    return [tlv(tag, value) for tag, value in fields.items() if value]


def replace_digit(value: str, position: int) -> str:
    """``value`` with the digit at 1-based ``position`` changed."""
    index = position - 1
    return value[:index] + str((int(value[index]) + 1) % 10) + value[index + 1:]


def refused(validator, value, message: str | None = None) -> str:
    with pytest.raises(ValidationError, match=message) as info:
        validator(value)
    return info.value.messages[0]


# --- CPF and CNPJ ----------------------------------------------------------------------


def test_a_cpf_with_correct_check_digits_is_accepted():
    validate_cpf(CPF)


@pytest.mark.parametrize(
    "value",
    ["52998224724", "11111111111", "00000000000", "529.982.247-25", "5299822472", "5299822472a"],
)
def test_a_cpf_with_wrong_digits_or_any_punctuation_is_refused(value):
    assert refused(validate_cpf, value).startswith("CPF inválido")


@pytest.mark.parametrize("value", [CPF, CNPJ, ALPHANUMERIC_CNPJ, "A1B2C3D4000193"])
def test_a_cpf_or_a_numeric_or_alphanumeric_cnpj_is_accepted(value):
    validate_cpf_or_cnpj(value)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("52998224724", "CPF inválido: dígitos verificadores"),
        ("11222333000180", "CNPJ inválido: dígitos verificadores"),
        ("12ABC34501DE36", "CNPJ inválido: dígitos verificadores"),
        ("00000000000000", "CNPJ inválido"),
        ("12abc34501de35", "sem pontuação"),  # capitals only
        ("12.ABC.345/01DE-35", "sem pontuação"),
        ("12ABC34501DEA5", "2 dígitos verificadores"),  # a letter where a check digit goes
        ("1234", "Informe CPF"),
        ("", "Informe CPF"),
    ],
)
def test_a_tax_id_is_refused_with_what_is_wrong(value, message):
    refused(validate_cpf_or_cnpj, value, message)


@pytest.mark.parametrize(
    ("value", "masked"),
    [
        (CPF, "***.982.247-**"),
        ("529.982.247-25", "***.982.247-**"),
        (CNPJ, "11.222.333/****-**"),
        (ALPHANUMERIC_CNPJ, "12.ABC.345/****-**"),
        ("12.ABC.345/01DE-35", "12.ABC.345/****-**"),
        ("1234", "***"),
    ],
)
def test_a_tax_id_is_masked_for_channels_keeping_only_the_middle_or_the_root(value, masked):
    assert mask_tax_id(value) == masked


# --- PIX key, ISPB, COMPE --------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        CPF,
        CNPJ,
        ALPHANUMERIC_CNPJ,
        "maria@example.com",
        "a" * 65 + "@example.com",  # 77 characters, the DICT's limit
        "+5511912345678",
        "+551132345678",
        "+5599912345678",
        "123e4567-e89b-12d3-a456-426614174000",
        "123E4567-E89B-12D3-A456-426614174000",
    ],
)
def test_every_kind_of_pix_key_is_accepted(key):
    validate_pix_key(key)


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("52998224724", "Chave PIX: CPF inválido"),
        ("11222333000180", "Chave PIX: CNPJ inválido"),
        ("x", "Aceitas: CPF"),
        ("a" * 66 + "@example.com", "Aceitas: CPF"),  # 78 characters
        ("maria@", "Aceitas: CPF"),
        ("+5501912345678", "Aceitas: CPF"),  # DDD 01
        ("+5510912345678", "Aceitas: CPF"),  # DDD 10
        ("+55119123456789", "Aceitas: CPF"),  # 12 digits
        ("+55119123456", "Aceitas: CPF"),  # 9 digits
        ("+14155550123", "Aceitas: CPF"),
        ("5511912345678", "Aceitas: CPF"),
        ("123E4567-e89b-12d3-a456-426614174000", "Aceitas: CPF"),  # mixed case
        ("123e4567e89b12d3a456426614174000", "Aceitas: CPF"),
        ("{123e4567-e89b-12d3-a456-426614174000}", "Aceitas: CPF"),
        ("529.982.247-25", "Aceitas: CPF"),
    ],
)
def test_anything_else_is_not_a_pix_key(key, message):
    refused(validate_pix_key, key, message)


def test_the_refusal_of_a_pix_key_lists_the_accepted_kinds():
    message = refused(validate_pix_key, "x")

    for kind in ("CPF", "CNPJ", "e-mail", "telefone", "aleatória"):
        assert kind in message


def test_an_ispb_is_exactly_eight_digits():
    validate_ispb("00000000")
    for value in ("001", "000000001", "0000000a", "٠٠٠٠٠٠٠٠", " 0000000"):
        refused(validate_ispb, value, "ISPB inválido")


def test_a_compe_code_is_exactly_three_digits():
    validate_compe("001")
    for value in ("01", "0001", "00a", "٠٠١"):
        refused(validate_compe, value, "COMPE inválido")


# --- boleto ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [BANK_LINE, BANK_BARCODE, BRADESCO_LINE, COLLECTION_LINE_MOD10, COLLECTION_LINE_MOD11,
     COLLECTION_BARCODE_MOD11, GPS_LINE],
)
def test_bar_codes_and_typeable_lines_with_correct_check_digits_are_accepted(value):
    validate_boleto(value)


def test_a_bank_typeable_line_is_the_same_boleto_as_its_bar_code():
    line = BANK_LINE
    rebuilt = line[:4] + line[32:] + line[4:9] + line[10:20] + line[21:31]

    assert rebuilt == BANK_BARCODE


@pytest.mark.parametrize(
    ("position", "message"),
    [
        (10, "Linha digitável: o dígito verificador do campo 1 não confere"),
        (21, "Linha digitável: o dígito verificador do campo 2 não confere"),
        (32, "Linha digitável: o dígito verificador do campo 3 não confere"),
        (33, "Linha digitável: o dígito verificador geral não confere"),
        (47, "Linha digitável: o dígito verificador geral não confere"),  # the amount
    ],
)
def test_a_bank_typeable_line_names_the_field_whose_check_digit_fails(position, message):
    refused(validate_boleto, replace_digit(BANK_LINE, position), message)


@pytest.mark.parametrize("position", [5, 20, 44])
def test_a_bank_bar_code_with_a_changed_digit_fails_its_general_check_digit(position):
    refused(validate_boleto, replace_digit(BANK_BARCODE, position),
            "Código de barras: o dígito verificador geral não confere")


@pytest.mark.parametrize("line", [COLLECTION_LINE_MOD10, COLLECTION_LINE_MOD11])
@pytest.mark.parametrize("block", [1, 2, 3, 4])
def test_a_collection_typeable_line_names_the_block_whose_check_digit_fails(line, block):
    refused(validate_boleto, replace_digit(line, 12 * block),
            f"arrecadação: o dígito verificador do bloco {block} não confere")


def _mod10(digits: str) -> str:
    """FEBRABAN modulo 10, written apart from the one under test."""
    total = sum(sum(divmod(int(d) * (2 - i % 2), 10)) for i, d in enumerate(reversed(digits)))
    return str(-total % 10)


def test_a_collection_typeable_line_checks_the_general_digit_of_its_bar_code():
    line = COLLECTION_LINE_MOD10
    blocks = [line[i:i + 11] for i in range(0, 48, 12)]
    blocks[0] = replace_digit(blocks[0], 4)  # the general check digit, with a fixed block DV
    fixed = "".join(block + _mod10(block) for block in blocks)

    refused(validate_boleto, fixed, "arrecadação: o dígito verificador geral não confere")


def test_a_collection_bar_code_checks_its_general_digit_at_position_four():
    refused(validate_boleto, replace_digit(COLLECTION_BARCODE_MOD11, 4),
            "Código de barras: o dígito verificador geral não confere")


def test_a_collection_code_needs_a_value_identifier_of_six_to_nine():
    refused(validate_boleto, "845" + COLLECTION_BARCODE_MOD11[3:], "3º dígito")


def test_a_collection_typeable_line_starts_with_eight():
    refused(validate_boleto, "1" + COLLECTION_LINE_MOD10[1:], "deve começar com 8")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (BANK_LINE[:-1], "46 dígitos"),
        (BANK_BARCODE + "0", "45 dígitos"),
        ("123", "3 dígitos"),
        ("00190.50095 40144.816069 06809.350314 3 37370000000100", "somente dígitos"),
        ("٠" * 47, "somente dígitos"),
        ("", "somente dígitos"),
    ],
)
def test_a_boleto_of_another_length_or_with_non_digits_is_refused(value, message):
    refused(validate_boleto, value, message)


# --- BR Code ---------------------------------------------------------------------------


def test_the_crc_is_crc16_ccitt_false():
    assert crc16_ccitt_false(b"123456789") == 0x29B1


def test_the_bcb_example_br_code_is_accepted():
    validate_brcode(BR_CODE)


def test_a_lowercase_crc_and_an_uppercase_gui_are_accepted():
    validate_brcode(BR_CODE[:-4] + BR_CODE[-4:].lower())
    validate_brcode(brcode(*standard_fields(**{"26": PIX_ACCOUNT.replace("br.gov.bcb.pix",
                                                                          "BR.GOV.BCB.PIX")})))


def test_a_dynamic_br_code_with_the_pix_account_in_another_template_is_accepted():
    account = tlv("00", "br.gov.bcb.pix") + tlv("25", "pix.example.com/qr/v2/9d36b84f")
    validate_brcode(brcode(*standard_fields(**{"26": tlv("00", "com.example"),
                                               "27": account, "01": "12"})))


def test_a_br_code_with_a_wrong_crc_is_refused_because_the_crc_does_not_match():
    refused(validate_brcode, BR_CODE[:-4] + "1D3E", "o CRC \\(campo 63\\) não confere")


def test_a_br_code_changed_after_its_crc_was_computed_is_refused():
    refused(validate_brcode, BR_CODE.replace("Fulano de Tal", "Fulano de Sal"), "CRC")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (BR_CODE[:-5], "malformado"),  # cut inside the CRC field
        ("", "campo 00"),
        ("0002", "malformado"),
        ("00020101021", "malformado"),
        (BR_CODE + "9900", "terminar pelo CRC"),
        (brcode(*standard_fields())[:-4] + "ZZZZ", "terminar pelo CRC"),
        (brcode(*standard_fields())[:-8] + "6303ABC", "terminar pelo CRC"),
        ("".join(standard_fields()), "terminar pelo CRC"),
        (brcode(*standard_fields(**{"00": "02"})), "campo 00"),
        (brcode(*standard_fields()[1:]), "campo 00"),
        (brcode(*standard_fields(**{"26": ""})), "sem conta PIX"),
        (brcode(*standard_fields(**{"26": tlv("00", "br.gov.bcb.pux")})), "sem conta PIX"),
        (brcode(*standard_fields(**{"53": "840"})), "moeda"),
        (brcode(*standard_fields(**{"53": ""})), "moeda"),
        (brcode(*standard_fields(**{"58": "US"})), "país"),
        (brcode(*standard_fields(), tlv("58", "BR")), "campo 58 repetido"),
    ],
)
def test_a_br_code_is_parsed_strictly_and_says_what_is_wrong(value, message):
    refused(validate_brcode, value, message)


# --- over HTTP -------------------------------------------------------------------------


def field_errors(response) -> dict[str, str]:
    assert response.status_code == 400, response.content
    assert response.json()["problem-id"] == "invalid-request"
    return {error["campo"]: error["mensagem"] for error in response.json()["campos-invalidos"]}


def open_with(api, sale, method: dict, beneficiary: dict | None = None):
    return api.post(open_url(sale.id), opening_body(**payment(method, beneficiary)), format="json")


PIX_EMAIL = {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}}


def test_a_lowercase_cnpj_of_the_beneficiary_is_refused_on_its_field(api, sale):
    beneficiary = {"tipo": "credor", "nome": "Credora", "cpf-ou-cnpj": "12abc34501de35"}

    errors = field_errors(open_with(api, sale, PIX_EMAIL, beneficiary))

    assert "sem pontuação" in errors["detalhes-pagamento.beneficiario.cpf-ou-cnpj"]


def test_an_alphanumeric_cnpj_beneficiary_paid_by_collection_boleto_is_kept(api, sale):
    beneficiary = {"tipo": "outro", "nome": "Instituto", "cpf-ou-cnpj": ALPHANUMERIC_CNPJ}
    method = {"metodo-pagamento": "boleto", "boleto": {"codigo-de-barras": COLLECTION_LINE_MOD11}}

    response = open_with(api, sale, method, beneficiary)

    assert response.status_code == 200, response.content
    stored = Claim.objects.get().beneficiaries.get()
    assert stored.tax_id == ALPHANUMERIC_CNPJ
    assert stored.payment_method["boleto"] == {"barcode": COLLECTION_LINE_MOD11}


def test_a_boleto_line_with_a_wrong_check_digit_is_refused_on_its_field(api, sale):
    method = {"metodo-pagamento": "boleto",
              "boleto": {"codigo-de-barras": replace_digit(BANK_LINE, 21)}}

    errors = field_errors(open_with(api, sale, method))

    assert errors == {"detalhes-pagamento.dados-pagamento.boleto.codigo-de-barras":
                      "Linha digitável: o dígito verificador do campo 2 não confere."}


def test_an_invalid_pix_key_is_refused_on_its_field(api, sale):
    method = {"metodo-pagamento": "pix", "pix": {"chave": "+5501912345678"}}

    errors = field_errors(open_with(api, sale, method))

    assert set(errors) == {"detalhes-pagamento.dados-pagamento.pix.chave"}


def test_bank_codes_are_refused_with_the_kind_of_code_expected(api, sale):
    pix = {"metodo-pagamento": "pix",
           "pix": {"conta-bancaria": {"banco": "001", "agencia": "1", "conta": "2"}}}
    ted = {"metodo-pagamento": "ted", "ted": {"banco": "00000000", "agencia": "1", "conta": "2"}}

    assert field_errors(open_with(api, sale, pix)) == {
        "detalhes-pagamento.dados-pagamento.pix.conta-bancaria.banco":
            "ISPB inválido: informe exatamente 8 dígitos."}
    assert field_errors(open_with(api, sale, ted)) == {
        "detalhes-pagamento.dados-pagamento.ted.banco":
            "Código COMPE inválido: informe exatamente 3 dígitos."}


def test_a_br_code_with_a_wrong_crc_is_refused_on_its_field(api, sale):
    method = {"metodo-pagamento": "pix-brcode", "pix-brcode": {"brcode": BR_CODE[:-4] + "0000"}}

    errors = field_errors(open_with(api, sale, method))

    assert "CRC" in errors["detalhes-pagamento.dados-pagamento.pix-brcode.brcode"]
    assert not Claim.objects.exists()
