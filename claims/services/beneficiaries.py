"""Who a claim pays: beneficiaries and heirs with their shares, the creditor of a
credit-life claim, and their payment data (claims.models.Beneficiary).

The rules, for every entry point (the channel's ``detalhes-pagamento``, the hosted
pages, the analysts' admin):

- a death coverage never pays the insured person: they have died. The beneficiaries
  designated on the policy or, without designation, the heirs are paid (Lei
  15.040/2024, art. 115, which took over the Código Civil's art. 792);
- a living coverage pays the insured person, created with the claim at 100% (their CPF
  is the sale's); a legal representative is recorded on them where needed;
- the creditor exists only on a credit-life claim (an outstanding balance) and is paid
  first, up to the balance (Res. CNSP 365/2018); shares split what is left;
- the same tax id again replaces that beneficiary's data; shares never pass 100%;
- the insured person's tax id, in any spelling, belongs to the insured alone: on a
  death coverage nobody (beneficiary, creditor, legal representative, payee, PIX key)
  carries it, and a creditor never does (docs/beneficiaries.md, "The insured's tax id");
- on a living coverage the insured person receives 100% of what the creditor leaves.
"""

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from claims import errors, red_flags
from claims.coverages import coverage_label, pays_on_death
from claims.formatting import brl, percent
from claims.models import Beneficiary, BeneficiaryKind, Claim
from claims.services.moves import actor_for, lock_claim, move, require_action_permission
from claims.services.recording import record_move
from claims.services.reissue import reissue_returned
from claims.shares import WHOLE, entitlements, total_share
from claims.validators import mask_tax_id, same_tax_id
from claims.workflow import CLOSED_STATUSES, Action, ClaimStatus


def insured_beneficiary(claim: Claim, *, actor: str) -> Beneficiary | None:
    """A living coverage's beneficiary: the insured person, at 100%, with no payment
    data yet. None on a death coverage."""
    if pays_on_death(claim.coverage.name):
        return None
    return Beneficiary(claim=claim, kind=BeneficiaryKind.INSURED, name=claim.sale.insured_name,
                       tax_id=claim.sale.insured_cpf, share=WHOLE, informed_by=actor,
                       created_at=claim.notified_at)


def inform_beneficiary(claim: Claim, details: dict, *, actor: str,
                       beneficiaries: list[Beneficiary] | None = None,
                       at: dt.datetime | None = None) -> Beneficiary:
    """Add or replace (same tax id) one beneficiary of ``claim`` from validated
    ``detalhes-pagamento`` (English keys; ``payment_method`` may be absent when an
    analyst records an heir before their bank data). The caller holds the claim's lock;
    ``at``: the moment of the step (now by default), a new beneficiary's time."""
    data = details["beneficiary"]
    if beneficiaries is None:
        beneficiaries = list(claim.beneficiaries.all())
    existing = next((b for b in beneficiaries if b.tax_id == data["tax_id"]), None)
    others = [b for b in beneficiaries if b is not existing]
    _check_kind(claim, data, existing)
    check_not_the_insured(claim, kind=data["kind"], tax_ids={
        "beneficiário": data["tax_id"],
        "representante legal": data.get("representative_tax_id", ""),
    }, payment_method=details.get("payment_method"))
    if data["kind"] == BeneficiaryKind.INSURED and data.get("share") not in (None, WHOLE):
        raise errors.BeneficiaryNotAllowed(
            f"Cobertura {coverage_label(claim.coverage.name)}: o segurado recebe 100% do que "
            f"o credor deixar (participacao {percent(data['share'])} não cabe). Nas "
            "coberturas pagas em vida ninguém mais é beneficiário; quem recebe por ele (um "
            "representante legal) é registrado pela seguradora.")
    if data["kind"] == BeneficiaryKind.CREDITOR:
        previous = next((b for b in others if b.kind == BeneficiaryKind.CREDITOR), None)
        if previous is not None:
            _replace_creditor(previous)
            others.remove(previous)
    share = None if data["kind"] == BeneficiaryKind.CREDITOR else _share(data, existing, others)
    if existing is not None and share != existing.share:
        _check_share_covers_payments(claim, existing, share, others)
    beneficiary = existing or Beneficiary(claim=claim, tax_id=data["tax_id"],
                                          created_at=at or timezone.now())
    beneficiary.kind = data["kind"]
    beneficiary.name = data["name"]
    beneficiary.share = share
    for field, key in (("relationship", "relationship"), ("birth_date", "birth_date"),
                       ("email", "email"), ("phone", "phone"),
                       ("representative_name", "representative_name"),
                       ("representative_tax_id", "representative_tax_id")):
        if key in data:
            setattr(beneficiary, field, data[key])
    address = data.get("address") or {}
    beneficiary.postal_code = address.get("postal_code", beneficiary.postal_code)
    beneficiary.state = address.get("state", beneficiary.state)
    if details.get("payment_method"):
        beneficiary.payment_method = details["payment_method"]
        beneficiary.destination = red_flags.destination_of(details["payment_method"])
    beneficiary.informed_by = actor
    beneficiary.save()
    return beneficiary


