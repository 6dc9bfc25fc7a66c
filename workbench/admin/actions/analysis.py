"""Analysis: approving the documentation, asking for documents or for payment data."""

from django.utils import timezone

from claims import services
from workbench.admin.actions.base import ClaimAction, documents_progress
from claims.models import DocumentFile
from claims.selectors import document_types_in_use
from claims.workflow import CLOSED_STATUSES, ClaimStatus


class Approve(ClaimAction):
    def status_reason(self, claim):
        if claim.status == ClaimStatus.PENDING_DOCUMENTS:
            return f"aguardando os documentos solicitados ({documents_progress(claim)})"
        if claim.status in CLOSED_STATUSES:
            return super().status_reason(claim)
        return "documentação já aprovada"

    def initial(self, claim, chosen=""):
        # Ask for payment data at once when someone's is missing.
        return {"request_payment_data": bool(
            services.missing_payment_data(claim, list(claim.beneficiaries.all())))}

    def help(self, claim, chosen=""):
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


def _paid_in_full(claim) -> str | None:
    """Why asking the insured for anything no longer makes sense: everything is paid."""
    if claim.payments.all() and services.fully_paid(claim):
        return "a indenização já foi paga (ou retida) por inteiro"
    return None


class RequestDocuments(ClaimAction):
    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        return _paid_in_full(claim) if reason is None and _paid_in_full(claim) else reason

    def form_kwargs(self, claim):
        received = [f for f in claim.page_rows.shown_files
                    if f.status == DocumentFile.Status.RECEIVED]
        pending = {r.doc_type for r in claim.document_requests.all() if r.approved_at is None}
        titles = {r.doc_type: r.title for r in claim.document_requests.all()}
        return {
            # The claim's coverage's own documents and each person's, minus what is
            # already pending.
            "doc_type_choices": [(t, title) for t, (title, _) in _askable(claim).items()
                                 if t not in pending],
            "file_choices": [(str(f.pk), f"{f.file_name} ({titles.get(f.doc_type, f.doc_type)})")
                             for f in received],
        }

    def help(self, claim, chosen=""):
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

    def initial(self, claim, chosen=""):
        """From a beneficiary's line: that person's documents, ticked."""
        return {"doc_types": [t for t, (_, whose) in _askable(claim).items()
                              if whose is not None and str(whose) == chosen]}

    def run(self, claim, user, data):
        askable = _askable(claim)
        documents = [services.RequestedDocument(t, *askable.get(t, (t, None)))
                     for t in data["doc_types"]]
        if data.get("new_title"):
            documents.append(services.RequestedDocument(data["new_type"], data["new_title"]))
        replace = {file_id: data["replace_reason"] for file_id in data.get("replace_files", [])}
        services.request_documents(
            claim_id=claim.pk, user=user, documents=documents, replace_files=replace,
            note=data["note"], expected_version=data["version"],
        )
        return "Documentos solicitados."


def _askable(claim) -> dict:
    """type -> (title, beneficiary id or None): the coverage's configured documents, then
    each beneficiary's own (claims.services.person_documents)."""
    askable = {t: (title, None) for t, title in document_types_in_use(claim.coverage.name)}
    for beneficiary in claim.beneficiaries.all():
        for doc_type, title in services.person_documents(beneficiary):
            askable[doc_type] = (title, beneficiary.pk)
    return askable


class RequestPaymentData(ClaimAction):
    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        return _paid_in_full(claim) if reason is None and _paid_in_full(claim) else reason

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
