"""The claim workflow as one table: each action's facts in one row (:class:`Move`):
from-states, to-states, event, permission, authority, effect on the regulatory clock
and the insured person's words.

Services in ``claims/services/`` look their move up here; nothing else decides whether
a status may change, and the admin offers an action only where :func:`allows` says so.
The readers of the other facts: the services and the admin's actions (``permission``,
``authority``), ``workbench.services.approvals`` (``authority``), ``claims.regulatory_clock``
(``clock``) and the hosted pages (``insured_words``, ``whitelabel.wording``).

- ``to_states`` empty: the action keeps the status (it still writes history and, when
  it has one, its event).
- ``stays_in``: from-states in which the action is allowed but keeps the status (a
  reserve adjustment while documents are pending must not drop the wait for them).
- ``event`` None: the move writes history but no outbox event (the contract's list of
  events is closed).
"""

from dataclasses import dataclass, field

from django.db import models

from claims.permissions import Permission


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
    VOID_PAYMENT = "cancelar-pagamento", "Cancelar pagamento"
    REQUEST_HUMAN_REVIEW = "solicitar-revisao-humana", "Pedido de revisão por uma pessoa"


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
    # Not the analysts' work, but theirs to see: the person kept a copy (arts. 82-83).
    COPY_DOWNLOADED = "copia-baixada", "Cópia baixada pelo segurado"
    # What the rules concluded, and why (decisions), whatever their mode.
    RULES_EVALUATED = "avaliacao-das-regras", "Avaliação das regras"


class Clock(models.TextChoices):
    """What a step does to the regulatory clock (the rules in claims.regulatory_clock,
    Lei 15.040/2024 arts. 86 and 87)."""

    KEEPS = "mantem", "Não muda o prazo"  # rule 7
    OPENS = "abre", "Inicia o prazo de decisão se nada for exigido"  # rule 1
    DOCUMENTS_COMPLETE = "completa", "Inicia ou retoma o prazo de decisão"  # rules 1, 3
    SUSPENDS = "suspende", "Suspende o prazo (art. 86)"  # rule 2
    RECOGNISES_COVER = "reconhece", "Reconhece a cobertura: inicia o prazo de pagamento"  # 4
    ENDS = "encerra", "Encerra o prazo"  # rule 5
    RESTARTS = "reinicia", "Recomeça o prazo"  # rule 6


@dataclass(frozen=True)
class Move:
    """One action's facts.

    - ``permission``: what a person must hold to take the action at all (analysts'
      buttons; None: only channels, the insured person or the system take it).
    - ``authority``: what a person must hold to decide it alone (the alçada); without
      it, where the action allows (workbench.services.approvals), they propose it to a
      supervisor. The service says when it applies (always, or above an amount).
    - ``clock``: its effect on the regulatory clock.
    - ``insured_words``: its line in the insured person's timeline (hosted pages);
      None: not shown to them.
    """

    from_states: frozenset
    to_states: tuple[ClaimStatus, ...]
    event: EventName | None
    stays_in: frozenset = field(default_factory=frozenset)
    permission: Permission | None = None
    authority: Permission | None = None
    clock: Clock = Clock.KEEPS
    insured_words: str | None = None


