"""What the insured person reads: statuses and history in plain words. Analysts' notes
and internal moves (reserve, balance) are not shown here."""

from claims.models import Payment
from claims.workflow import Action, ClaimStatus

# Status -> (badge, what it means for the person now).
STATUS_WORDS = {
    ClaimStatus.CREATED: ("Recebido", "Recebemos a comunicação do sinistro."),
    ClaimStatus.OPENING_REJECTED: ("Não aceito", "A comunicação do sinistro não foi aceita."),
    ClaimStatus.PENDING_DOCUMENTS: (
        "Aguardando seus documentos", "Envie os documentos pedidos abaixo para a análise começar."),
    ClaimStatus.DOCUMENTS_UNDER_REVIEW: (
        "Documentos em análise", "Recebemos seus documentos. A seguradora está conferindo."),
    ClaimStatus.UNDER_REGULATION: ("Em análise", "A seguradora está analisando o seu pedido."),
    ClaimStatus.PENDING_PAYMENT_DATA: (
        "Aguardando dados de pagamento", "Informe para onde a indenização deve ser paga."),
    ClaimStatus.DENIED: ("Recusado", "A seguradora recusou o pedido. Veja o motivo abaixo."),
    ClaimStatus.FINALIZED: ("Encerrado", "O sinistro foi encerrado."),
}

# History action -> line of the timeline; None: not shown to the insured person.
TIMELINE_WORDS = {
    Action.OPEN: "Sinistro comunicado",
    Action.COMPLETE_DOCUMENTS: "Documentos recebidos",
    Action.APPROVE_DOCUMENTS: "Documentos aprovados",
    Action.REQUEST_DOCUMENTS: "A seguradora pediu documentos",
    Action.REQUEST_PAYMENT_DATA: "A seguradora pediu os dados de pagamento",
    Action.SUPPLY_PAYMENT_DATA: "Dados de pagamento informados",
    Action.UPDATE_BALANCE: None,
    Action.ADJUST_RESERVE: None,
    Action.REGISTER_PAYMENT: "Pagamento programado",
    Action.SETTLE_PAYMENT: "Pagamento realizado",
    Action.FINALIZE: "Sinistro encerrado",
    Action.DENY: "Pedido recusado",
    Action.REOPEN: "Sinistro reaberto",
}

PAYMENT_WORDS = {
    Payment.Status.REGISTERED: "Programado",
    Payment.Status.SETTLED: "Pago",
}


def status_badge(status: str) -> str:
    return STATUS_WORDS[ClaimStatus(status)][0]


def status_meaning(status: str) -> str:
    return STATUS_WORDS[ClaimStatus(status)][1]