def _check_kind(claim: Claim, data: dict, existing: Beneficiary | None) -> None:
    kind, on_death = data["kind"], pays_on_death(claim.coverage.name)
    coverage = coverage_label(claim.coverage.name)
    if kind == BeneficiaryKind.INSURED and on_death:
        raise errors.BeneficiaryNotAllowed(
            f"Cobertura {coverage}: o segurado ({claim.sale.insured_name}) faleceu e não "
            "recebe a indenização. Quem recebe são os beneficiários designados na apólice "
            "ou, sem designação, os herdeiros (metade ao cônjuge, o restante aos herdeiros "
            "na ordem da sucessão: Lei 15.040/2024, art. 115). Informe cada um com tipo "
            "outro, participacao e parentesco.")
    if kind == BeneficiaryKind.INSURED and data["tax_id"] != claim.sale.insured_cpf:
        raise errors.BeneficiaryNotAllowed(
            f"O segurado desta venda tem o CPF {mask_tax_id(claim.sale.insured_cpf)}: "
            "tipo segurado é só ele. Quem recebe por ele (um representante legal) é "
            "registrado pela seguradora.")
    if kind == BeneficiaryKind.CREDITOR and not claim.is_credit_life:
        raise errors.BeneficiaryNotAllowed(
            "Sem saldo-devedor o sinistro não tem credor: informe o saldo devedor antes "
            "(seguro prestamista).")
    if kind == BeneficiaryKind.OTHER and not on_death:
        raise errors.BeneficiaryNotAllowed(
            f"Cobertura {coverage}: a indenização é paga ao próprio segurado (tipo segurado, "
            "o CPF da venda), não a outra pessoa.")
    if existing is not None and existing.kind != kind and existing.payments.exists():
        raise errors.BeneficiaryNotAllowed(
            f"{existing.name} já recebeu pagamentos como "
            f"{existing.get_kind_display().lower()}: o tipo não muda.")