S, P, C = ClaimStatus, Permission, Clock
# Where the contract says "any", we read "any open status"; the narrower rows say why.
WORKFLOW: dict[Action, Move] = {
    # No previous state. Pending documents when the coverage/nature requires any. Staff
    # open a claim for a sale in the admin; channels through the API.
    Action.OPEN: Move(
        frozenset({None}), (S.CREATED, S.PENDING_DOCUMENTS), EventName.CLAIM_CREATED,
        permission=P.OPEN_CLAIM, clock=C.OPENS, insured_words="Sinistro comunicado",
    ),
    # The last requested document verified: the channel's or the insured person's upload.
    Action.COMPLETE_DOCUMENTS: Move(
        frozenset({S.PENDING_DOCUMENTS}), (S.DOCUMENTS_UNDER_REVIEW,),
        EventName.DOCUMENTS_UNDER_REVIEW,
        clock=C.DOCUMENTS_COMPLETE, insured_words="Documentos recebidos",
    ),
    # A claim that required no documents (criado) is approved as it stands.
    Action.APPROVE_DOCUMENTS: Move(
        frozenset({S.CREATED, S.DOCUMENTS_UNDER_REVIEW}), (S.UNDER_REGULATION,),
        EventName.DOCUMENTS_APPROVED,
        permission=P.WORK_CLAIM, clock=C.RECOGNISES_COVER,
        insured_words="Documentos aprovados",
    ),
    # Asking for more is possible at every open step; while already pending it adds items.
    Action.REQUEST_DOCUMENTS: Move(
        OPEN_STATUSES, (S.PENDING_DOCUMENTS,), EventName.DOCUMENTS_DENIED,
        permission=P.WORK_CLAIM, clock=C.SUSPENDS,
        insured_words="A seguradora pediu documentos",
    ),
    # Not while documents are missing or unreviewed: approval (which may ask for payment
    # data at once) comes first, so pending items never linger unapproved.
    Action.REQUEST_PAYMENT_DATA: Move(
        frozenset({S.CREATED, S.UNDER_REGULATION}), (S.PENDING_PAYMENT_DATA,),
        EventName.PAYMENT_DATA_PENDING,
        permission=P.WORK_CLAIM, clock=C.RECOGNISES_COVER,
        insured_words="A seguradora pediu os dados de pagamento",
    ),
    # The channel (API) or the insured person (hosted pages) answers the request above.
    Action.SUPPLY_PAYMENT_DATA: Move(
        frozenset({S.PENDING_PAYMENT_DATA}), (S.UNDER_REGULATION,), None,
        insured_words="Dados de pagamento informados",
    ),
    # A beneficiary (or heir) and their payment data, from the channel, the requester or
    # an analyst, while the claim is open; it completes a request for payment data only
    # when everybody's data is in (SUPPLY_PAYMENT_DATA, in the same service).
    Action.INFORM_BENEFICIARY: Move(
        OPEN_STATUSES, (), None, permission=P.WORK_CLAIM,
        insured_words="Beneficiário informado",
    ),
    # A share kept back (a minor's share to a judicial deposit, an heir not found). Who is
    # held back and why stays between the insurer and that person: not on the pages.
    Action.HOLD_SHARE: Move(OPEN_STATUSES, (), None, permission=P.WORK_CLAIM),
    # Someone named by mistake (a wrong CPF), while nothing was paid to them.
    Action.REMOVE_BENEFICIARY: Move(
        OPEN_STATUSES, (), None, permission=P.WORK_CLAIM,
        insured_words="Beneficiário removido",
    ),
    # The channel's balance update may change the reserve but never the stage.
    Action.UPDATE_BALANCE: Move(OPEN_STATUSES, (), EventName.RESERVE_ADJUSTED),
    # Above RESERVE_AUTHORITY_LIMIT (or to zero), a supervisor's.
    Action.ADJUST_RESERVE: Move(
        OPEN_STATUSES, (S.UNDER_REGULATION,), EventName.RESERVE_ADJUSTED,
        stays_in=frozenset({S.PENDING_DOCUMENTS, S.PENDING_PAYMENT_DATA}),
        permission=P.WORK_CLAIM, authority=P.ADJUST_RESERVE_ABOVE_LIMIT,
    ),
    # Paying recognises cover: not before the documents are in and reviewed. Payments
    # summing above PAYMENT_AUTHORITY_LIMIT on the claim, a supervisor's.
    Action.REGISTER_PAYMENT: Move(
        frozenset({S.CREATED, S.UNDER_REGULATION, S.PENDING_PAYMENT_DATA}),
        (S.UNDER_REGULATION,), EventName.PAYMENT_REGISTERED,
        permission=P.WORK_CLAIM, authority=P.REGISTER_PAYMENT_ABOVE_LIMIT,
        clock=C.RECOGNISES_COVER, insured_words="Pagamento programado",
    ),
    # Settlement is a bank fact: it may arrive after the claim was finalized.
    Action.SETTLE_PAYMENT: Move(
        OPEN_STATUSES | {S.FINALIZED}, (), EventName.PAYMENT_SETTLED,
        permission=P.SETTLE_PAYMENT, insured_words="Pagamento realizado",
    ),
    # Closing with nothing paid ends the claim without indemnity, as a denial does: the
    # denial's authority.
    Action.FINALIZE: Move(
        OPEN_STATUSES, (S.FINALIZED,), EventName.CLAIM_FINALIZED,
        permission=P.WORK_CLAIM, authority=P.DENY_CLAIM, clock=C.ENDS,
        insured_words="Sinistro encerrado",
    ),
    # Every denial is a supervisor's: an analyst proposes it.
    Action.DENY: Move(
        OPEN_STATUSES, (S.DENIED,), EventName.CLAIM_DENIED,
        permission=P.WORK_CLAIM, authority=P.DENY_CLAIM, clock=C.ENDS,
        insured_words="Pedido recusado",
    ),
    # Documents after a reopening are asked for with their own action (from em-regulacao).
    Action.REOPEN: Move(
        frozenset({S.FINALIZED, S.DENIED}),
        (S.UNDER_REGULATION, S.PENDING_PAYMENT_DATA),
        EventName.CLAIM_REOPENED,
        permission=P.REOPEN_CLAIM, clock=C.RESTARTS, insured_words="Sinistro reaberto",
    ),
    # The insured person, the requester (hosted pages) or the channel (API) asks the
    # insurer to reconsider a denial: the claim stays denied until a supervisor who took
    # no part in the denial keeps it (below) or reopens it (REOPEN).
    Action.REQUEST_RECONSIDERATION: Move(
        frozenset({S.DENIED}), (), EventName.RECONSIDERATION_REQUESTED,
        insured_words="Pedido de reconsideração enviado",
    ),
    Action.KEEP_DENIAL: Move(
        frozenset({S.DENIED}), (), EventName.DENIAL_KEPT, permission=P.DENY_CLAIM,
        insured_words="A seguradora manteve a recusa",
    ),
    # What settling the claim cost (a medical examination, an investigation): its
    # invoice may arrive after the decision, so a closed claim takes it too. No event:
    # the channel's contract has none for the insurer's own costs, and nothing the
    # insured person acts on. Expenses above PAYMENT_AUTHORITY_LIMIT, like payments.
    Action.REGISTER_EXPENSE: Move(
        OPEN_STATUSES | CLOSED_STATUSES, (), None,
        permission=P.WORK_CLAIM, authority=P.REGISTER_PAYMENT_ABOVE_LIMIT,
    ),
    # The documents show another day than the notice said: a fact the registradora
    # already holds, corrected (sro: a rectification). Status and clock stay; the hosted
    # pages show the corrected date.
    Action.CORRECT_OCCURRENCE: Move(
        OPEN_STATUSES | CLOSED_STATUSES, (), None, permission=P.WORK_CLAIM),
    # A registered payment undone before its order left for the bank: a quality reviewer
    # reversing an automatic approval (decisions), or a supervisor. The share is owed
    # again. No event: the contract has none for it (docs/decisions.md).
    Action.VOID_PAYMENT: Move(
        OPEN_STATUSES, (), None, permission=P.APPROVE_PROPOSAL,
        insured_words="Pagamento cancelado para revisão",
    ),
    # The person (hosted pages) or the channel (API) asks that a decision the rules took
    # alone be reviewed by a person (LGPD art. 20): a supervisor's task.
    Action.REQUEST_HUMAN_REVIEW: Move(
        OPEN_STATUSES | {S.FINALIZED}, (), None,
        insured_words="Revisão por uma pessoa solicitada",
    ),
}
del S, P, C


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


def actions_with(clock: Clock) -> frozenset:
    """The actions whose effect on the regulatory clock is ``clock``."""
    return frozenset(action for action, move in WORKFLOW.items() if move.clock == clock)


def clock_effect(action: str) -> Clock:
    """A history row's effect on the clock (``action`` a stored value: timeline entries
    and unknown values keep it)."""
    move = WORKFLOW.get(action)
    return Clock.KEEPS if move is None else move.clock
