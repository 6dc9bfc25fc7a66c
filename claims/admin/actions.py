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
from claims.models import BeneficiaryKind, Claim, DocumentFile, Payment, Proposal
from claims.selectors import document_types_in_use, limits_of
from claims.workflow import CLOSED_STATUSES, Action, ClaimStatus, allows


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
        return self.why_not(claim, user) is None

    def why_not(self, claim: Claim, user) -> str | None:
        """Why the action is not offered now, in one line for the claim page ("" when
        it is not worth a line); None when it is offered."""
        if not user.has_perm(f"claims.{self.permission}"):
            return "" if claim.status in CLOSED_STATUSES else \
                f"somente supervisores de sinistros {self.permission_phrase}"
        if not allows(self.action, claim.status):
            return self.status_reason(claim)
        return None

    permission_phrase = "podem fazê-lo"

    def status_reason(self, claim: Claim) -> str:
        if claim.status in CLOSED_STATUSES:
            return f"sinistro encerrado ({claim.get_status_display().lower()})"
        return f"não cabe com o sinistro em “{claim.get_status_display()}”"

    def label_for(self, user, claim: Claim | None = None) -> str:
        """The button's words for ``user`` (on ``claim``: some moves become proposals)."""
        return self.label

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
    def status_reason(self, claim):
        if claim.status == ClaimStatus.PENDING_DOCUMENTS:
            return f"aguardando os documentos solicitados ({_documents_progress(claim)})"
        if claim.status in CLOSED_STATUSES:
            return super().status_reason(claim)
        return "documentação já aprovada"

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
        now = f"Prazo atual: {clock.describe(timezone.now())}."
        if clock.paused:
            return [f"{clock.name[0].upper()}{clock.name[1:]} já está suspenso, aguardando "
                    "documentos: esta solicitação não muda o prazo.", now]
        if clock.can_suspend():
            return [f"Esta solicitação suspende {clock.name} até a chegada dos documentos "
                    f"(suspensão {clock.suspensions_used + 1} de {clock.suspensions_allowed}).",
                    now]
        return [
            f"Atenção: esta apólice admite {clock.suspensions_allowed} suspensão(ões) do "
            f"prazo e {clock.suspensions_used} já foi(ram) usada(s). Esta nova solicitação "
            f"NÃO suspende {clock.name}, que continua correndo.", now,
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
    def status_reason(self, claim):
        if claim.status == ClaimStatus.PENDING_PAYMENT_DATA:
            return "já solicitados: aguardando o canal"
        if claim.status in (ClaimStatus.PENDING_DOCUMENTS, ClaimStatus.DOCUMENTS_UNDER_REVIEW):
            return "aprove a documentação antes (pode pedir os dados na aprovação)"
        return super().status_reason(claim)

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
    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        if reason is None and claim.remaining_amount <= 0:
            return "nada resta a pagar: o valor do sinistro já foi registrado"
        if reason is None and _pending_proposal(claim) and \
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
        waiting = _unsettled(claim)
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


class Finalize(ClaimAction):
    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        waiting = _unsettled(claim)
        if reason is None and waiting:
            # Unsettled payments must be settled first (by a supervisor): no dead end.
            return f"aguardando a liquidação de {len(waiting)} pagamento(s) pelo supervisor"
        if reason is None and _pending_proposal(claim) and _closes_unpaid_by_proposal(claim, user):
            return "aguardando a decisão do supervisor sobre a proposta pendente"
        return reason

    def help(self, claim):
        paid = claim.paid_amount
        if paid < claim.amount:
            return [f"Pago: {brl(paid)}. A reserva não paga ({brl(claim.amount - paid)}) será "
                    "liberada: o valor do sinistro passa a ser o que foi pago."]
        return [f"Pago: {brl(paid)}."]

    def label_for(self, user, claim=None):
        if claim is not None and _closes_unpaid_by_proposal(claim, user):
            return "Propor encerramento sem pagamento"
        return self.label

    def run(self, claim, user, data):
        if _closes_unpaid_by_proposal(claim, user):
            services.propose(kind=Proposal.Kind.CLOSE_UNPAID, claim_id=claim.pk, user=user,
                             expected_version=data["version"], arguments={"reason": data["reason"]})
            return ("Encerramento sem pagamento proposto ao supervisor. Nada muda no sinistro "
                    "até a aprovação.")
        services.finalize(claim_id=claim.pk, user=user, reason=data["reason"],
                          expected_version=data["version"])
        return "Sinistro finalizado."


def _closes_unpaid_by_proposal(claim: Claim, user) -> bool:
    return not claim.payments.all() and services.needs_proposal(Proposal.Kind.CLOSE_UNPAID, user)


class Deny(ClaimAction):
    """Supervisors deny; anyone else's denial is a proposal to them (four eyes)."""

    def label_for(self, user, claim=None):
        if services.needs_proposal(Proposal.Kind.DENY, user):
            return "Propor recusa"
        return self.label

    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        if reason is None and any(True for _ in claim.payments.all()):
            return "há pagamentos registrados: a cobertura já foi reconhecida"
        if reason is None and _pending_proposal(claim) and \
                services.needs_proposal(Proposal.Kind.DENY, user):
            return "aguardando a decisão do supervisor sobre a proposta pendente"
        return reason

    def help(self, claim):
        return ["Toda recusa passa por um supervisor: de um analista, vira uma proposta que "
                "um supervisor aprova ou rejeita; nada muda no sinistro até lá."]

    def run(self, claim, user, data):
        if services.needs_proposal(Proposal.Kind.DENY, user):
            denied_at = data.get("denied_at")
            services.propose(kind=Proposal.Kind.DENY, claim_id=claim.pk, user=user,
                             expected_version=data["version"],
                             arguments={"reason": data["reason"],
                                        "denied_at": denied_at.isoformat() if denied_at else None})
            return "Recusa proposta ao supervisor. Nada muda no sinistro até a aprovação."
        services.deny(claim_id=claim.pk, user=user, reason=data["reason"],
                      denied_at=data.get("denied_at"), expected_version=data["version"])
        return "Sinistro recusado."


class Reopen(ClaimAction):
    permission_phrase = "reabrem sinistros"

    def why_not(self, claim, user):
        if claim.status not in CLOSED_STATUSES:
            return ""  # an open claim: reopening is not a question
        return super().why_not(claim, user)

    def run(self, claim, user, data):
        services.reopen(claim_id=claim.pk, user=user, reason=data["reason"],
                        next_status=data["next_status"], expected_version=data["version"])
        return "Sinistro reaberto."


def _unsettled(claim: Claim) -> list[Payment]:
    return [p for p in claim.payments.all() if p.status == Payment.Status.REGISTERED]


def _pending_proposal(claim: Claim) -> Proposal | None:
    """The claim page's selector loads it (``pending_proposals``); elsewhere, a query."""
    pending = getattr(claim, "pending_proposals", None)
    if pending is None:
        pending = list(claim.proposals.filter(status=Proposal.Status.PENDING))
    return pending[0] if pending else None


def _documents_progress(claim: Claim) -> str:
    received = {f.doc_type for f in getattr(claim, "shown_files", [])
                if f.status == DocumentFile.Status.RECEIVED}
    pending = [r for r in claim.document_requests.all() if r.approved_at is None]
    done = sum(1 for r in pending if r.doc_type in received)
    return f"{done} de {len(pending)} recebido(s)"


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
        Deny(Action.DENY, forms.DenyForm, "work_claim", dangerous=True),
        Reopen(Action.REOPEN, forms.ReopenForm, "reopen_claim"),
    ]
}