def check_not_the_insured(claim: Claim, *, kind: str, tax_ids: dict[str, str],
                          payment_method: dict | None) -> None:
    """Refuse money bound for the insured person's tax id where it cannot go to them:
    on a death coverage (they have died; Lei 15.040/2024, art. 115: the designated
    beneficiaries or the heirs are paid), and to a creditor on any coverage (a creditor
    is the lender, never the insured). ``tax_ids``: role -> tax id as given."""
    insured = claim.sale.insured_cpf
    on_death = pays_on_death(claim.coverage.name)
    if not on_death and kind != BeneficiaryKind.CREDITOR:
        return
    carried = [role for role, tax_id in tax_ids.items() if same_tax_id(tax_id, insured)]
    if red_flags.pays_to_tax_id(red_flags.destination_of(payment_method), insured):
        carried.append("chave PIX")
    if not carried:
        return
    where = " e ".join(carried)
    if on_death:
        raise errors.BeneficiaryNotAllowed(
            f"Cobertura {coverage_label(claim.coverage.name)}: o CPF "
            f"{mask_tax_id(insured)} é do segurado, {claim.sale.insured_name}, que faleceu; "
            f"informado como {where}. Ninguém recebe em nome dele nem em conta ou chave com "
            "o CPF dele: recebem os beneficiários designados na apólice ou, sem designação, "
            "os herdeiros, cada um com o próprio CPF (Lei 15.040/2024, art. 115).")
    raise errors.BeneficiaryNotAllowed(
        f"O CPF {mask_tax_id(insured)} é do segurado, {claim.sale.insured_name}; informado "
        f"como {where} do credor. O credor é quem concedeu o crédito (o banco ou a "
        "financeira), nunca o segurado: informe o CNPJ ou CPF do credor.")


def _check_share_covers_payments(claim: Claim, existing: Beneficiary, share, others) -> None:
    """A new share never leaves someone paid more than it gives them."""
    payments = list(claim.payments.all())
    if not any(p.beneficiary_id == existing.pk for p in payments):
        return
    current = existing.share
    existing.share = share
    try:
        mine = next(e for e in entitlements(
            amount=claim.amount, outstanding_balance=claim.outstanding_balance,
            beneficiaries=[*others, existing], payments=payments) if e.beneficiary is existing)
    finally:
        existing.share = current
    if mine.paid > mine.due:
        raise errors.SharesAboveWhole(
            f"{existing.name} já recebeu {brl(mine.paid)}; com {percent(share)} lhe caberiam "
            f"{brl(mine.due)}. Uma participação não fica abaixo do que já foi pago.")


def _replace_creditor(previous: Beneficiary) -> None:
    if previous.payments.exists():
        raise errors.BeneficiaryNotAllowed(
            f"O credor {previous.name} ({mask_tax_id(previous.tax_id)}) já recebeu "
            "pagamentos: o credor do sinistro não muda.")
    previous.delete()


def _share(data: dict, existing: Beneficiary | None, others: list[Beneficiary]) -> Decimal:
    """The share given, or the one the beneficiary had, or 100% for the only one."""
    sharing = [b for b in others if b.kind != BeneficiaryKind.CREDITOR]
    given = total_share(sharing)
    share = data.get("share")
    if share is None:
        share = existing.share if existing is not None and existing.share is not None \
            else (WHOLE if not sharing else None)
    if share is None:
        raise errors.SharesAboveWhole(
            f"Já há {len(sharing)} beneficiário(s) com {percent(given)} no total: informe "
            "participacao deste também.")
    if given + share > WHOLE:
        who = ", ".join(f"{b.name} {percent(b.share)}" for b in sharing if b.share)
        raise errors.SharesAboveWhole(
            f"As participações somariam {percent(given + share)}. Já informado: "
            f"{percent(given)} ({who}); resta {percent(WHOLE - given)}.")
    return share


def person_documents(beneficiary: Beneficiary) -> list[tuple[str, str]]:
    """The documents one person proves who they are with: their identity; an heir's proof
    of relationship (marriage, birth or stable-union certificate); a legal
    representative's identity and standing. The creditor proves nothing here: the
    channel that sold the credit names it. Each document type is that person's own
    (``identidade-<8 characters of their id>``), so the channel and the hosted pages
    send each file to the right person. (type, title) pairs."""
    if beneficiary.kind == BeneficiaryKind.CREDITOR:
        return []
    short, name = beneficiary.pk.hex[:8], beneficiary.name
    documents = [(f"identidade-{short}", f"Documento de identidade de {name}")]
    if beneficiary.kind == BeneficiaryKind.OTHER and beneficiary.relationship not in (
            "", "sem-parentesco"):
        documents.append((f"parentesco-{short}", f"Comprovante de parentesco de {name} "
                          "(certidão de casamento, de nascimento ou de união estável)"))
    if beneficiary.representative_tax_id:
        documents.append((f"representante-{short}", "Documento e comprovante de "
                          f"representação de {beneficiary.representative_name}, representante "
                          f"legal de {name}"))
    return documents


