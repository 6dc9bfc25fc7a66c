"""What the insured person reads: statuses and history in plain words. Analysts' notes
and internal moves (reserve, balance) are not shown here."""

from django.utils import timezone

from claims import errors
from claims.models import Payment
from claims.models.documents import CLOSED_CLAIM_REASON
from claims.regulatory_clock import CLOCK_DAYS, ClockKind, RegulatoryClock
from claims.workflow import CLOSED_STATUSES, WORKFLOW, ClaimStatus

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

def timeline_line(action: str) -> str | None:
    """A history row's line in the insured person's timeline: its action's words in the
    workflow (``Move.insured_words``); None for what is not shown to them (the insurer's
    internal moves, the analysts' own work)."""
    move = WORKFLOW.get(action)
    return None if move is None else move.insured_words


PAYMENT_WORDS = {
    Payment.Status.REGISTERED: "Programado",
    Payment.Status.SETTLED: "Pago",
}


def status_badge(status: str) -> str:
    return STATUS_WORDS[ClaimStatus(status)][0]


def status_meaning(status: str) -> str:
    return STATUS_WORDS[ClaimStatus(status)][1]


REPLACEMENT_PREFIX = "Substituição solicitada: "


def rejection_words(reason: str) -> str:
    """Why a file was not accepted, for the person: the analyst's reason when they asked
    for a replacement; otherwise the automatic check, without media-type jargon."""
    if reason.startswith(REPLACEMENT_PREFIX):
        return f"A seguradora pediu outro arquivo: {reason.removeprefix(REPLACEMENT_PREFIX)}"
    if reason.startswith(CLOSED_CLAIM_REASON):
        return "O sinistro foi encerrado antes de o arquivo chegar, e ele não foi anexado."
    return ("O arquivo não pôde ser aberto como PDF, JPG, PNG ou HEIC (estava vazio, "
            "incompleto ou é de outro tipo). Escolha outro arquivo.")


# Business refusals when opening, in plain words ({brand}: the channel's name).
OPENING_REFUSALS = {
    errors.InsuranceLmgExhausted: (
        "O valor total do seu seguro já foi usado por outros sinistros, então não é possível "
        "comunicar um novo por aqui. Fale com {brand} para saber como seguir."),
    errors.CoverageLmiExhausted: (
        "O valor desta cobertura já foi usado por outros sinistros, então não é possível "
        "comunicar um novo por aqui. Fale com {brand} para saber como seguir."),
    errors.SaleNotActive: "Este seguro está cancelado: não é possível comunicar sinistros por aqui.",
    errors.CoverageNotActive: "Esta cobertura não está mais ativa no seu seguro.",
}


def reconsideration_refusal(refusal) -> str:
    """Why a request for reconsideration was not taken, for the person."""
    if isinstance(refusal, errors.ReconsiderationAlreadyPending):
        return "Você já pediu a reconsideração: aguarde a resposta da seguradora."
    if isinstance(refusal, errors.TransitionNotAllowed):
        return "Este sinistro não está recusado: não há recusa a reconsiderar."
    if isinstance(refusal, errors.ReconsiderationNeedsNewDocuments):
        return ("A seguradora já respondeu ao seu pedido e manteve a recusa. Para pedir de "
                "novo, envie primeiro um documento novo (um laudo, um exame, um boletim de "
                "ocorrência) em “Documentos para a reconsideração”, abaixo, e depois diga "
                "no pedido o que ele mostra.")
    if isinstance(refusal, errors.ReconsiderationLimitReached):
        return ("Esta recusa já foi reconsiderada e mantida o número máximo de vezes: a "
                "seguradora não a reanalisa de novo. Veja abaixo o que você ainda pode fazer.")
    return refusal.detail


# The law each promise rests on, said on the page: the person may hold the insurer to it.
DECIDE = "Lei 15.040/2024, art. 86"
PAY = "Lei 15.040/2024, art. 87"


def promise(clock: RegulatoryClock, *, status: str, now) -> str:
    """What the page promises in this state, never ahead of the decision: until cover is
    recognised, the deadline to decide (art. 86); once it is (payment data asked, a
    payment registered), the deadline to pay (art. 87). ``clock``: the hosted pages'
    reading (``claims.regulatory_clock.promised_clock``). "" when nothing is promised
    (a closed claim)."""
    if status in CLOSED_STATUSES:
        return ""
    if not clock.kind:  # the documents asked at the opening are not all in yet
        return (f"Depois que todos os documentos pedidos chegarem, a seguradora tem "
                f"{CLOCK_DAYS} dias para decidir se o seguro cobre este sinistro ({DECIDE}).")
    deciding = clock.kind == ClockKind.DECISION
    if clock.paused:
        if deciding:
            return ("O prazo da seguradora para decidir está suspenso até chegarem os "
                    f"documentos pedidos e volta a contar quando forem entregues ({DECIDE}).")
        return ("O prazo da seguradora para pagar está suspenso até chegarem os documentos "
                f"pedidos e volta a contar quando forem entregues ({PAY}).")
    due = timezone.localdate(clock.deadline)
    late = due < timezone.localdate(now)
    if deciding:
        if late:
            return f"O prazo da seguradora para decidir terminou em {due:%d/%m/%Y} ({DECIDE})."
        return (f"A seguradora tem até {due:%d/%m/%Y} para decidir se o seguro cobre este "
                f"sinistro ({DECIDE}).")
    if late:
        return (f"A cobertura foi reconhecida. O prazo da seguradora para pagar terminou em "
                f"{due:%d/%m/%Y} ({PAY}).")
    return (f"A cobertura foi reconhecida: a seguradora tem até {due:%d/%m/%Y} para pagar "
            f"({PAY}).")


def share_state(entitlement, payments: list) -> str:
    """Where one person's share stands, in words (``entitlement``: claims.shares)."""
    if entitlement.beneficiary.is_held:
        return "Parte retida pela seguradora"
    if payments and entitlement.done:
        if all(p.status == Payment.Status.SETTLED for p in payments):
            return "Pago"
        return "Pagamento programado"
    if payments:
        return "Pago em parte"
    if entitlement.beneficiary.has_payment_data:
        return "Dados de pagamento informados"
    return "Aguardando dados de pagamento"
