"""Money: the reserve, registering payments (one per beneficiary's share, the
creditor first on credit life, the authority limit), settling them."""

from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from claims import errors, services
from workbench.admin import forms
from workbench.admin.actions.base import ClaimAction, pending_proposal, unsettled_payments
from workbench.admin.actions.closing import denial_proposal_facts
from claims import red_flags
from claims.formatting import actor_label, brl, percent
from claims.payment_words import payment_destination_in_full
from claims.formatting import tax_id as format_tax_id
from claims.models import BeneficiaryKind, Claim, Expense, Payment
from workbench.models import Proposal
from workbench.proposal_terms import ExpenseTerms, PaymentTerms, ReserveTerms, terms_of
from claims.selectors import limits_of
from claims.shares import Entitlement
from claims.workflow import ClaimStatus
from workbench import services as workbench_services


class AdjustReserve(ClaimAction):
    def initial(self, claim, chosen=""):
        return {"amount": claim.amount}

    def help(self, claim, chosen=""):
        limits = limits_of(claim)
        ceiling = min(limits.lmi_left, limits.lmg_left) + claim.amount
        return [f"Valor atual {brl(claim.amount)}; já pago ou registrado {brl(claim.paid_amount)}; "
                f"máximo possível {brl(ceiling)} (o que resta do LMI e do LMG).",
                f"Alçada do analista: variação de até {brl(settings.RESERVE_AUTHORITY_LIMIT)}, "
                "nunca zerar a reserva; acima disso, a mudança vai ao supervisor como proposta."]

    def run(self, claim, user, data):
        if workbench_services.needs_proposal(Proposal.Kind.RESERVE, user, amount=data["amount"],
                                   current=claim.amount):
            proposal = workbench_services.propose(
                claim_id=claim.pk, user=user, expected_version=data["version"],
                terms=ReserveTerms(amount=data["amount"], previous=claim.amount,
                                   reason=data["reason"]))
            return (f"Acima da sua alçada (variação até {brl(settings.RESERVE_AUTHORITY_LIMIT)}, "
                    f"nunca a zero): proposta enviada ao supervisor ({proposal.summary}). "
                    "Nada muda até a aprovação.")
        services.adjust_reserve(claim_id=claim.pk, user=user, amount=data["amount"],
                                reason=data["reason"], expected_version=data["version"])
        return f"Reserva ajustada para {brl(data['amount'])}."


class RegisterExpense(ClaimAction):
    """A regulation expense, within the payment authority (the claim's expenses add up
    against ``PAYMENT_AUTHORITY_LIMIT``); above it, a proposal."""

    def initial(self, claim, chosen=""):
        return {"incurred_on": timezone.localdate()}

    def help(self, claim, chosen=""):
        return ["Despesas de regulação (perícia, junta médica, sindicância) são pagas ao "
                "fornecedor, não aos beneficiários, e entram no registro SRO do sinistro.",
                f"Alçada do analista: despesas do sinistro até "
                f"{brl(settings.PAYMENT_AUTHORITY_LIMIT)} no total."]

    def run(self, claim, user, data):
        spent = sum((e.amount for e in claim.expenses.all()), Decimal("0.00"))
        arguments = {"kind": data["kind"], "supplier_name": data["supplier_name"],
                     "supplier_tax_id": data["supplier_tax_id"], "amount": data["amount"],
                     "incurred_on": data["incurred_on"], "note": data["note"]}
        if workbench_services.needs_proposal(Proposal.Kind.EXPENSE, user, amount=spent + data["amount"]):
            proposal = workbench_services.propose(
                claim_id=claim.pk, user=user, expected_version=data["version"],
                terms=ExpenseTerms(**arguments, kind_label=Expense.Kind(data["kind"]).label))
            return (f"Acima da sua alçada ({brl(settings.PAYMENT_AUTHORITY_LIMIT)} por "
                    f"sinistro): proposta enviada ao supervisor ({proposal.summary}). Nada "
                    "muda até a aprovação.")
        expense = services.register_expense(claim_id=claim.pk, user=user,
                                            expected_version=data["version"], **arguments)
        return (f"Despesa de {brl(expense.amount)} ({expense.get_kind_display().lower()}, "
                f"{expense.supplier_name}) registrada.")


