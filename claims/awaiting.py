"""What a claim is waiting for ("Aguardando"), derived from its state in one place.

The queues and the dashboard filter and count by it, so every service change stores
the result on the claim (``Claim.awaiting``, see ``claims.services.recording.record_move``);
this module only decides, from facts the caller gathered:

1. a denied claim whose reconsideration was asked for: a supervisor's answer
   (reconsideração); any other closed claim (finalized, denied, rejected at opening)
   waits for nothing: encerrado;
2. a proposal above the analyst's authority is pending: the supervisor's approval;
3. documents asked for and not all received (``pendente-de-documentacao``): the insured
   person or the channel;
4. payment data asked for (``pendente-de-dados-de-pagamento``): the channel;
5. registered payments not yet settled: the supervisor's settlement;
6. in regulation with the whole value paid and settled: nothing, ready to finalize;
7. anything else (``criado``, ``documentacao-em-analise``, ``em-regulacao`` with value
   left to pay): the analyst's analysis.
"""

from decimal import Decimal

from django.db import models

from claims.workflow import CLOSED_STATUSES, ClaimStatus


class Awaiting(models.TextChoices):
    DOCUMENTS = "documentos", "Documentos do segurado ou do canal"
    ANALYSIS = "analise", "Análise do analista"
    PAYMENT_DATA = "dados-pagamento", "Dados de pagamento do canal"
    SETTLEMENT = "liquidacao", "Liquidação pelo supervisor"
    APPROVAL = "aprovacao", "Aprovação do supervisor"
    RECONSIDERATION = "reconsideracao", "Resposta do supervisor ao pedido de reconsideração"
    NOTHING = "nada", "Nada: pronto para finalizar"
    CLOSED = "encerrado", "Nada: encerrado"


# Who acts next, for the dashboard's grouping: the analyst's own work first.
ANALYST_TURN = frozenset({Awaiting.ANALYSIS, Awaiting.NOTHING})


def awaiting_for(*, status: str, pending_proposal: bool, unsettled_payments: int,
                 remaining: Decimal, pending_reconsideration: bool = False) -> Awaiting:
    """The rules in the module docstring, in their order."""
    if status == ClaimStatus.DENIED and pending_reconsideration:
        return Awaiting.RECONSIDERATION
    if status in CLOSED_STATUSES:
        return Awaiting.CLOSED
    if pending_proposal:
        return Awaiting.APPROVAL
    if status == ClaimStatus.PENDING_DOCUMENTS:
        return Awaiting.DOCUMENTS
    if status == ClaimStatus.PENDING_PAYMENT_DATA:
        return Awaiting.PAYMENT_DATA
    if unsettled_payments:
        return Awaiting.SETTLEMENT
    if status == ClaimStatus.UNDER_REGULATION and remaining <= 0:
        return Awaiting.NOTHING
    return Awaiting.ANALYSIS
