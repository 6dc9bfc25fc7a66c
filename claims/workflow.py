"""The claim workflow as one table: action -> allowed from-states -> to-states -> event.

Services in ``claims/services/`` look their move up here; nothing else decides whether
a status may change, and the admin offers an action only where :func:`allows` says so.

- ``to_states`` empty: the action keeps the status (it still writes history and, when
  it has one, its event).
- ``stays_in``: from-states in which the action is allowed but keeps the status (a
  reserve adjustment while documents are pending must not drop the wait for them).
- ``event`` None: the move writes history but no outbox event (the contract's list of
  events is closed).
"""

from dataclasses import dataclass, field

from django.db import models


class ClaimStatus(models.TextChoices):
    CREATED = "criado", "Criado"
    OPENING_REJECTED = "abertura-rejeitada", "Abertura rejeitada"
    PENDING_DOCUMENTS = "pendente-de-documentacao", "Pendente de documentação"
    DOCUMENTS_UNDER_REVIEW = "documentacao-em-analise", "Documentação em análise"
    UNDER_REGULATION = "em-regulacao", "Em regulação"
    PENDING_PAYMENT_DATA = "pendente-de-dados-de-pagamento", "Pendente de dados de pagamento"
    DENIED = "recusado", "Recusado"
    FINALIZED = "finalizado", "Finalizado"


CLOSED_STATUSES = frozenset(
    {ClaimStatus.FINALIZED, ClaimStatus.DENIED, ClaimStatus.OPENING_REJECTED}
)
# "A claim is already open for the given coverage": any status that is not closed.
OPEN_STATUSES = frozenset(set(ClaimStatus) - CLOSED_STATUSES)
# Claims whose amount does not count against the LMI/LMG: nothing will be paid.
NON_CONSUMING_STATUSES = frozenset({ClaimStatus.DENIED, ClaimStatus.OPENING_REJECTED})


class EventName(models.TextChoices):
    CLAIM_CREATED = "sinistro-criado", "Sinistro criado"
    DOCUMENTS_UNDER_REVIEW = "sinistro-documentacao-em-analise", "Documentação em análise"
    DOCUMENTS_APPROVED = "sinistro-documentacao-aprovada", "Documentação aprovada"
    DOCUMENTS_DENIED = "sinistro-documentacao-negada", "Documentos solicitados"
    PAYMENT_DATA_PENDING = (
        "sinistro-pendente-de-dados-de-pagamento", "Dados de pagamento solicitados"
    )
    RESERVE_ADJUSTED = "sinistro-ajuste-de-reserva", "Ajuste de reserva"
    PAYMENT_REGISTERED = "sinistro-pagamento", "Pagamento registrado"
    PAYMENT_SETTLED = "sinistro-pagamento-concluido", "Pagamento liquidado"
    CLAIM_FINALIZED = "sinistro-finalizado", "Sinistro finalizado"
    CLAIM_DENIED = "sinistro-negado", "Sinistro recusado"
    CLAIM_REOPENED = "sinistro-reaberto", "Sinistro reaberto"
    # Beyond the contract's list: a denial's reconsideration (docs/denials.md).
    RECONSIDERATION_REQUESTED = (
        "sinistro-reconsideracao-solicitada", "Reconsideração da recusa solicitada")
    DENIAL_KEPT = "sinistro-recusa-mantida", "Recusa mantida após reconsideração"