def missing_payment_data(claim: Claim, beneficiaries: list[Beneficiary]) -> list[str]:
    """What the claim still lacks to pay everybody, in words (empty: nothing)."""
    missing = []
    creditor = next((b for b in beneficiaries if b.kind == BeneficiaryKind.CREDITOR), None)
    if claim.is_credit_life and claim.outstanding_balance > 0:
        if creditor is None:
            missing.append("o credor (tipo credor) e seus dados de pagamento")
        elif not creditor.has_payment_data:
            missing.append(f"os dados de pagamento do credor {creditor.name}")
    sharing = [b for b in beneficiaries if b.kind != BeneficiaryKind.CREDITOR]
    if not sharing:
        missing.append("os beneficiários ou herdeiros, com participação")
    elif total_share(sharing) < WHOLE:
        missing.append(f"participações que somem 100% (hoje {percent(total_share(sharing))})")
    missing.extend(f"os dados de pagamento de {b.name}" for b in sharing
                   if not b.has_payment_data and not b.is_held)
    return missing


@transaction.atomic
def supply_payment_details(*, channel, number: str, payment_details: dict, actor: str,
                           at: dt.datetime | None = None) -> Claim:
    """The channel's (or the requester's) ``detalhes-pagamento`` for one beneficiary,
    on any open claim. Answering ``sinistro-pendente-de-dados-de-pagamento``, the claim
    returns to regulation once every beneficiary's data is in; until then it stays
    pending. No event: the contract's list is closed and the caller already knows.
    ``at``: the moment of the step, now by default (the demo's past passes its own)."""
    claim = lock_claim(channel=channel, number=number)
    if claim.status in CLOSED_STATUSES:
        raise errors.PaymentNotAwaitingDetails()
    beneficiaries = list(claim.beneficiaries.all())
    beneficiary = inform_beneficiary(claim, payment_details, actor=actor,
                                     beneficiaries=beneficiaries, at=at)
    beneficiaries = list(claim.beneficiaries.all())
    action = Action.INFORM_BENEFICIARY
    if claim.status == ClaimStatus.PENDING_PAYMENT_DATA and \
            not missing_payment_data(claim, beneficiaries):
        action = Action.SUPPLY_PAYMENT_DATA
    from_status = move(claim, action)
    method = payment_details.get("payment_method")
    record_move(claim, action=action, from_status=from_status, actor=actor,
                note=_informed_note(beneficiary, method), changed=("status",), at=at)
    # Someone whose payment the bank returned is paid again from the new data.
    reissue_returned(claim, beneficiary, at=at)
    red_flags.refresh(claim)
    red_flags.refresh_sharing(claim, beneficiary.destination)
    return claim


def _informed_note(beneficiary: Beneficiary, method: dict | None) -> str:
    share = f", {percent(beneficiary.share)}" if beneficiary.share is not None else ""
    how = f", {method['method'].upper()}" if method else ", sem dados de pagamento"
    return (f"{beneficiary.get_kind_display()} {beneficiary.name} "
            f"({mask_tax_id(beneficiary.tax_id)}{share}{how}).")


