"""The claim workflow as one table: action -> allowed from-states -> to-states -> event.

Services in ``claims/services/`` look their move up here; nothing else decides
whether a status may change. ``to_states`` empty means the action keeps the status
(it still writes history and its event).
"""

from dataclasses import dataclass
from enum import StrEnum

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
    CLAIM_CREATED = "sinistro-criado"
    DOCUMENTS_UNDER_REVIEW = "sinistro-documentacao-em-analise"
    DOCUMENTS_APPROVED = "sinistro-documentacao-aprovada"
    DOCUMENTS_DENIED = "sinistro-documentacao-negada"
    PAYMENT_DATA_PENDING = "sinistro-pendente-de-dados-de-pagamento"
    RESERVE_ADJUSTED = "sinistro-ajuste-de-reserva"
    PAYMENT_REGISTERED = "sinistro-pagamento"
    PAYMENT_SETTLED = "sinistro-pagamento-concluido"
    CLAIM_FINALIZED = "sinistro-finalizado"
    CLAIM_DENIED = "sinistro-negado"
    CLAIM_REOPENED = "sinistro-reaberto"


class Action(StrEnum):
    OPEN = "abrir"
    COMPLETE_DOCUMENTS = "completar-documentacao"
    APPROVE_DOCUMENTS = "aprovar-documentacao"
    REQUEST_DOCUMENTS = "solicitar-documentos"
    REQUEST_PAYMENT_DATA = "solicitar-dados-de-pagamento"
    UPDATE_BALANCE = "atualizar-saldo-devedor"
    ADJUST_RESERVE = "ajustar-reserva"
    REGISTER_PAYMENT = "registrar-pagamento"
    SETTLE_PAYMENT = "liquidar-pagamento"
    FINALIZE = "finalizar"
    DENY = "recusar"
    REOPEN = "reabrir"


@dataclass(frozen=True)
class Move:
    from_states: frozenset
    to_states: tuple[ClaimStatus, ...]
    event: EventName


S = ClaimStatus
WORKFLOW: dict[Action, Move] = {
    # No previous state. Pending documents when the coverage/nature requires any.
    Action.OPEN: Move(
        frozenset({None}), (S.CREATED, S.PENDING_DOCUMENTS), EventName.CLAIM_CREATED
    ),
    Action.COMPLETE_DOCUMENTS: Move(
        frozenset({S.PENDING_DOCUMENTS}), (S.DOCUMENTS_UNDER_REVIEW,),
        EventName.DOCUMENTS_UNDER_REVIEW,
    ),
    Action.APPROVE_DOCUMENTS: Move(
        frozenset({S.DOCUMENTS_UNDER_REVIEW}), (S.UNDER_REGULATION, S.PENDING_PAYMENT_DATA),
        EventName.DOCUMENTS_APPROVED,
    ),
    Action.REQUEST_DOCUMENTS: Move(
        frozenset({S.CREATED, S.DOCUMENTS_UNDER_REVIEW, S.UNDER_REGULATION}),
        (S.PENDING_DOCUMENTS,), EventName.DOCUMENTS_DENIED,
    ),
    Action.REQUEST_PAYMENT_DATA: Move(
        OPEN_STATUSES - {S.PENDING_PAYMENT_DATA}, (S.PENDING_PAYMENT_DATA,),
        EventName.PAYMENT_DATA_PENDING,
    ),
    # The channel's balance update may change the reserve but never the stage.
    Action.UPDATE_BALANCE: Move(OPEN_STATUSES, (), EventName.RESERVE_ADJUSTED),
    Action.ADJUST_RESERVE: Move(OPEN_STATUSES, (S.UNDER_REGULATION,), EventName.RESERVE_ADJUSTED),
    Action.REGISTER_PAYMENT: Move(
        OPEN_STATUSES, (S.UNDER_REGULATION,), EventName.PAYMENT_REGISTERED
    ),
    # Settlement is a bank fact: it may arrive after the claim was finalized.
    Action.SETTLE_PAYMENT: Move(
        OPEN_STATUSES | {S.FINALIZED}, (), EventName.PAYMENT_SETTLED
    ),
    Action.FINALIZE: Move(OPEN_STATUSES, (S.FINALIZED,), EventName.CLAIM_FINALIZED),
    Action.DENY: Move(OPEN_STATUSES, (S.DENIED,), EventName.CLAIM_DENIED),
    Action.REOPEN: Move(
        frozenset({S.FINALIZED, S.DENIED}),
        (S.UNDER_REGULATION, S.PENDING_DOCUMENTS, S.PENDING_PAYMENT_DATA),
        EventName.CLAIM_REOPENED,
    ),
}
del S


def allows(action: Action, from_status: str | None) -> bool:
    return from_status in WORKFLOW[action].from_states
