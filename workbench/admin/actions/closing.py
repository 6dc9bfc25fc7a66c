"""Ending a claim and reopening it: finalizing, denying (four eyes for analysts), reopening."""


from django.utils import timezone

from claims import services
from workbench.admin.actions.base import ClaimAction, pending_proposal, unsettled_payments
from claims.denials import DenialCode, days_late_now
from claims.services.closing import days
from claims.formatting import brl
from claims.models import Claim, DocumentFile, Reconsideration
from workbench.models import Proposal
from workbench.proposal_terms import ClosingTerms, DenialTerms, terms_of
from claims.models.reconsiderations import RECONSIDERATION_DOCUMENTS
from claims.services.reconsiderations import denied_since
from claims.workflow import CLOSED_STATUSES, Action
from workbench import services as workbench_services


class Finalize(ClaimAction):
    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        waiting = unsettled_payments(claim)
        if reason is None and waiting:
            # Unsettled payments must be settled first (by a supervisor): no dead end.
            return f"aguardando a liquidação de {len(waiting)} pagamento(s) pelo supervisor"
        if reason is None and pending_proposal(claim) and _closes_unpaid_by_proposal(claim, user):
            return "aguardando a decisão do supervisor sobre a proposta pendente"
        return reason

    def help(self, claim, chosen=""):
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
            workbench_services.propose(claim_id=claim.pk, user=user,
                                       expected_version=data["version"],
                                       terms=ClosingTerms(reason=data["reason"]))
            return ("Encerramento sem pagamento proposto ao supervisor. Nada muda no sinistro "
                    "até a aprovação.")
        services.finalize(claim_id=claim.pk, user=user, reason=data["reason"],
                          expected_version=data["version"])
        return "Sinistro finalizado."


def _closes_unpaid_by_proposal(claim: Claim, user) -> bool:
    return not claim.payments.all() and workbench_services.needs_proposal(Proposal.Kind.CLOSE_UNPAID, user)


class Deny(ClaimAction):
    """Supervisors deny; anyone else's denial is a proposal to them (four eyes)."""

    def label_for(self, user, claim=None):
        if workbench_services.needs_proposal(Proposal.Kind.DENY, user):
            return "Propor recusa"
        return self.label

    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        if reason is None and any(True for _ in claim.payments.all()):
            return "há pagamentos registrados: a cobertura já foi reconhecida"
        if reason is None and pending_proposal(claim) and \
                workbench_services.needs_proposal(Proposal.Kind.DENY, user):
            return "aguardando a decisão do supervisor sobre a proposta pendente"
        return reason

    def help(self, claim, chosen=""):
        lines = ["Toda recusa passa por um supervisor: de um analista, vira uma proposta que "
                 "um supervisor aprova ou rejeita; nada muda no sinistro até lá."]
        late = days_late_now(claim)
        if late:
            due = f"{timezone.localtime(claim.clock_deadline):%d/%m/%Y}"
            lines.insert(0, f"Atenção: o prazo de decisão (Lei 15.040/2024, art. 86) venceu em "
                            f"{due}, há {days(late)}. A seguradora pode ter perdido o direito "
                            "de recusar: a recusa exige uma justificativa jurídica.")
        return lines

    def form_kwargs(self, claim):
        return {"late_days": days_late_now(claim)}

    def run(self, claim, user, data):
        terms = {"reason": data["reason"], "code": data["code"], "clause": data["clause"],
                 "internal_note": data["internal_note"],
                 "late_justification": data.get("late_justification", "")}
        if workbench_services.needs_proposal(Proposal.Kind.DENY, user):
            workbench_services.propose(claim_id=claim.pk, user=user,
                                       expected_version=data["version"],
                                       terms=DenialTerms(**terms, denied_at=data.get("denied_at")))
            return "Recusa proposta ao supervisor. Nada muda no sinistro até a aprovação."
        services.deny(claim_id=claim.pk, user=user, denied_at=data.get("denied_at"),
                      expected_version=data["version"], **terms)
        return "Sinistro recusado."


class CorrectOccurrence(ClaimAction):
    """The occurrence date the documents show, when the notice said another day."""

    def initial(self, claim, chosen=""):
        return {"occurred_on": timezone.localdate(claim.occurred_at)}

    def help(self, claim, chosen=""):
        return [f"Data atual: {timezone.localdate(claim.occurred_at):%d/%m/%Y}. Vigência da "
                f"venda: {claim.sale.valid_from:%d/%m/%Y} a {claim.sale.valid_until:%d/%m/%Y}.",
                "A registradora (SRO) recebe a correção como retificação do registro."]

    def run(self, claim, user, data):
        services.correct_occurrence_date(
            claim_id=claim.pk, user=user, occurred_on=data["occurred_on"],
            reason=data["reason"], expected_version=data["version"])
        return f"Data da ocorrência corrigida para {data['occurred_on']:%d/%m/%Y}."