@transaction.atomic
def save_beneficiary(*, claim_id, user, details: dict, expected_version: int | None = None
                     ) -> Beneficiary:
    """An analyst records a beneficiary or heir (from the documents) or corrects one."""
    require_action_permission(user, Action.INFORM_BENEFICIARY,
                              "Somente analistas e supervisores registram beneficiários.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    beneficiary = inform_beneficiary(claim, details, actor=actor_for(user))
    action = Action.INFORM_BENEFICIARY
    if claim.status == ClaimStatus.PENDING_PAYMENT_DATA and \
            not missing_payment_data(claim, list(claim.beneficiaries.all())):
        action = Action.SUPPLY_PAYMENT_DATA
    from_status = move(claim, action)
    record_move(claim, action=action, from_status=from_status, actor=actor_for(user), user=user,
           note=_informed_note(beneficiary, details.get("payment_method")), changed=("status",))
    # Someone whose payment the bank returned is paid again from the new data.
    reissue_returned(claim, beneficiary)
    red_flags.refresh(claim)
    red_flags.refresh_sharing(claim, beneficiary.destination)
    return beneficiary


@transaction.atomic
def remove_beneficiary(*, claim_id, beneficiary_id, user, reason: str,
                       expected_version: int | None = None) -> Beneficiary:
    """Take out someone named by mistake (a wrong CPF, a person who is no heir), with a
    reason, while nothing was paid to them. Their documents asked for stay on the claim,
    no longer tied to anyone."""
    require_action_permission(user, Action.REMOVE_BENEFICIARY,
                              "Somente analistas e supervisores removem beneficiários.")
    reason = reason.strip()
    if not reason:
        raise errors.BeneficiaryNotAllowed("Diga por que o beneficiário é removido.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    beneficiary = Beneficiary.objects.select_for_update().filter(
        pk=beneficiary_id, claim=claim).first()
    if beneficiary is None:
        raise errors.BeneficiaryNotAllowed("Beneficiário não encontrado neste sinistro.")
    if beneficiary.payments.exists():
        raise errors.BeneficiaryNotAllowed(
            f"{beneficiary.name} já recebeu pagamentos: não sai do sinistro (retenha o "
            "que resta da participação, se for o caso).")
    from_status = move(claim, Action.REMOVE_BENEFICIARY)
    note = (f"{beneficiary.get_kind_display()} {beneficiary.name} "
            f"({mask_tax_id(beneficiary.tax_id)}) removido. Motivo: {reason}")
    beneficiary.delete()
    record_move(claim, action=Action.REMOVE_BENEFICIARY, from_status=from_status,
           actor=actor_for(user), user=user, note=note, changed=("status",))
    red_flags.refresh(claim)
    return beneficiary


@transaction.atomic
def hold_share(*, claim_id, beneficiary_id, user, reason: str,
               expected_version: int | None = None) -> Beneficiary:
    """Hold what is left of a beneficiary's share, with a reason: it is paid no more
    and counts as done for finalizing (a minor's share deposited in court, an heir not
    found). Reopening the claim and recording the beneficiary again lifts nothing by
    itself: a held share stays held."""
    require_action_permission(user, Action.HOLD_SHARE,
                              "Somente analistas e supervisores retêm participações.")
    reason = reason.strip()
    if not reason:
        raise errors.PaymentNotAllowed("Diga por que a participação fica retida.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    beneficiary = Beneficiary.objects.select_for_update().filter(
        pk=beneficiary_id, claim=claim).first()
    if beneficiary is None:
        raise errors.PaymentNotAllowed("Beneficiário não encontrado neste sinistro.")
    if beneficiary.is_held:
        raise errors.PaymentNotAllowed(f"A participação de {beneficiary.name} já está retida.")
    from_status = move(claim, Action.HOLD_SHARE)
    entitlement = next(e for e in entitlements(
        amount=claim.amount, outstanding_balance=claim.outstanding_balance,
        beneficiaries=list(claim.beneficiaries.all()), payments=list(claim.payments.all()))
        if e.beneficiary.pk == beneficiary.pk)
    beneficiary.hold_reason, beneficiary.held_at, beneficiary.held_by = reason, timezone.now(), user
    beneficiary.save(update_fields=["hold_reason", "held_at", "held_by", "updated_at"])
    record_move(claim, action=Action.HOLD_SHARE, from_status=from_status, actor=actor_for(user),
           user=user, changed=("status",),
           note=f"Participação de {beneficiary.name} retida: "
                f"{brl(entitlement.due - entitlement.paid)}. Motivo: {reason}")
    return beneficiary
