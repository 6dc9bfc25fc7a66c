"""Phones as people type them: every usual spelling is the same DDD and number; what is
not a Brazilian landline or mobile with its DDD is told in words."""

import pytest
from django.core.exceptions import ValidationError

from claims.phones import normalize_phone, split_phone


@pytest.mark.parametrize("typed", [
    "(11) 91234-5678", "11 91234 5678", "11 91234-5678", "11912345678", "011912345678",
    "0 11 91234-5678", "+55 11 91234-5678", "+55 (11) 91234-5678", "5511912345678",
    "0 21 11 91234-5678",  # with a long-distance carrier code
])
def test_every_usual_spelling_is_the_same_ddd_and_number(typed):
    assert split_phone(typed) == ("11", "912345678")


def test_a_landline_keeps_its_eight_digits():
    assert split_phone("(21) 3456-7890") == ("21", "34567890")


@pytest.mark.parametrize(("typed", "area_code"), [
    ("91234-5678", "11"), ("91234-5678", "011"), ("91234 5678", "(11)"), ("912345678", "11")])
def test_a_number_without_its_ddd_takes_the_ddd_field(typed, area_code):
    assert split_phone(typed, area_code) == ("11", "912345678")


@pytest.mark.parametrize(("typed", "words"), [
    ("91234-5678", "Informe o número com o DDD"),
    ("(10) 91234-5678", "Este telefone não existe"),
    ("(11) 1234-567", "Este telefone não existe"),
    ("0800 123 4567", "não 0800"),
    ("+1 650 253 0000", "telefone do Brasil"),
    ("11 9123A-5678", "Use só números"),
])
def test_what_is_not_a_brazilian_phone_with_ddd_is_told_in_words(typed, words):
    with pytest.raises(ValidationError) as refusal:
        split_phone(typed)

    assert words in refusal.value.messages[0]


def test_blank_is_no_phone_and_one_field_stores_ddd_and_number():
    assert split_phone("  ") == ("", "")
    assert normalize_phone("+55 (21) 99876-5432") == "21998765432"
