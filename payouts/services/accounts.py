"""Paying accounts as ops create them (``manage.py bank_account``; the admin edits them)."""

import re

from django.core.exceptions import ValidationError
from django.db import transaction

from claims.models import Channel
from claims.validators import validate_cpf_or_cnpj
from payouts.models import Flavour, PayingAccount

# The flavour a bank's code implies when none is given (docs/cnab240.md).
FLAVOUR_OF_BANK = {"341": Flavour.ITAU, "237": Flavour.BRADESCO, "001": Flavour.BB,
                   "033": Flavour.SANTANDER}


def split_digit(value: str) -> tuple[str, str]:
    """"56789-0" -> ("56789", "0"); "56789" -> ("56789", "")."""
    number, _, digit = value.strip().partition("-")
    return number, digit


@transaction.atomic
def add_account(*, bank: str, branch: str, account: str, agreement: str, cnpj: str,
                company_name: str, name: str = "", flavour: str = "", is_default: bool = False,
                channels: list[str] = (), coverages: list[str] = ()) -> PayingAccount:
    """Raises ValidationError (field -> messages) on anything wrong; nothing is saved."""
    problems: dict[str, list[str]] = {}
    branch_number, branch_digit = split_digit(branch)
    account_number, account_digit = split_digit(account)
    cnpj = re.sub(r"[./-]", "", cnpj.strip()).upper()
    try:
        if len(cnpj) != 14:
            raise ValidationError("O CNPJ da empresa tem 14 caracteres.")
        validate_cpf_or_cnpj(cnpj)
    except ValidationError as exc:
        problems["cnpj"] = exc.messages
    if not re.fullmatch(r"\d{3}", bank):
        problems["bank"] = ["O banco é o código COMPE: 3 dígitos (p. ex. 341)."]
    if not re.fullmatch(r"\d{1,5}", branch_number) or not re.fullmatch(r"[0-9Xx]?", branch_digit):
        problems["branch"] = ["Agência: até 5 dígitos, e o dígito depois do hífen (1234-5)."]
    if not re.fullmatch(r"\d{1,12}", account_number) or not re.fullmatch(r"[0-9Xx]{0,2}", account_digit):
        problems["account"] = ["Conta: até 12 dígitos, e o dígito depois do hífen (56789-0)."]
    found = {c.slug: c for c in Channel.objects.filter(slug__in=channels)}
    unknown = [slug for slug in channels if slug not in found]
    if unknown:
        problems["channel"] = [f"Canal desconhecido: {', '.join(unknown)}."]
    if problems:
        raise ValidationError(problems)
    row = PayingAccount(
        name=name or f"{bank} ag. {branch_number} c/c {account_number}", bank=bank,
        branch=branch_number, branch_digit=branch_digit.upper(), account=account_number,
        account_digit=account_digit.upper(), agreement=agreement.strip(),
        company_tax_id=cnpj, company_name=company_name.strip(),
        flavour=flavour or FLAVOUR_OF_BANK.get(bank, Flavour.FEBRABAN),
        is_default=is_default, coverages=list(coverages))
    if is_default:  # one default: the new one takes over (undone if anything fails)
        PayingAccount.objects.select_for_update().filter(is_default=True).update(is_default=False)
    row.full_clean(exclude=["channels"])
    row.save()
    row.channels.set(found.values())
    return row