class RegisterPayment(ClaimAction):
    """One payment towards one beneficiary's share: the form opens on the share chosen
    on the claim page (``?para=<id>``), or the first with something left (the creditor
    first), with its amount, payee and payment data filled in."""

    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        if reason is None and claim.amount <= 0:
            return "a reserva do sinistro é R$ 0,00: nada a pagar"
        if reason is None and claim.remaining_amount <= 0:
            return "nada resta a pagar: o valor do sinistro já foi registrado"
        if reason is None and not _payable(claim):
            return ("nenhuma participação a pagar: registre os beneficiários e suas "
                    "participações (ou o credor)")
        if reason is None and pending_proposal(claim) and \
                workbench_services.needs_proposal(Proposal.Kind.PAYMENT, user):
            return "aguardando a decisão do supervisor sobre a proposta pendente"
        return reason

    def status_reason(self, claim):
        if claim.status in (ClaimStatus.PENDING_DOCUMENTS, ClaimStatus.DOCUMENTS_UNDER_REVIEW):
            return "aprove a documentação antes de pagar"
        return super().status_reason(claim)

    def form_kwargs(self, claim):
        payable = _payable(claim)
        return {
            "beneficiary_choices": [(str(e.beneficiary.pk), _line(e)) for e in payable],
            "kinds": {str(e.beneficiary.pk): e.beneficiary.kind for e in payable},
        }

    def initial(self, claim, chosen=""):
        payable = _payable(claim)
        share = next((e for e in payable if str(e.beneficiary.pk) == chosen), payable[0])
        beneficiary = share.beneficiary
        payee = services.payee_of(beneficiary)
        initial = {"beneficiary": str(beneficiary.pk), "amount": share.left}
        if beneficiary.payment_method:
            initial.update(forms.PaymentDetailsForm.initial_from({
                "beneficiary": {**payee, "kind": beneficiary.kind},
                "payment_method": beneficiary.payment_method}))
        initial.update({"beneficiario_nome": payee["name"],
                        "beneficiario_cpf_ou_cnpj": format_tax_id(payee["tax_id"])})
        return initial

    def help(self, claim, chosen=""):
        lines = [f"Valor restante do sinistro: {brl(claim.remaining_amount)}. Alçada do analista: "
                 f"{brl(settings.PAYMENT_AUTHORITY_LIMIT)} por sinistro."]
        if claim.is_credit_life:
            lines.append("Seguro prestamista (Resolução CNSP 365/2018): o credor recebe primeiro, "
                         "até o saldo devedor; o restante é dividido pelas participações.")
        lines.append("A pagar: " + "; ".join(_line(e) for e in _payable(claim)) + ".")
        payable = _payable(claim)
        share = next((e for e in payable if str(e.beneficiary.pk) == chosen), payable[0])
        lines.extend(_late_charges_lines(claim, share.left))
        if share.beneficiary.payment_method:
            lines.append(f"Formulário preenchido para {share.beneficiary.name} com os dados de "
                         f"pagamento informados por {_informer(share.beneficiary)}.")
        else:
            lines.append(f"Ninguém informou os dados de pagamento de {share.beneficiary.name}: "
                         "informe-os abaixo (ou solicite-os ao canal).")
        return lines

    def run(self, claim, user, data):
        details = data["payment_details"]
        payee = {"name": details["beneficiary"]["name"], "tax_id": details["beneficiary"]["tax_id"]}
        # The authority is per claim: what it has paid so far counts (claims.services.payments).
        if workbench_services.needs_proposal(Proposal.Kind.PAYMENT, user,
                                   amount=claim.paid_amount + data["amount"]):
            proposal = workbench_services.propose(
                claim_id=claim.pk, user=user, expected_version=data["version"],
                terms=PaymentTerms(amount=data["amount"], note=data["note"],
                                   beneficiary=str(data["beneficiary"]), payee=payee,
                                   payment_method=details["payment_method"]))
            return (f"Acima da sua alçada ({brl(settings.PAYMENT_AUTHORITY_LIMIT)} por sinistro): "
                    f"proposta enviada ao supervisor ({proposal.summary}). Nada muda até a "
                    "aprovação.")
        payment = services.register_payment(
            claim_id=claim.pk, beneficiary_id=data["beneficiary"], user=user,
            amount=data["amount"], payee=payee, payment_method=details["payment_method"],
            note=data["note"], expected_version=data["version"],
        )
        return f"Pagamento de {brl(payment.amount)} para {payment.beneficiary_name} registrado."


