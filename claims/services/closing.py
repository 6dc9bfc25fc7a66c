"""Closing and reopening a claim: finalize, deny, reopen."""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from claims import errors
from claims.denials import DenialCode, days_late_now
from claims.formatting import brl, percent
from claims.models import BeneficiaryKind, Claim, Payment, Reconsideration
from claims.services import reconsiderations
from claims.shares import WHOLE, entitlements, total_share
from claims.limits import available_limits, open_claim_on, tighter_limit
from claims.services.moves import (
    actor_for,
    check_move,
    lock_claim,
    move,
    require_action_permission,
    require_authority,
)
from claims.services.recording import ZERO, record_move
from claims.workflow import Action, ClaimStatus


@transaction.atomic
def finalize(*, claim_id, user, reason: str = "", expected_version: int | None = None,
             proposed_by=None, at: dt.datetime | None = None) -> Claim:
    """Close the claim: every payment settled, and at least one payment or a reason
    (for example a withdrawn notice). The unpaid reserve is released: ``valor``
    becomes what was paid, so the LMI/LMG left grows back by the rest. Closing with
    nothing paid ends the claim without indemnity, as a denial does: supervisors only
    (an analyst proposes it, workbench.services.approvals). ``at``: the closing's
    moment, now by default."""
    require_action_permission(user, Action.FINALIZE,
                              "Somente analistas e supervisores finalizam sinistros.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    payments = check_finalize(claim, reason=reason, deciding=user)
    from_status = move(claim, Action.FINALIZE)
    paid = sum((p.amount for p in payments), ZERO)
    released = claim.amount - paid
    claim.amount = paid
    note = f"Pago {brl(paid)}."
    if released:
        note += f" Reserva liberada: {brl(released)}."
    record_move(claim, action=Action.FINALIZE, from_status=from_status, actor=actor_for(user),
                user=user, note=f"{note} {reason}".strip(), changed=("status", "amount"),
                proposed_by=proposed_by, at=at)
    return claim


def _check_every_share_done(claim: Claim, payments: list[Payment]) -> None:
    """Once cover is recognised (something was paid), the claim ends only when every
    share is paid or held: finalizing releases the rest of the reserve, which would
    otherwise leave an heir unpaid."""
    beneficiaries = list(claim.beneficiaries.all())
    open_shares = [e for e in entitlements(
        amount=claim.amount, outstanding_balance=claim.outstanding_balance,
        beneficiaries=beneficiaries, payments=payments) if not e.done]
    if open_shares:
        raise errors.FinalizationNotAllowed(
            "Falta pagar ou reter: " + "; ".join(
                f"{e.beneficiary.name} ({brl(e.due - e.paid)})" for e in open_shares) + ".")
    sharing = [b for b in beneficiaries if b.kind != BeneficiaryKind.CREDITOR]
    if sharing and total_share(sharing) < WHOLE:
        raise errors.FinalizationNotAllowed(
            f"As participações somam {percent(total_share(sharing))}: registre quem recebe "
            "o restante (ou retenha-o) antes de finalizar.")


def check_finalize(claim: Claim, *, reason: str, deciding) -> list[Payment]:
    """Every refusal finalizing ``claim`` meets now, without writing; returns its
    payments. ``deciding``: the person whose authority a closing with nothing paid
    needs; None for a proposal (workbench.services.approvals), which a supervisor decides."""
    check_move(claim, Action.FINALIZE)
    # A payment the bank returned paid nothing: it neither closes a share nor blocks.
    payments = [p for p in claim.payments.all() if p.counts]
    if not payments:
        require_authority(deciding, Action.FINALIZE,
                          "Encerrar sem pagamento é decisão de um supervisor de sinistros.")
    unsettled = [p for p in payments if p.status != Payment.Status.SETTLED]
    if unsettled:
        raise errors.FinalizationNotAllowed(
            f"Há {len(unsettled)} pagamento(s) ainda não liquidado(s): liquide-os antes de finalizar."
        )
    if not payments and not reason.strip():
        raise errors.FinalizationNotAllowed(
            "O sinistro não tem pagamentos: informe o motivo do encerramento."
        )
    if payments:
        _check_every_share_done(claim, payments)
    return payments


@transaction.atomic
def deny(
    *, claim_id, user, reason: str, code: int | None = None, clause: str = "",
    internal_note: str = "", late_justification: str = "",
    denied_at: dt.datetime | None = None, expected_version: int | None = None, proposed_by=None,
    at: dt.datetime | None = None,
) -> Claim:
    """Deny cover, explicitly and with reasons (Lei 15.040/2024, art. 86): the SUSEP
    reason ``code`` (claims.denials.DenialCode), the policy ``clause`` it rests on and
    ``reason``, the text the insured person and the channel read (``recusa.descricao``,
    the denial letter). ``internal_note`` stays with the team: only the history row
    keeps it. ``late_justification``: why the insurer still denies after the art. 86
    deadline. The claim's value stops consuming the LMI/LMG. Refused once a payment
    exists: cover was recognised. Past the decision deadline (a running decision clock
    whose deadline's local date is before today) a denial without ``late_justification``
    is refused, whoever asks (admin, proposal, command). ``proposed_by``: the analyst
    whose proposal ``user`` approved. ``at``: the moment of the decision, now by default
    (``denied_at`` is the denial's own date, which may be earlier)."""
    require_authority(user, Action.DENY, "Somente supervisores de sinistros recusam sinistros.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    now = at or timezone.now()
    denied_at = denied_at or now
    late = check_denial(claim, reason=reason, code=code, clause=clause,
                        late_justification=late_justification, denied_at=denied_at, now=now)
    from_status = move(claim, Action.DENY)
    reason, clause = reason.strip(), clause.strip()
    internal_note, late_justification = internal_note.strip(), late_justification.strip()
    claim.denied_at = denied_at
    claim.denial_reason = reason
    claim.denial_code = DenialCode(int(code))
    claim.denial_clause = clause
    # Only a late denial has one: in time, the field stays empty.
    claim.denial_late_justification = late_justification if late else ""
    record_move(claim, action=Action.DENY, from_status=from_status, actor=actor_for(user), user=user,
                note=denial_note(claim, internal_note=internal_note),
                changed=("status", *DENIAL_FIELDS), proposed_by=proposed_by, at=now)
    return claim


def check_denial(claim: Claim, *, reason: str, code, clause: str, late_justification: str,
                 denied_at, now) -> int:
    """Every refusal denying ``claim`` meets now, without writing (the authority is the
    caller's to check: ``deny`` asks it, a proposal stands in for it). Returns the days
    past the decision deadline."""
    _check_denial_terms(reason=reason.strip(), code=code, clause=clause.strip())
    if denied_at > now:
        raise errors.DenialNotAllowed("A data da recusa não pode estar no futuro.")
    check_move(claim, Action.DENY)
    if claim.payments.exists():
        raise errors.DenialNotAllowed(
            "Há pagamentos registrados neste sinistro: a cobertura já foi reconhecida."
        )
    late = days_late_now(claim, now=now)
    if late and not late_justification.strip():
        # Art. 86: past the deadline the insurer may have lost the right to deny.
        raise errors.DenialNotAllowed(
            f"O prazo de decisão (Lei 15.040/2024, art. 86) venceu há {days(late)}: o direito "
            "de recusar pode ter se perdido. Informe a justificativa jurídica da recusa fora "
            "do prazo.")
    return late


CLAUSE_MAX_LENGTH = Claim._meta.get_field("denial_clause").max_length
# What a denial writes on the claim, and what a reopening clears.
DENIAL_FIELDS = ("denied_at", "denial_reason", "denial_code", "denial_clause",
                 "denial_late_justification")


def _check_denial_terms(*, reason: str, code, clause: str) -> None:
    if not reason:
        raise errors.DenialNotAllowed(
            "A recusa precisa do texto para o segurado, que vai na carta de recusa e para o canal.")
    if code is None or code == "" or isinstance(code, bool):
        raise errors.DenialNotAllowed("Escolha o motivo da recusa (código SUSEP).")
    try:
        DenialCode(int(code))
    except (TypeError, ValueError):
        raise errors.DenialNotAllowed(
            f"Motivo da recusa desconhecido: {code}. Use um dos códigos SUSEP: "
            f"{', '.join(f'{c.value} ({c.label})' for c in DenialCode)}.") from None
    if not clause:
        raise errors.DenialNotAllowed(
            "Cite a cláusula da apólice em que a recusa se baseia (ex.: Cláusula 5.2 das "
            "Condições Gerais).")
    if len(clause) > CLAUSE_MAX_LENGTH:
        raise errors.DenialNotAllowed(
            f"A cláusula passa de {CLAUSE_MAX_LENGTH} caracteres: cite só o número e o documento.")


def days(n: int) -> str:
    return "1 dia" if n == 1 else f"{n} dias"


def denial_note(claim: Claim, *, internal_note: str = "") -> str:
    """The DENY history row's note, for the team: every term of the denial, the internal
    note included (the only place it is kept)."""
    lines = [f"Motivo: {claim.denial_code} - {claim.get_denial_code_display()}. "
             f"Cláusula: {claim.denial_clause}.",
             f"Texto para o segurado: {claim.denial_reason}"]
    if claim.denial_late_justification:
        lines.append("Recusa após o prazo do art. 86 (Lei 15.040/2024). Justificativa: "
                     f"{claim.denial_late_justification}")
    if internal_note:
        lines.append(f"Nota interna: {internal_note}")
    return "\n".join(lines)


@transaction.atomic
def reopen(
    *, claim_id, user, reason: str, next_status: str = ClaimStatus.UNDER_REGULATION,
    expected_version: int | None = None,
) -> Claim:
    """Reopen a finalized or denied claim for new analysis, at the step chosen.

    It becomes open again, so "one open claim per coverage" applies; a denied claim
    consumes limits again: its value is capped by what is left of the LMI and LMG, and
    with nothing left it cannot reopen. A pending request for reconsideration is marked
    ``reaberta``, and then ``user`` must have taken no part in the denial."""
    require_action_permission(user, Action.REOPEN,
                              "Somente supervisores de sinistros reabrem sinistros.")
    if not reason.strip():
        raise errors.ReopeningNotAllowed("Informe o motivo da reabertura.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    from_status = move(claim, Action.REOPEN, wanted=next_status)
    other_open = open_claim_on(claim.coverage, excluding=claim)
    if other_open:
        raise errors.ReopeningNotAllowed(
            f"Já existe o sinistro {other_open} em aberto para esta cobertura."
        )
    notes = [reason.strip()]
    if from_status == ClaimStatus.DENIED:
        lmg_available, lmi_available = available_limits(claim.sale, claim.coverage, excluding=claim)
        ceiling, which = tighter_limit(lmg_available, lmi_available)
        if ceiling <= ZERO:
            raise errors.ReopeningNotAllowed(
                f"Nada resta do {which}: o sinistro recusado não pode voltar a consumir limite."
            )
        if claim.amount > ceiling:
            notes.append(f"Valor limitado ao que resta: {brl(claim.amount)} → {brl(ceiling)}.")
            claim.amount = ceiling
        claim.denied_at, claim.denial_code = None, None
        claim.denial_reason = claim.denial_clause = claim.denial_late_justification = ""
        # A pending request for reconsideration is answered by this reopening (four eyes).
        reconsideration = reconsiderations.pending_for(claim)
        if reconsideration is not None:
            reconsiderations.decide(claim, reconsideration, user=user,
                                    status=Reconsideration.Status.REOPENED, note=reason.strip())
            notes.append("Pedido de reconsideração atendido.")
    record_move(claim, action=Action.REOPEN, from_status=from_status, actor=actor_for(user),
           user=user, note=" ".join(notes), changed=("status", "amount", *DENIAL_FIELDS))
    return claim