class Action(models.TextChoices):
    OPEN = "abrir", "Abertura do sinistro"
    COMPLETE_DOCUMENTS = "completar-documentacao", "Documentação completa"
    APPROVE_DOCUMENTS = "aprovar-documentacao", "Aprovar documentação"
    REQUEST_DOCUMENTS = "solicitar-documentos", "Solicitar documentos"
    REQUEST_PAYMENT_DATA = "solicitar-dados-de-pagamento", "Solicitar dados de pagamento"
    SUPPLY_PAYMENT_DATA = "informar-dados-de-pagamento", "Dados de pagamento informados"
    INFORM_BENEFICIARY = "informar-beneficiario", "Beneficiário informado"
    HOLD_SHARE = "reter-participacao", "Reter participação"
    REMOVE_BENEFICIARY = "remover-beneficiario", "Remover beneficiário"
    UPDATE_BALANCE = "atualizar-saldo-devedor", "Atualização do saldo devedor"
    ADJUST_RESERVE = "ajustar-reserva", "Ajustar reserva"
    REGISTER_PAYMENT = "registrar-pagamento", "Registrar pagamento"
    SETTLE_PAYMENT = "liquidar-pagamento", "Liquidar pagamento"
    FINALIZE = "finalizar", "Finalizar"
    DENY = "recusar", "Recusar"
    REOPEN = "reabrir", "Reabrir"
    REQUEST_RECONSIDERATION = "solicitar-reconsideracao", "Pedido de reconsideração"
    KEEP_DENIAL = "manter-recusa", "Manter recusa"
    REGISTER_EXPENSE = "registrar-despesa", "Registrar despesa de regulação"
    CORRECT_OCCURRENCE = "corrigir-ocorrencia", "Corrigir a data da ocorrência"


class TimelineEntry(models.TextChoices):
    """Rows of a claim's timeline that are the analysts' own work, not workflow moves:
    they keep the status, write no event, leave the regulatory clock and the claim's
    version alone, and are never shown to channels or on the hosted pages."""

    ASSIGN = "atribuir", "Responsável definido"
    NOTE = "nota", "Nota interna"
    TASK_CREATED = "tarefa-criada", "Tarefa criada"
    TASK_DONE = "tarefa-concluida", "Tarefa concluída"
    TASK_CANCELLED = "tarefa-cancelada", "Tarefa cancelada"
    TASK_ESCALATED = "tarefa-escalada", "Tarefa escalada ao supervisor"
    PROPOSAL = "proposta", "Proposta ao supervisor"
    PROPOSAL_REJECTED = "proposta-rejeitada", "Proposta rejeitada"
    PROPOSAL_STALE = "proposta-obsoleta", "Proposta obsoleta"


@dataclass(frozen=True)
class Move:
    from_states: frozenset
    to_states: tuple[ClaimStatus, ...]
    event: EventName | None
    stays_in: frozenset = field(default_factory=frozenset)