def _late_charges_lines(claim: Claim, amount: Decimal) -> list[str]:
    """After the art. 87 deadline: what the art. 88 charges on ``amount`` come to today."""
    try:
        charges = services.late_charges_for(claim, amount)
    except errors.PaymentNotAllowed as refusal:
        return [str(refusal.detail)]
    if not charges.total:
        return []
    return [f"Pagamento após o prazo do art. 87: sobre {brl(amount)} somam-se, hoje, multa de "
            f"{brl(charges.fine)}, correção monetária de {brl(charges.correction)} e juros de "
            f"mora de {brl(charges.interest)} (Lei 15.040/2024, art. 88): total "
            f"{brl(amount + charges.total)}. {charges.basis}"]


def _payable(claim: Claim) -> list[Entitlement]:
    """The shares with something left to pay, the creditor first."""
    shares = [e for e in services.entitlements_of(claim) if e.left > 0]
    return sorted(shares, key=lambda e: e.beneficiary.kind != BeneficiaryKind.CREDITOR)


def _line(share: Entitlement) -> str:
    beneficiary = share.beneficiary
    what = beneficiary.get_kind_display().lower() if beneficiary.kind != BeneficiaryKind.OTHER \
        else (beneficiary.get_relationship_display() or "beneficiário").lower()
    part = f", {percent(beneficiary.share)}" if beneficiary.share is not None else ""
    return (f"{beneficiary.name} ({what}{part}): {brl(share.left)} de {brl(share.due)}")


def _informer(beneficiary) -> str:
    return actor_label(beneficiary.informed_by)


class SettlePayment(ClaimAction):
    permission_phrase = "liquidam pagamentos"

    def why_not(self, claim, user):
        waiting = unsettled_payments(claim)
        if not waiting:
            return ""  # nothing to settle: not worth a line
        if not user.has_perm(self.permission.perm):
            return f"{len(waiting)} pagamento(s) aguardam a liquidação por um supervisor"
        return super().why_not(claim, user)

    def help(self, claim, chosen=""):
        return ["O que foi pago por arquivo é liquidado pelo retorno do banco (CNAB 240), "
                "sem passar por aqui. Liquide à mão só as exceções (um cheque, um depósito "
                "judicial), dizendo o motivo: ele fica no histórico."]

    def form_kwargs(self, claim):
        return {"payment_choices": [
            (str(p.pk), f"{brl(p.total)}{' com os encargos do art. 88' if p.late_charges else ''}"
                        f" para {p.beneficiary_name} "
                        f"({p.get_method_display()}), registrado em "
                        f"{timezone.localtime(p.created_at):%d/%m/%Y}")
            for p in claim.payments.all() if p.status == Payment.Status.REGISTERED
        ]}

    def run(self, claim, user, data):
        payment, _ = services.settle_payment(
            payment_id=data["payment"], transaction_id=data["transaction_id"],
            paid_on=data["paid_on"], user=user, reason=data["reason"],
            expected_version=data["version"],
        )
        return f"Pagamento de {brl(payment.total)} liquidado."


