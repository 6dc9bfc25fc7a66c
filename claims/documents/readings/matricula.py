"""The matrícula of a civil registry certificate (certidão de nascimento, casamento,
óbito): 32 digits, the national model of the Corregedoria Nacional de Justiça
(Provimentos nº 2 and nº 3/2009; today art. 473 of Provimento nº 149/2023).

Layout: serventia (CNS, 6) · acervo (2) · serviço 55 (2) · ano (4) · tipo do livro (1;
4 = livro C, óbito) · livro (5) · folha (3) · termo (7) · dígitos verificadores (2).

The two check digits, module 11 over the first 30 digits (the source and what was
verified: docs/document-readings.md):

- first: sum of each digit times the weights 2, 3, ..., 10, 0, 1, 2, ... (the weight of
  position i, from 0, is (i + 2) mod 11); the remainder of the sum by 11, and 1 when
  that remainder is 10;
- second: the same over the 31 digits (the first check digit appended) with the weights
  1, 2, ..., 10, 0, 1, ... ((i + 1) mod 11).
"""

import re

LENGTH = 32
DEATH_BOOK = "4"  # tipo do livro: livro C (óbito)
_DIGIT_RUN = re.compile(r"\d[\d .\-]{30,60}\d")


def check_digits(first30: str) -> str:
    digits = [int(c) for c in first30]
    first = sum(d * ((i + 2) % 11) for i, d in enumerate(digits)) % 11
    first = 1 if first == 10 else first
    second = sum(d * ((i + 1) % 11) for i, d in enumerate([*digits, first])) % 11
    second = 1 if second == 10 else second
    return f"{first}{second}"


def is_valid(matricula: str) -> bool:
    return (len(matricula) == LENGTH and matricula.isdigit()
            and check_digits(matricula[:30]) == matricula[30:])


def find(text: str) -> str | None:
    """The first 32 digits printed as one number (spaces, dots and dashes between
    groups): after the word "matrícula" when the text has it, else anywhere."""
    at = text.find("matricula")
    for piece in ([text[at:at + 200]] if at >= 0 else []) + [text]:
        for run in _DIGIT_RUN.finditer(piece):
            digits = re.sub(r"\D", "", run.group())
            if len(digits) == LENGTH:
                return digits
    return None


def formatted(matricula: str) -> str:
    """``104539 01 55 2013 4 00012 021 0000123-21``, as certificates print it."""
    m = matricula
    return f"{m[:6]} {m[6:8]} {m[8:10]} {m[10:14]} {m[14]} {m[15:20]} {m[20:23]} {m[23:30]}-{m[30:]}"
