"""One digit repeated is no CPF or CNPJ the Receita issues, though its check digits
compute: the server says why, and the published shapes (the OpenAPI patterns, which
schema-driven clients and fuzzers generate from) leave it out."""

import re

import pytest
from django.core.exceptions import ValidationError

from claims.validators import (
    CNPJ_PATTERN,
    CPF_OR_CNPJ_PATTERN,
    CPF_PATTERN,
    validate_cpf,
    validate_cpf_or_cnpj,
)


@pytest.mark.parametrize(("value", "message"), [
    ("00000000000000", "CNPJ inválido: números repetidos não são um CNPJ válido."),
    ("99999999999999", "CNPJ inválido: números repetidos não são um CNPJ válido."),
    ("11111111111", "CPF inválido: números repetidos não são um CPF válido."),
    ("00000000000", "CPF inválido: números repetidos não são um CPF válido."),
])
def test_repeated_digits_are_refused_saying_why(value, message):
    with pytest.raises(ValidationError) as refused:
        validate_cpf_or_cnpj(value)
    assert refused.value.messages == [message]


def test_the_published_shapes_leave_repeated_digits_out_and_keep_real_numbers():
    for pattern, repeated, real in (
        (CPF_PATTERN, "22222222222", "52998224725"),
        (CNPJ_PATTERN, "00000000000000", "11222333000181"),
        (CPF_OR_CNPJ_PATTERN, "00000000000000", "11222333000181"),
        (CPF_OR_CNPJ_PATTERN, "33333333333", "52998224725"),
    ):
        assert not re.match(pattern, repeated) and re.match(pattern, real)
    validate_cpf("52998224725")
    validate_cpf_or_cnpj("11222333000181")
