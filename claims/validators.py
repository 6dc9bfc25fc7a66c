"""Brazilian identifiers: CPF and CNPJ with their check digits."""

from rest_framework.exceptions import ValidationError


def check_digit(digits: str, weights: list[int]) -> int:
    remainder = sum(int(d) * w for d, w in zip(digits, weights, strict=True)) % 11
    return 0 if remainder < 2 else 11 - remainder


def is_valid_cpf(value: str) -> bool:
    if len(value) != 11 or not value.isdigit() or value == value[0] * 11:
        return False
    first = check_digit(value[:9], list(range(10, 1, -1)))
    second = check_digit(value[:10], list(range(11, 1, -1)))
    return value[9:] == f"{first}{second}"


def is_valid_cnpj(value: str) -> bool:
    if len(value) != 14 or not value.isdigit() or value == value[0] * 14:
        return False
    first = check_digit(value[:12], [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    second = check_digit(value[:13], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    return value[12:] == f"{first}{second}"


def validate_cpf(value: str) -> None:
    if not is_valid_cpf(value):
        raise ValidationError("CPF inválido (informe 11 dígitos com dígitos verificadores corretos).")


def validate_cpf_or_cnpj(value: str) -> None:
    if not (is_valid_cpf(value) or is_valid_cnpj(value)):
        raise ValidationError(
            "CPF ou CNPJ inválido (somente dígitos, com dígitos verificadores corretos)."
        )