def proposal_facts(claim: Claim, proposal: Proposal) -> list[tuple[str, str]]:
    """What a supervisor needs to approve a proposal. A denial: its terms
    (``closing.denial_proposal_facts``). A payment: who receives (masked tax
    id, relationship), where the money goes, the amount against the share, the warnings."""
    if proposal.kind == Proposal.Kind.DENY:
        return denial_proposal_facts(claim, proposal)
    terms = terms_of(proposal)
    if isinstance(terms, ReserveTerms):
        return [("Reserva", f"de {brl(terms.previous)} para {brl(terms.amount)}"),
                ("Já pago ou registrado", brl(claim.paid_amount)),
                ("Motivo", terms.reason)]
    if isinstance(terms, ExpenseTerms):
        supplier = terms.supplier_name + (
            f", {_kind_of_id(terms.supplier_tax_id)} {format_tax_id(terms.supplier_tax_id)}"
            if terms.supplier_tax_id else "")
        spent = sum((e.amount for e in claim.expenses.all()), Decimal("0.00"))
        return [("Despesa", f"{terms.kind_label}, {brl(terms.amount)} "
                            f"em {terms.incurred_on:%d/%m/%Y}"),
                ("Fornecedor", supplier),
                ("Despesas do sinistro", f"{brl(spent)} já registradas")]
    if not isinstance(terms, PaymentTerms):
        return []
    return _payment_facts(claim, terms)


def _payment_facts(claim: Claim, terms: PaymentTerms) -> list[tuple[str, str]]:
    """Exactly what approving will pay, to whom and where, unmasked: the supervisor checks
    the tax id and the key against the documents before the money leaves. Approving
    registers the payment that day, with the art. 88 charges of that day on top
    (``services.register_payment``): the figure paid is the indemnity plus them."""
    payee, amount = terms.payee, terms.amount
    share = next((e for e in services.entitlements_of(claim)
                  if str(e.beneficiary.pk) == terms.beneficiary), None)
    try:
        charges, refusal = services.late_charges_for(claim, amount), ""
    except errors.PaymentNotAllowed as refused:
        charges, refusal = None, str(refused.detail)
    facts = [("Será pago", _paid_words(amount, charges)),
             ("A quem", f"{payee['name']}, {_kind_of_id(payee['tax_id'])} "
                        f"{format_tax_id(payee['tax_id'])}")]
    if share is not None:
        beneficiary = share.beneficiary
        what = beneficiary.get_relationship_display() or beneficiary.get_kind_display()
        part = f", participação de {percent(beneficiary.share)}" if beneficiary.share else ""
        facts.append(("Beneficiário", f"{beneficiary.name} ({what.lower()}{part})"))
    facts.append(("Onde", payment_destination_in_full(terms.payment_method)))
    if share is not None:
        facts.append(("Parte do beneficiário",
                      f"{brl(share.due)} que lhe cabem; já registrado {brl(share.paid)}; "
                      f"depois deste, restará {brl(share.left - amount)}"))
    if refusal:
        facts.append(("Atenção", refusal))
    elif charges.total:
        facts.append(("Encargos (art. 88)",
                      f"multa de {brl(charges.fine)}, correção monetária de "
                      f"{brl(charges.correction)} e juros de mora de {brl(charges.interest)}, "
                      f"calculados para pagamento hoje (Lei 15.040/2024, art. 88). "
                      f"{charges.basis}"))
    for warning in red_flags.for_payment(claim, beneficiary=share.beneficiary if share else None,
                                         payee=payee, payment_method=terms.payment_method):
        facts.append(("Alerta", warning))
    return facts


def _paid_words(amount: Decimal, charges) -> str:
    """``R$ 15.300,00 (R$ 15.000,00 de indenização + R$ 300,00 de multa, correção e juros,
    art. 88)``; without charges, the indemnity alone."""
    if charges is None:
        return f"{brl(amount)} de indenização, mais os encargos do art. 88 (ver abaixo)"
    if not charges.total:
        return f"{brl(amount)} de indenização (sem encargos: dentro do prazo do art. 87)"
    return (f"{brl(amount + charges.total)} ({brl(amount)} de indenização + "
            f"{brl(charges.total)} de multa, correção e juros, art. 88), se aprovado hoje, "
            f"{timezone.localdate():%d/%m/%Y}")


def _kind_of_id(tax_id: str) -> str:
    return "CPF" if len(tax_id) == 11 else "CNPJ"
