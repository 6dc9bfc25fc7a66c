"""Placing and releasing legal holds (docs/privacy.md, "Legal holds"). One function per
change; each locks the hold row it changes, so two people acting at once cannot both
win. Releasing takes two people: one asks, another confirms (a database constraint
holds it too: privacy.models.LegalHold)."""

from django.db import transaction
from django.utils import timezone
from stdnum.br import cpf as cpf_number

from claims.models import Claim, Sale
from claims.services.moves import actor_for
from privacy.errors import HoldRefused
from privacy.models import HoldTarget, LegalHold


def cpf_digits(value: str) -> str | None:
    """The CPF's 11 digits, or None when it is no CPF. python-stdnum accepts eleven equal
    digits ("111.111.111-11": their check digits add up), which the Receita never
    issues."""
    digits = cpf_number.compact(value or "")
    return digits if cpf_number.is_valid(digits) and len(set(digits)) > 1 else None


def _required(reason: str, reference: str) -> tuple[str, str]:
    reason, reference = (reason or "").strip(), (reference or "").strip()
    if not reason:
        raise HoldRefused("Informe o motivo da retenção.")
    if not reference:
        raise HoldRefused("Informe a referência: o número do processo judicial ou "
                          "administrativo (SUSEP) que justifica a retenção.")
    return reason, reference


def _actor(user, actor: str) -> str:
    return actor or actor_for(user)


@transaction.atomic
def place_hold(*, reason: str, reference: str, user=None, actor: str = "",
               claim: Claim | None = None, sale: Sale | None = None,
               cpf: str = "") -> LegalHold:
    """Hold one claim, one sale or one CPF's records past their term. Who acts: a
    ``user`` (the admin) or an ``actor`` ("operacao:<login>", the shell)."""
    reason, reference = _required(reason, reference)
    targets = [target for target in (claim, sale, cpf) if target]
    if len(targets) != 1:
        raise HoldRefused("Uma retenção vale para um sinistro, uma venda ou um CPF: "
                          "informe exatamente um.")
    hold = LegalHold(reason=reason, reference=reference, placed_by=_actor(user, actor),
                     placed_at=timezone.now())
    if claim is not None:
        hold.target, hold.claim = HoldTarget.CLAIM, claim
    elif sale is not None:
        hold.target, hold.sale = HoldTarget.SALE, sale
    else:
        digits = cpf_digits(cpf)
        if digits is None:
            raise HoldRefused(f"CPF inválido: {cpf}.")
        hold.target, hold.cpf = HoldTarget.CPF, digits
    _refuse_anonymised(hold)
    hold.save()
    return hold


def _refuse_anonymised(hold: LegalHold) -> None:
    if hold.claim is not None and hasattr(hold.claim, "anonymisation"):
        raise HoldRefused("Os dados pessoais deste sinistro já foram anonimizados: não há "
                          "o que reter.")


def _locked(hold: LegalHold) -> LegalHold:
    locked = LegalHold.objects.select_for_update().get(pk=hold.pk)
    if locked.released_at is not None:
        raise HoldRefused("Esta retenção já foi liberada.")
    return locked


@transaction.atomic
def request_release(hold: LegalHold, *, reason: str, user=None, actor: str = "") -> LegalHold:
    """The first person asks to release the hold, saying why (the case ended...)."""
    hold = _locked(hold)
    reason = (reason or "").strip()
    if not reason:
        raise HoldRefused("Informe o motivo da liberação (por exemplo, o trânsito em "
                          "julgado do processo).")
    if hold.release_requested_at is not None:
        raise HoldRefused("A liberação desta retenção já foi pedida: falta a confirmação "
                          "de outra pessoa.")
    hold.release_requested_by = _actor(user, actor)
    hold.release_requested_at = timezone.now()
    hold.release_reason = reason
    hold.save(update_fields=["release_requested_by", "release_requested_at",
                             "release_reason"])
    return hold


@transaction.atomic
def confirm_release(hold: LegalHold, *, user=None, actor: str = "") -> LegalHold:
    """A second person confirms: the hold ends, and the clock it suspended runs again."""
    hold = _locked(hold)
    if hold.release_requested_at is None:
        raise HoldRefused("Peça a liberação primeiro: outra pessoa a confirma.")
    who = _actor(user, actor)
    if hold.release_requested_by == who:
        raise HoldRefused("A liberação precisa de uma segunda pessoa: quem pediu não "
                          "pode confirmar.")
    hold.released_by, hold.released_at = who, timezone.now()
    hold.save(update_fields=["released_by", "released_at"])
    return hold


@transaction.atomic
def withdraw_release_request(hold: LegalHold) -> LegalHold:
    """The release asked for is withdrawn (the second person disagrees): the hold stays."""
    hold = _locked(hold)
    if hold.release_requested_at is None:
        raise HoldRefused("Não há liberação pedida para esta retenção.")
    hold.release_requested_by, hold.release_requested_at = "", None
    hold.release_reason = ""
    hold.save(update_fields=["release_requested_by", "release_requested_at",
                             "release_reason"])
    return hold
