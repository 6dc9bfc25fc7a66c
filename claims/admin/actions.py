"""The analysts' actions on a claim: each is a button on the claim page, a small form,
and one service call. What is offered comes from the workflow table and the user's
permissions; the service decides again under the claim's lock."""

from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from claims import services
from claims.admin import forms
from claims.formatting import brl
from claims.models import BeneficiaryKind, Claim, DocumentFile, Payment
from claims.selectors import document_types_in_use, limits_of
from claims.workflow import Action, allows


@dataclass(frozen=True)
class ClaimAction:
    action: Action
    form_class: type
    permission: str
    dangerous: bool = False

    @property
    def slug(self) -> str:
        return self.action.value

    @property
    def label(self) -> str:
        return self.action.label

    def offered(self, claim: Claim, user) -> bool:
        return allows(self.action, claim.status) and user.has_perm(f"claims.{self.permission}")

    def form_kwargs(self, claim: Claim) -> dict:
        return {}

    def initial(self, claim: Claim) -> dict:
        return {}

    def help(self, claim: Claim) -> list[str]:
        """Facts the analyst needs to decide, shown above the form."""
        return []

    def run(self, claim: Claim, user, data: dict) -> str:
        raise NotImplementedError


class Approve(ClaimAction):
    def initial(self, claim):
        return {"request_payment_data": not claim.payment_details}

    def help(self, claim):
        pending = [r.title for r in claim.document_requests.all() if r.approved_at is None]
        if not pending:
            return ["Nenhum documento pendente: a cobertura é aprovada como está."]
        return [f"Serão aprovados: {'; '.join(pending)}."]

    def run(self, claim, user, data):
        services.approve_documents(
            claim_id=claim.pk, user=user, expected_version=data["version"], note=data["note"],
            request_payment_data=data["request_payment_data"],
        )
        return "Documentação aprovada."


class RequestDocuments(ClaimAction):
    def form_kwargs(self, claim):
        received = [f for f in claim.shown_files if f.status == DocumentFile.Status.RECEIVED]
        pending = {r.doc_type for r in claim.document_requests.all() if r.approved_at is None}
        titles = {r.doc_type: r.title for r in claim.document_requests.all()}
        return {
            # The claim's coverage's own documents, minus what is already pending.
            "doc_type_choices": [(t, title) for t, title in document_types_in_use(claim.coverage.name)
                                 if t not in pending],
            "file_choices": [(str(f.pk), f"{f.file_name} ({titles.get(f.doc_type, f.doc_type)})")
                             for f in received],
        }

    def help(self, claim):
        clock = services.regulatory_clock(claim, claim.history.all())
        if not clock.kind:
            return ["O prazo regulatório ainda não começou: estes documentos completam a "
                    "documentação básica."]
        if clock.paused:
            return ["O prazo regulatório já está suspenso, aguardando documentos."]
        if clock.can_suspend():
            return [f"Esta solicitação suspende o prazo regulatório até a chegada dos documentos "
                    f"(suspensão {clock.suspensions_used + 1} de {clock.suspensions_allowed}; "
                    "Lei 15.040/2024, art. 86)."]
        return [
            f"Atenção: esta apólice admite {clock.suspensions_allowed} suspensão(ões) do "
            f"prazo e {clock.suspensions_used} já foi(ram) usada(s). Esta nova solicitação "
            "NÃO suspende o prazo regulatório, que continua correndo "
            "(Lei 15.040/2024, art. 86)."
        ]

    def run(self, claim, user, data):
        titles = dict(document_types_in_use(claim.coverage.name))
        documents = [services.RequestedDocument(t, titles.get(t, t)) for t in data["doc_types"]]
        if data.get("new_title"):
            documents.append(services.RequestedDocument(data["new_type"], data["new_title"]))
        replace = {file_id: data["replace_reason"] for file_id in data.get("replace_files", [])}
        services.request_documents(
            claim_id=claim.pk, user=user, documents=documents, replace_files=replace,
            note=data["note"], expected_version=data["version"],
        )
        return "Documentos solicitados."


