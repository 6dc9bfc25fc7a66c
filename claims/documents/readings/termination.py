"""A termination of employment (TRCT, termo de rescisão do contrato de trabalho): the
employee's name and CPF, the dates of admission and of termination (afastamento). The
TRCT numbers its fields ("11 Nome", "24 Data de Admissão", "26 Data de Afastamento");
the numbers are ignored, the words matched."""

import re

from claims.documents.readings.parsing import (
    cpf_after_label, date_after_label, lines_of, value_after_label)

FIELDS = ("nome", "cpf", "data_admissao", "data_afastamento")
_NAME = re.compile(r"^(?:\d{1,2}\s+)?nome(?: do (?:empregado|trabalhador))?(?: completo)?\b"
                   r"(?! d[oa]s? (?:empregador|mae|pai))(?!\s*(?:empresarial|fantasia))")
_ADMISSION = ("data de admissao", "admissao", "admitido em")
_TERMINATION = ("data de afastamento", "data do afastamento", "afastamento",
                "data de desligamento", "data da demissao", "data da rescisao")


def extract(text: str) -> dict:
    lines = lines_of(text)
    fields = {}
    name = value_after_label(lines, _NAME)
    if name:
        fields["nome"] = " ".join(re.sub(r"[^\w' \-]|\d", " ", name).split())[:200]
    cpf = cpf_after_label(lines)
    if cpf:
        fields["cpf"] = cpf
    admitted = date_after_label(lines, _ADMISSION)
    if admitted:
        fields["data_admissao"] = admitted.isoformat()
    left = date_after_label(lines, _TERMINATION)
    if left:
        fields["data_afastamento"] = left.isoformat()
    return fields
