"""A reading's fields against the claim: the insured person's name and CPF (the sale),
and the date of death or of termination against the claim's occurrence date.

Pure: the caller passes what it compares with, so the page and the facts compare
with the claim as it is now (an occurrence date corrected after the reading counts)."""

import datetime as dt
import difflib
from dataclasses import dataclass, field

from claims.folding import fold
from claims.validators import mask_tax_id

DEATH_CERTIFICATE, TERMINATION = "certidao-de-obito", "rescisao"
# Folded names this alike are one name read with a slip (OCR, a missing accent);
# SequenceMatcher's ratio: 0.9 lets one wrong letter in twelve through, no more.
NAME_LIKENESS = 0.9
PARTICLES = {"da", "de", "do", "das", "dos", "e"}


@dataclass
class Comparison:
    """What matched; None: the field was not read (or does not apply)."""

    name_ok: bool | None = None
    cpf_ok: bool | None = None
    days_apart: int | None = None
    matricula_ok: bool | None = None
    checks: list[dict] = field(default_factory=list)

    @property
    def all_match(self) -> bool | None:
        parts = (self.name_ok, self.cpf_ok, None if self.days_apart is None else self.days_apart == 0)
        if None in parts:
            return None
        return all(parts)


def same_name(read: str, insured: str) -> bool:
    a, b = fold(read), fold(insured)
    if not a or not b:
        return False
    if a == b or difflib.SequenceMatcher(None, a, b).ratio() >= NAME_LIKENESS:
        return True
    # A name printed without a middle name, or with one more: same first and last
    # name, and every other word of the shorter in the longer.
    words_a = [w for w in a.split() if w not in PARTICLES]
    words_b = [w for w in b.split() if w not in PARTICLES]
    shorter, longer = sorted((words_a, words_b), key=len)
    return (len(shorter) >= 2 and shorter[0] == longer[0] and shorter[-1] == longer[-1]
            and set(shorter) <= set(longer))


def compare(kind: str, fields: dict, *, insured_name: str, insured_cpf: str,
            occurred_on: dt.date, matricula_valid: bool | None = None) -> Comparison:
    result = Comparison()
    if kind not in (DEATH_CERTIFICATE, TERMINATION):
        return result
    checks = result.checks
    if "nome" in fields:
        result.name_ok = same_name(fields["nome"], insured_name)
        checks.append(_check("nome confere" if result.name_ok else "nome diverge", result.name_ok,
                             f"lido: {fields['nome']}; segurado: {insured_name}"))
    else:
        checks.append(_check("nome não encontrado", None, "o nome não foi lido no documento"))
    if "cpf" in fields:
        result.cpf_ok = fields["cpf"] == insured_cpf
        checks.append(_check("CPF confere" if result.cpf_ok else "CPF diverge", result.cpf_ok,
                             f"lido: {mask_tax_id(fields['cpf'])}; segurado: "
                             f"{mask_tax_id(insured_cpf)}"))
    else:
        checks.append(_check("CPF não encontrado", None, "nenhum CPF válido lido no documento"))
    date_field, what = (("data_obito", "data do óbito") if kind == DEATH_CERTIFICATE
                        else ("data_afastamento", "data do afastamento"))
    if date_field in fields:
        read_on = dt.date.fromisoformat(fields[date_field])
        result.days_apart = abs((read_on - occurred_on).days)
        detail = f"{what}: {read_on:%d/%m/%Y}; ocorrência: {occurred_on:%d/%m/%Y}"
        checks.append(_check("data confere", True, detail) if result.days_apart == 0 else
                      _check(f"data diverge em {result.days_apart} dia"
                             f"{'s' if result.days_apart > 1 else ''}", False, detail))
    else:
        checks.append(_check(f"{what} não encontrada", None, f"a {what} não foi lida"))
    if kind == DEATH_CERTIFICATE:
        if "matricula" in fields:
            result.matricula_ok = matricula_valid
            checks.append(_check("matrícula válida" if matricula_valid else "matrícula inválida",
                                 matricula_valid, "dígitos verificadores (módulo 11) "
                                 + ("conferem" if matricula_valid else "não conferem")))
        else:
            checks.append(_check("matrícula não encontrada", None,
                                 "os 32 dígitos da matrícula não foram lidos"))
    overall = result.all_match
    label = "certidão" if kind == DEATH_CERTIFICATE else "rescisão"
    checks.insert(0, _check(
        f"{label} confere" if overall else (f"{label} diverge" if overall is False
                                            else f"{label} não conferida por inteiro"),
        overall, "nome, CPF e data" + (" conferem com o sinistro" if overall else
                                       " comparados com o sinistro")))
    return result


def _check(fact: str, ok: bool | None, detail: str) -> dict:
    return {"fato": fact, "ok": ok, "detalhe": detail}