S = ClaimStatus
# Where the contract says "any", we read "any open status"; the narrower rows say why.
WORKFLOW: dict[Action, Move] = {
    # No previous state. Pending documents when the coverage/nature requires any.
    Action.OPEN: Move(
        frozenset({None}), (S.CREATED, S.PENDING_DOCUMENTS), EventName.CLAIM_CREATED
    ),
    Action.COMPLETE_DOCUMENTS: Move(
        frozenset({S.PENDING_DOCUMENTS}), (S.DOCUMENTS_UNDER_REVIEW,),
        EventName.DOCUMENTS_UNDER_REVIEW,
    ),
    # A claim that required no documents (criado) is approved as it stands.
    Action.APPROVE_DOCUMENTS: Move(
        frozenset({S.CREATED, S.DOCUMENTS_UNDER_REVIEW}), (S.UNDER_REGULATION,),
        EventName.DOCUMENTS_APPROVED,
    ),
    # Asking for more is possible at every open step; while already pending it adds items.
    Action.REQUEST_DOCUMENTS: Move(
        OPEN_STATUSES, (S.PENDING_DOCUMENTS,), EventName.DOCUMENTS_DENIED
    ),
    # Not while documents are missing or unreviewed: approval (which may ask for payment
    # data at once) comes first, so pending items never linger unapproved.
    Action.REQUEST_PAYMENT_DATA: Move(
        frozenset({S.CREATED, S.UNDER_REGULATION}), (S.PENDING_PAYMENT_DATA,),
        EventName.PAYMENT_DATA_PENDING,
    ),
    # The channel (API) or the insured person (hosted pages) answers the request above.
    Action.SUPPLY_PAYMENT_DATA: Move(
        frozenset({S.PENDING_PAYMENT_DATA}), (S.UNDER_REGULATION,), None
    ),
    # A beneficiary (or heir) and their payment data, from the channel, the requester or
    # an analyst, while the claim is open; it completes a request for payment data only
    # when everybody's data is in (SUPPLY_PAYMENT_DATA, in the same service).
    Action.INFORM_BENEFICIARY: Move(OPEN_STATUSES, (), None),
    # A share kept back (a minor's share to a judicial deposit, an heir not found).
    Action.HOLD_SHARE: Move(OPEN_STATUSES, (), None),
    # Someone named by mistake (a wrong CPF), while nothing was paid to them.
    Action.REMOVE_BENEFICIARY: Move(OPEN_STATUSES, (), None),
    # The channel's balance update may change the reserve but never the stage.
    Action.UPDATE_BALANCE: Move(OPEN_STATUSES, (), EventName.RESERVE_ADJUSTED),
    Action.ADJUST_RESERVE: Move(
        OPEN_STATUSES, (S.UNDER_REGULATION,), EventName.RESERVE_ADJUSTED,
        stays_in=frozenset({S.PENDING_DOCUMENTS, S.PENDING_PAYMENT_DATA}),
    ),
    # Paying recognises cover: not before the documents are in and reviewed.
    Action.REGISTER_PAYMENT: Move(
        frozenset({S.CREATED, S.UNDER_REGULATION, S.PENDING_PAYMENT_DATA}),
        (S.UNDER_REGULATION,), EventName.PAYMENT_REGISTERED,
    ),
    # Settlement is a bank fact: it may arrive after the claim was finalized.
    Action.SETTLE_PAYMENT: Move(
        OPEN_STATUSES | {S.FINALIZED}, (), EventName.PAYMENT_SETTLED
    ),
    Action.FINALIZE: Move(OPEN_STATUSES, (S.FINALIZED,), EventName.CLAIM_FINALIZED),
    Action.DENY: Move(OPEN_STATUSES, (S.DENIED,), EventName.CLAIM_DENIED),
    # Documents after a reopening are asked for with their own action (from em-regulacao).
    Action.REOPEN: Move(
        frozenset({S.FINALIZED, S.DENIED}),
        (S.UNDER_REGULATION, S.PENDING_PAYMENT_DATA),
        EventName.CLAIM_REOPENED,
    ),
    # The insured person, the requester (hosted pages) or the channel (API) asks the
    # insurer to reconsider a denial: the claim stays denied until a supervisor who took
    # no part in the denial keeps it (below) or reopens it (REOPEN).
    Action.REQUEST_RECONSIDERATION: Move(
        frozenset({S.DENIED}), (), EventName.RECONSIDERATION_REQUESTED),
    Action.KEEP_DENIAL: Move(frozenset({S.DENIED}), (), EventName.DENIAL_KEPT),
    # What settling the claim cost (a medical examination, an investigation): its
    # invoice may arrive after the decision, so a closed claim takes it too. No event:
    # the channel's contract has none for the insurer's own costs.
    Action.REGISTER_EXPENSE: Move(OPEN_STATUSES | CLOSED_STATUSES, (), None),
    # The documents show another day than the notice said: a fact the registradora
    # already holds, corrected (sro: a rectification). Status and clock stay.
    Action.CORRECT_OCCURRENCE: Move(OPEN_STATUSES | CLOSED_STATUSES, (), None),
}
del S


def allows(action: Action, from_status: str | None) -> bool:
    return from_status in WORKFLOW[action].from_states


def targets(action: Action, from_status: str | None) -> tuple[str | None, ...]:
    """The statuses ``action`` may lead to from ``from_status``, the first by default:
    the same status where the move keeps it. Does not check ``from_status`` (see
    :func:`allows`)."""
    move = WORKFLOW[action]
    if not move.to_states or from_status in move.stays_in:
        return (from_status,)
    return move.to_states