class RequestPaymentData(ClaimAction):
    def run(self, claim, user, data):
        services.request_payment_data(claim_id=claim.pk, user=user, note=data["note"],
                                      expected_version=data["version"])
        return "Dados de pagamento solicitados ao canal."


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
    def offered(self, claim, user):
        return super().offered(claim, user) and claim.remaining_amount > 0

    def initial(self, claim):
        initial = forms.PaymentDetailsForm.initial_from(claim.payment_details)
        split = _credit_life_split(claim)
        initial["amount"] = split[0][1] if split else claim.remaining_amount
        if split and split[0][0] == BeneficiaryKind.CREDITOR:
            # The claim's payment data are the insured person's: the creditor's differ.
            initial = {"amount": split[0][1], "beneficiario_tipo": BeneficiaryKind.CREDITOR}
        return initial

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
        return lines

    def run(self, claim, user, data):
        payment = services.register_payment(
            claim_id=claim.pk, user=user, amount=data["amount"],
            payment_details=data["payment_details"], note=data["note"],
            expected_version=data["version"],
        )
        return f"Pagamento de {brl(payment.amount)} para {payment.beneficiary_name} registrado."


def _credit_life_split(claim: Claim) -> list[tuple[str, Decimal]]:
    """What is still to register on a credit-life claim: the creditor's part first."""
    if not claim.is_credit_life:
        return []
    creditor_due, creditor_paid = services.creditor_share(claim, list(claim.payments.all()))
    split = []
    if creditor_due > creditor_paid:
        split.append((BeneficiaryKind.CREDITOR, creditor_due - creditor_paid))
    rest = claim.remaining_amount - (creditor_due - creditor_paid)
    if rest > 0:
        split.append((BeneficiaryKind.INSURED, rest))
    return split


class SettlePayment(ClaimAction):
    def offered(self, claim, user):
        return super().offered(claim, user) and any(
            p.status == Payment.Status.REGISTERED for p in claim.payments.all())

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


class Finalize(ClaimAction):
    def offered(self, claim, user):
        # Unsettled payments must be settled first (by a supervisor): no dead end.
        return super().offered(claim, user) and all(
            p.status == Payment.Status.SETTLED for p in claim.payments.all())

    def help(self, claim):
        paid = claim.paid_amount
        if paid < claim.amount:
            return [f"Pago: {brl(paid)}. A reserva não paga ({brl(claim.amount - paid)}) será "
                    "liberada: o valor do sinistro passa a ser o que foi pago."]
        return [f"Pago: {brl(paid)}."]

    def run(self, claim, user, data):
        services.finalize(claim_id=claim.pk, user=user, reason=data["reason"],
                          expected_version=data["version"])
        return "Sinistro finalizado."


class Deny(ClaimAction):
    def run(self, claim, user, data):
        services.deny(claim_id=claim.pk, user=user, reason=data["reason"],
                      denied_at=data.get("denied_at"), expected_version=data["version"])
        return "Sinistro recusado."


class Reopen(ClaimAction):
    def run(self, claim, user, data):
        services.reopen(claim_id=claim.pk, user=user, reason=data["reason"],
                        next_status=data["next_status"], expected_version=data["version"])
        return "Sinistro reaberto."


ACTIONS: dict[str, ClaimAction] = {
    a.slug: a
    for a in [
        Approve(Action.APPROVE_DOCUMENTS, forms.ApproveDocumentsForm, "work_claim"),
        RequestDocuments(Action.REQUEST_DOCUMENTS, forms.RequestDocumentsForm, "work_claim"),
        RequestPaymentData(Action.REQUEST_PAYMENT_DATA, forms.NoteForm, "work_claim"),
        AdjustReserve(Action.ADJUST_RESERVE, forms.AdjustReserveForm, "work_claim"),
        RegisterPayment(Action.REGISTER_PAYMENT, forms.RegisterPaymentForm, "work_claim"),
        SettlePayment(Action.SETTLE_PAYMENT, forms.SettlePaymentForm, "settle_payment"),
        Finalize(Action.FINALIZE, forms.FinalizeForm, "work_claim"),
        Deny(Action.DENY, forms.DenyForm, "deny_claim", dangerous=True),
        Reopen(Action.REOPEN, forms.ReopenForm, "reopen_claim"),
    ]
}
