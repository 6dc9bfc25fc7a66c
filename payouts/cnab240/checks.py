"""Check digits where the bank publishes the rule, and the shapes of PIX keys (DICT)."""

import re
import uuid

from stdnum.br import cnpj, cpf

_EMAIL = re.compile(r"^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$", re.IGNORECASE)
_PHONE = re.compile(r"^\+55[1-9][0-9][0-9]{8,9}$")  # DICT: +55, DDD, 8 or 9 digits


def itau_account_dv(branch: str, account: str) -> str | None:
    """Itaú's DAC: module 10 over branch (4) + account (5), weights 2,1,2,1... from the
    right, digits of each product summed (SISPAG and Itaú Cobrança manuals). None when the
    numbers do not fit Itaú's 4 + 5 digits."""
    branch, account = branch.lstrip("0").rjust(4, "0"), account.lstrip("0").rjust(5, "0")
    if len(branch) > 4 or len(account) > 5:
        return None
    total = 0
    for i, char in enumerate(reversed(branch + account)):
        product = int(char) * (2 if i % 2 == 0 else 1)
        total += product // 10 + product % 10
    return str((10 - total % 10) % 10)


def _bb_mod11(number: str) -> str:
    """Banco do Brasil's module 11: weights 2..9 from the right, 11 - remainder; 10 is "X"
    and 11 is "0" (BB's "Cálculo do dígito verificador" of branch and account)."""
    total = sum(int(c) * (2 + i % 8) for i, c in enumerate(reversed(number)))
    dv = 11 - total % 11
    return "X" if dv == 10 else "0" if dv == 11 else str(dv)


def bb_branch_dv(branch: str) -> str | None:
    branch = branch.lstrip("0").rjust(4, "0")
    return _bb_mod11(branch) if len(branch) == 4 else None


def bb_account_dv(account: str) -> str | None:
    account = account.lstrip("0").rjust(8, "0")
    return _bb_mod11(account) if len(account) <= 12 else None


def account_problems(bank: str, branch: str, branch_dv: str, account: str,
                     account_dv: str) -> list[str]:
    """Portuguese sentences for the check digits the bank defines; other banks: none (their
    rules are not checked here, docs/cnab240.md)."""
    problems = []
    branch, account = branch.strip(), account.strip()
    if bank == "341":
        expected = itau_account_dv(branch, account)
        if expected is not None and account_dv.strip() != expected:
            problems.append(f"DV da conta Itaú {branch}/{account} deveria ser {expected}, "
                            f"veio {account_dv.strip() or 'vazio'}")
    elif bank == "001":
        expected = bb_branch_dv(branch)
        # The branch's digit is optional where people give their account (the contract):
        # checked when given.
        if expected is not None and branch_dv.strip() and branch_dv.strip().upper() != expected:
            problems.append(f"DV da agência BB {branch} deveria ser {expected}, "
                            f"veio {branch_dv.strip() or 'vazio'}")
        expected = bb_account_dv(account)
        if expected is not None and account_dv.strip().upper() != expected:
            problems.append(f"DV da conta BB {account} deveria ser {expected}, "
                            f"veio {account_dv.strip() or 'vazio'}")
    return problems


def pix_key_type(key: str) -> str | None:
    """The DICT type a key has the shape of, or None. A CPF/CNPJ key must have valid check
    digits; a random key is a UUID in its canonical 36-character form."""
    if _PHONE.match(key):
        return "telefone"
    if "@" in key:
        return "email" if len(key) <= 77 and _EMAIL.match(key) else None
    if len(key) == 11 and key.isdigit():
        return "cpf" if cpf.is_valid(key) else None
    if len(key) == 14 and key.isalnum():
        return "cnpj" if cnpj.is_valid(key) else None
    if len(key) == 36:
        try:
            return "aleatoria" if str(uuid.UUID(key)) == key.lower() else None
        except ValueError:
            return None
    return None
