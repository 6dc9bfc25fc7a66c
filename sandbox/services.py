"""The sandbox's simulated insurer: a sandbox channel's own claim moved by one of the
workflow's actions, through the very services the analysts' admin calls, so the events,
webhooks, letters (kept for the channel, never e-mailed) and clocks are real.

Each action maps to one claims service with a sandbox decider (``sandbox.deciders``) as
its user; what the analyst would type has a default, so ``{"acao": "..."}`` alone moves a
claim. A move the workflow refuses answers the same problem the admin would show."""

import secrets

from django.db import transaction
from django.utils import timezone

from claims import coverages, errors, services
from claims.models import Channel, Claim, Payment
from claims.selectors import by_number
from claims.services.analysis import RequestedDocument
from claims.workflow import Action, allows
from sandbox.deciders import REGULATOR, REVIEWER, decider

NOTE = "Simulação no sandbox."
# For a coverage outside the catalogue, which has no documents of its own.
IDENTITY_DOCUMENT = RequestedDocument(doc_type="cpf-cnpj",
                                      title="Documento de identificação do segurado com CPF")


def default_documents(claim: Claim) -> list[RequestedDocument]:
    """What ``solicitar-documentos`` asks for when it names none: the documents of the
    claim's coverage and nature (a death asks for the death certificate, never a
    medical report). Types already pending are not asked twice (the service skips them)."""
    return [RequestedDocument(doc_type=d.doc_type, title=d.title)
            for d in coverages.default_documents(claim.coverage.name, claim.nature)
            ] or [IDENTITY_DOCUMENT]


def _approve_documents(claim: Claim, data: dict) -> None:
    services.approve_documents(claim_id=claim.pk, user=decider(REGULATOR), note=NOTE)


def _request_documents(claim: Claim, data: dict) -> None:
    documents = [RequestedDocument(doc_type=d["tipo"], title=d.get("titulo") or d["tipo"])
                 for d in data.get("documentos") or []] or default_documents(claim)
    services.request_documents(claim_id=claim.pk, user=decider(REGULATOR), documents=documents,
                               note=NOTE)


def _request_payment_data(claim: Claim, data: dict) -> None:
    services.request_payment_data(claim_id=claim.pk, user=decider(REGULATOR), note=NOTE)


def _adjust_reserve(claim: Claim, data: dict) -> None:
    services.adjust_reserve(claim_id=claim.pk, user=decider(REGULATOR), amount=data["valor"],
                            reason=data.get("motivo") or NOTE)


def _register_payment(claim: Claim, data: dict) -> None:
    if not allows(Action.REGISTER_PAYMENT, claim.status):
        # The workflow's own refusal, before choosing whom to pay (the service would
        # give it too, once a payee was chosen).
        raise errors.TransitionNotAllowed(
            f"“{Action.REGISTER_PAYMENT.label}” não é permitido com o sinistro em "
            f"“{claim.get_status_display()}”.")
    # The creditor first (credit life pays the outstanding balance before anyone else).
    shares = [s for s in sorted(services.entitlements_of(claim),
                                key=lambda s: s.beneficiary.kind != "credor") if s.left > 0]
    wanted = data.get("cpf_ou_cnpj")
    share = next((s for s in shares if (
        s.beneficiary.tax_id == wanted if wanted else s.beneficiary.payment_method)), None)
    if share is None:
        raise errors.PaymentNotAllowed(
            "Nada mais a pagar: as participações estão pagas ou retidas." if not shares else
            f"Nenhum beneficiário com CPF/CNPJ {wanted} tem valor a receber." if wanted else
            "Quem tem valor a receber está sem dados de pagamento: informe-os em "
            "detalhes-pagamento (ou simule solicitar-dados-de-pagamento).")
    services.register_payment(claim_id=claim.pk, beneficiary_id=share.beneficiary.pk,
                              user=decider(REGULATOR), amount=data.get("valor") or share.left,
                              note=NOTE)


def _settle_payment(claim: Claim, data: dict) -> None:
    payment = (Payment.objects.filter(claim=claim, status=Payment.Status.REGISTERED)
               .order_by("created_at", "id").first())
    if payment is None:
        raise errors.PaymentNotAllowed("Não há pagamento registrado a liquidar: simule "
                                       "registrar-pagamento antes.")
    services.settle_payment(
        payment_id=payment.pk, user=decider(REGULATOR),
        transaction_id=data.get("id_transacao_financeira") or f"SANDBOX-{secrets.token_hex(6)}",
        paid_on=data.get("data_pagamento") or timezone.localdate(), reason=NOTE)


def _finalize(claim: Claim, data: dict) -> None:
    services.finalize(claim_id=claim.pk, user=decider(REGULATOR),
                      reason=data.get("motivo") or NOTE)


def _deny(claim: Claim, data: dict) -> None:
    services.deny(claim_id=claim.pk, user=decider(REGULATOR), code=data["codigo"],
                  reason=data.get("descricao") or "Recusa simulada no sandbox.",
                  clause=data.get("clausula") or "Cláusula de exemplo")


def _reopen(claim: Claim, data: dict) -> None:
    # The reviewer, who took no part in the denial: a pending reconsideration is
    # answered by the reopening, as a supervisor's would be.
    services.reopen(claim_id=claim.pk, user=decider(REVIEWER), reason=data.get("motivo") or NOTE)


def _keep_denial(claim: Claim, data: dict) -> None:
    services.keep_denial(claim_id=claim.pk, user=decider(REVIEWER),
                         note=data.get("motivo") or NOTE)


# The contract's workflow action names (claims.workflow.Action) -> what the insurer does.
ACTIONS = {
    "aprovar-documentacao": _approve_documents,
    "solicitar-documentos": _request_documents,
    "solicitar-dados-de-pagamento": _request_payment_data,
    "ajustar-reserva": _adjust_reserve,
    "registrar-pagamento": _register_payment,
    "liquidar-pagamento": _settle_payment,
    "finalizar": _finalize,
    "recusar": _deny,
    "reabrir": _reopen,
    "manter-recusa": _keep_denial,
}


@transaction.atomic
def simulate(*, channel: Channel, number: str, action: str, data: dict) -> None:
    """Move the sandbox channel's claim ``number`` by ``action``. Another channel's claim,
    or a claim of a production channel, is not found."""
    claim = by_number(Claim.objects.filter(channel=channel, is_sandbox=True), number)
    if claim is None or not channel.is_sandbox:
        raise errors.ClaimNotFound()
    ACTIONS[action](claim, data)