class Reopen(ClaimAction):
    permission_phrase = "reabrem sinistros"

    def why_not(self, claim, user):
        if claim.status not in CLOSED_STATUSES:
            return ""  # an open claim: reopening is not a question
        reason = super().why_not(claim, user)
        if reason is None and pending_reconsideration(claim) and _took_part(claim, user):
            return DENIER_DOES_NOT_DECIDE
        return reason

    def help(self, claim, chosen=""):
        pending = pending_reconsideration(claim)
        if pending is None:
            return []
        return [f"Há um pedido de reconsideração pendente ({pending.get_requested_by_role_display()}"
                f", {timezone.localtime(pending.created_at):%d/%m/%Y}): reabrir o atende."]

    def attachments(self, claim):
        return request_documents(claim) if pending_reconsideration(claim) else []

    def run(self, claim, user, data):
        services.reopen(claim_id=claim.pk, user=user, reason=data["reason"],
                        next_status=data["next_status"], expected_version=data["version"])
        return "Sinistro reaberto."


def denial_proposal_facts(claim: Claim, proposal: Proposal) -> list[tuple[str, str]]:
    """What a supervisor reads before approving a proposed denial: its every term."""
    terms = terms_of(proposal)
    facts = [("Motivo (SUSEP)", f"{terms.code} - {DenialCode(terms.code).label}"),
             ("Cláusula", terms.clause),
             ("Texto para o segurado", terms.reason)]
    if terms.internal_note:
        facts.append(("Nota interna", terms.internal_note))
    if terms.late_justification:
        facts.append(("Justificativa (fora do prazo)", terms.late_justification))
    elif days_late_now(claim):
        facts.append(("Atenção", "O prazo de decisão (art. 86) venceu depois da proposta, que não "
                                 "traz a justificativa jurídica da recusa fora do prazo: rejeite-a "
                                 "e peça uma nova proposta, com a justificativa."))
    if terms.denied_at:
        facts.append(("Data da recusa",
                      f"{timezone.localtime(terms.denied_at):%d/%m/%Y %H:%M}"))
    return facts


DENIER_DOES_NOT_DECIDE = ("quem recusou o sinistro (ou propôs a recusa) não decide o pedido de "
                          "reconsideração: outro supervisor decide")


def pending_reconsideration(claim: Claim) -> Reconsideration | None:
    """The pending request for reconsideration (loaded by ``selectors.claim_for_analyst``)."""
    return next((r for r in claim.page_rows.reconsiderations
                 if r.status == Reconsideration.Status.PENDING), None)


def request_documents(claim: Claim) -> list[DocumentFile]:
    """The files sent for reconsideration of the current denial (type ``reconsideracao``,
    received since the last ``recusar``), oldest first, from the files the page loaded."""
    since = denied_since(claim.history.all())
    return [f for f in claim.page_rows.shown_files
            if f.doc_type == RECONSIDERATION_DOCUMENTS and f.status == DocumentFile.Status.RECEIVED
            and (since is None or f.received_at >= since)]


def _took_part(claim: Claim, user) -> bool:
    """Whether ``user`` denied the claim or proposed its denial (its last DENY row, from
    the history the claim page loaded)."""
    denials = [row for row in claim.history.all() if row.action == Action.DENY]
    return bool(denials) and user.pk in (denials[-1].user_id, denials[-1].proposed_by_id)


class KeepDenial(ClaimAction):
    """A supervisor who took no part in the denial answers a request for reconsideration
    by keeping the denial (the other answer is Reabrir)."""

    permission_phrase = "decidem pedidos de reconsideração"

    def why_not(self, claim, user):
        if pending_reconsideration(claim) is None:
            return ""  # nothing asked: not worth a line
        reason = super().why_not(claim, user)
        if reason is None and _took_part(claim, user):
            return DENIER_DOES_NOT_DECIDE
        return reason

    def help(self, claim, chosen=""):
        pending = pending_reconsideration(claim)
        documents = ("Documentos enviados para a reconsideração: abaixo." if request_documents(claim)
                     else "Nenhum documento foi enviado com o pedido.")
        return [f"Pedido de reconsideração de {pending.get_requested_by_role_display().lower()} "
                f"em {timezone.localtime(pending.created_at):%d/%m/%Y}: “{pending.text}”",
                documents,
                "Manter a recusa: o sinistro continua recusado e quem pediu lê a sua resposta. "
                "Para atender o pedido, use Reabrir."]

    def attachments(self, claim):
        return request_documents(claim)

    def run(self, claim, user, data):
        services.keep_denial(claim_id=claim.pk, user=user, note=data["note"],
                             expected_version=data["version"])
        return "Recusa mantida; quem pediu a reconsideração recebe a resposta por carta."
