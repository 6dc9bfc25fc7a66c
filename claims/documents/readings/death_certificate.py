"""A death certificate (certidão de óbito): the deceased's name and CPF, the date of
death and the matrícula. Certificates print labels and values on one line or the value
under its label; both are read."""

import re

from claims.documents.readings import matricula as matricula_number
from claims.documents.readings.parsing import (
    cpf_after_label, date_after_label, lines_of, plain, value_after_label)

FIELDS = ("nome", "cpf", "data_obito", "matricula")
# "Nome" of the deceased: not of the father, mother, declarant or registrar.
_NAME = re.compile(r"^(?:nome(?: completo)?(?: do\(?a?\)? falecid[oa]| da falecida| do falecido)?"
                   r"|falecid[oa])\b(?! d[oae]s? (?:pai|mae|declarante|oficial|conjuge))"
                   r"(?! e sobrenome d[oa] (?:pai|mae))")
_DEATH_DATE = ("data do falecimento", "data de falecimento", "data do obito", "data de obito",
               "faleceu em", "falecimento")


def extract(text: str) -> dict:
    """The fields found (a field not found is absent); dates as ISO strings."""
    lines = lines_of(text)
    fields = {}
    name = value_after_label(lines, _NAME)
    if name:
        fields["nome"] = _clean_name(name)
    cpf = cpf_after_label(lines)
    if cpf:
        fields["cpf"] = cpf
    died = date_after_label(lines, _DEATH_DATE)
    if died:
        fields["data_obito"] = died.isoformat()
    found = matricula_number.find(plain(text))
    if found:
        fields["matricula"] = found
    return fields


def _clean_name(name: str) -> str:
    # A name is letters, spaces, apostrophes and hyphens; OCR adds stray marks at the end.
    kept = re.sub(r"[^\w' \-]", " ", name)
    kept = re.sub(r"\d", " ", kept)
    return " ".join(kept.split())[:200]
