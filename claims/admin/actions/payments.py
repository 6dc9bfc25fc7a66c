"""Money: the reserve, registering payments (the credit-life split, the authority
limit), settling them."""

from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from claims import services
from claims.admin import forms
from claims.admin.actions.base import ClaimAction, pending_proposal, unsettled_payments
from claims.formatting import brl
from claims.models import BeneficiaryKind, Claim, Payment, Proposal
from claims.selectors import limits_of
from claims.workflow import ClaimStatus


class AdjustReserve(ClaimAction):
    def initial(self, claim):
        return {"amount": claim.amount}

    def help(self, claim):
        limits = limits_of(claim)
        ceiling = min(limits.lmi_left, limits.lmg_left) + claim.amount
        return [f"Valor atual {brl(claim.amount)}; já pago ou registrado {brl(claim.paid_amount)}; "
                f"máximo possível {brl(ceiling)} (o que resta do LMI e do LMG)."]

    def run(self, claim, user, data):
        services.adjust_reserve(claim_id=claim.pk, user=user, amount=data["amount"],
                                reason=data["reason"], expected_version=data["version"])
        return f"Reserva ajustada para {brl(data['amount'])}."


class RegisterPayment(ClaimAction):
    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        if reason is None and claim.remaining_amount <= 0:
            return "nada resta a pagar: o valor do sinistro já foi registrado"
        if reason is None and pending_proposal(claim) and \
                services.needs_proposal(Proposal.Kind.PAYMENT, user):
            return "aguardando a decisão do supervisor sobre a proposta pendente"
        return reason

    def status_reason(self, claim):
        if claim.status in (ClaimStatus.PENDING_DOCUMENTS, ClaimStatus.DOCUMENTS_UNDER_REVIEW):
            return "aprove a documentação antes de pagar"
        return super().status_reason(claim)

    def initial(self, claim):
        split = _credit_life_split(claim)
        if not split:
            return {**forms.PaymentDetailsForm.initial_from(claim.payment_details),
                    "amount": claim.remaining_amount}
        kind, amount = split[0]
        return {**_beneficiary_initial(claim, kind), "amount": amount}

    def help(self, claim):
        lines = [f"Valor restante do sinistro: {brl(claim.remaining_amount)}. Alçada do analista: "
                 f"{brl(settings.PAYMENT_AUTHORITY_LIMIT)}."]
        split = _credit_life_split(claim)
        if split:
            lines.append("Seguro prestamista (Resolução CNSP 365/2018): o credor recebe primeiro, "
                         "até o saldo devedor; o restante vai ao segurado ou aos herdeiros. "
                         "Falta registrar: " + "; ".join(
                             f"{BeneficiaryKind(kind).label.lower()} {brl(amount)}"
                             for kind, amount in split) + ".")
            lines.append(_prefill_note(claim, split[0][0]))
        return lines

    def run(self, claim, user, data):
        # The authority is per claim: what it has paid so far counts (claims.services.payments).
        if services.needs_proposal(Proposal.Kind.PAYMENT, user,
                                   amount=claim.paid_amount + data["amount"]):
            proposal = services.propose(
                kind=Proposal.Kind.PAYMENT, claim_id=claim.pk, user=user,
                expected_version=data["version"],
                arguments={"amount": str(data["amount"]), "note": data["note"],
                           "payment_details": data["payment_details"]})
            return (f"Acima da sua alçada ({brl(settings.PAYMENT_AUTHORITY_LIMIT)} por sinistro): "
                    f"proposta enviada ao supervisor ({proposal.summary}). Nada muda até a "
                    "aprovação.")
        payment = services.register_payment(
            claim_id=claim.pk, user=user, amount=data["amount"],
            payment_details=data["payment_details"], note=data["note"],
            expected_version=data["version"],
        )
        return f"Pagamento de {brl(payment.amount)} para {payment.beneficiary_name} registrado."


def _credit_life_split(claim: Claim) -> list[tuple[str, Decimal]]:
    """What is still to register on a credit-life claim: the creditor's part first, then
    the rest to the insured person, or to the other beneficiary the channel named in the
    claim's payment details (heirs, say)."""
    if not claim.is_credit_life:
        return []
    creditor_due, creditor_paid = services.creditor_share(claim, list(claim.payments.all()))
    split = []
    if creditor_due > creditor_paid:
        split.append((BeneficiaryKind.CREDITOR, creditor_due - creditor_paid))
    rest = claim.remaining_amount - (creditor_due - creditor_paid)
    if rest > 0:
        split.append((_remainder_beneficiary(claim), rest))
    return split


def _remainder_beneficiary(claim: Claim) -> str:
    named = (claim.payment_details or {}).get("beneficiary", {}).get("kind")
    return named if named in (BeneficiaryKind.INSURED, BeneficiaryKind.OTHER) else BeneficiaryKind.INSURED


def _prefill_note(claim: Claim, kind: str) -> str:
    """Says whose data the form below carries (see ``_beneficiary_initial``)."""
    who = BeneficiaryKind(kind).label.lower()
    details = claim.payment_details
    if details and details["beneficiary"]["kind"] == kind:
        return f"Formulário preenchido para o {who} com os dados de pagamento informados pelo canal."
    if kind == BeneficiaryKind.INSURED:
        return ("Formulário preenchido com o nome e o CPF do segurado da venda: informe os dados "
                "de pagamento dele.")
    return f"O canal não informou os dados de pagamento do {who}: informe-os abaixo."


def _beneficiary_initial(claim: Claim, kind: str) -> dict:
    """The payment form's beneficiary fields for ``kind``, with that beneficiary's own
    data only: the claim's payment details when they are this beneficiary's; for the
    insured person otherwise, the name and CPF of the sale and no bank data. Another
    beneficiary's account prefilled here would be one careless click from paying the
    wrong person."""
    details = claim.payment_details
    if details and details["beneficiary"]["kind"] == kind:
        return forms.PaymentDetailsForm.initial_from(details)
    if kind == BeneficiaryKind.INSURED:
        return {"beneficiario_tipo": kind, "beneficiario_nome": claim.sale.insured_name,
                "beneficiario_cpf_ou_cnpj": claim.sale.insured_cpf}
    return {"beneficiario_tipo": kind}


class SettlePayment(ClaimAction):
    permission_phrase = "liquidam pagamentos"

    def why_not(self, claim, user):
        waiting = unsettled_payments(claim)
        if not waiting:
            return ""  # nothing to settle: not worth a line
        if not user.has_perm(f"claims.{self.permission}"):
            return f"{len(waiting)} pagamento(s) aguardam a liquidação por um supervisor"
        return super().why_not(claim, user)

    def form_kwargs(self, claim):
        return {"payment_choices": [
            (str(p.pk), f"{brl(p.amount)} para {p.beneficiary_name} "
                        f"({p.get_method_display()}), registrado em "
                        f"{timezone.localtime(p.created_at):%d/%m/%Y}")
            for p in claim.payments.all() if p.status == Payment.Status.REGISTERED
        ]}

    def run(self, claim, user, data):
        payment, _ = services.settle_payment(
            payment_id=data["payment"], transaction_id=data["transaction_id"],
            paid_on=data["paid_on"], user=user, expected_version=data["version"],
        )
        return f"Pagamento de {brl(payment.amount)} liquidado."
