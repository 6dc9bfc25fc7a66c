"""A claim as the registradora reads it: the B3 "Registro de Sinistro – V3" layout
(``sro/data/b3-registro-sinistro-v3.json``, "desenvolvida conforme layout SUSEP").

``claim_facts`` reads what the layout needs from the claim (a fixed number of queries);
``sro_status`` maps the service's statuses onto the SRO's; ``build_item`` writes one
``sinistro`` (registro) or ``sinistro_alteracao`` (alteracao) item. Every amount is the
claim's absolute figure at that moment, never a difference (the layout says so of each
``totalizacao_sinistro`` value)."""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.db.models import F, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from claims.coverages import coverage_label
from claims.models import Beneficiary, Claim, ClaimHistory, Expense, Payment
from claims.models.beneficiaries import BeneficiaryKind
from claims.workflow import Action, ClaimStatus
from sro.models import CoverageCode

ZERO = Decimal("0.00")
# The coverage table's "99999 - Outros": a coverage the insurer has no code for.
OTHER_COVERAGE = "99999"


class SroStatus:
    """The layout's ``status`` domain."""

    OPEN = 1  # Aberto
    CLOSED_PAID = 2  # Encerrado com indenização
    CLOSED_UNPAID = 3  # Encerrado sem indenização
    REOPENED = 4  # Reaberto
    CANCELLED = 5  # Cancelado (por erro operacional)
    INITIAL_EVALUATION = 6  # Avaliação inicial

    LABELS = {1: "Aberto", 2: "Encerrado com indenização", 3: "Encerrado sem indenização",
              4: "Reaberto", 5: "Cancelado (erro operacional)", 6: "Avaliação inicial",
              7: "Encerrado com pagamento único (benefício)",
              8: "Encerrado com concessão de renda (benefício)",
              9: "Encerrado indeferido (benefício)"}
    # Statuses for which the layout asks the closing dates (data_liquidacao, data_conclusao).
    CLOSED = frozenset({2, 3, 7, 8, 9})


# Before cover is decided the insurer is still evaluating the notice; documents approved
# (em regulação, dados de pagamento) is an open claim whose cover is recognised.
_OPEN_STATUS = {
    ClaimStatus.CREATED: SroStatus.INITIAL_EVALUATION,
    ClaimStatus.PENDING_DOCUMENTS: SroStatus.INITIAL_EVALUATION,
    ClaimStatus.DOCUMENTS_UNDER_REVIEW: SroStatus.INITIAL_EVALUATION,
    ClaimStatus.UNDER_REGULATION: SroStatus.OPEN,
    ClaimStatus.PENDING_PAYMENT_DATA: SroStatus.OPEN,
}


def sro_status(status: str, *, reopened: bool, paid: Decimal) -> int:
    """The SRO ``status`` of a claim in ``status``. Seguros de pessoas use 2/3 (7, 8 and 9
    are previdência's benefits); a reopened claim is 4 until it closes again."""
    if status == ClaimStatus.DENIED:
        return SroStatus.CLOSED_UNPAID
    if status == ClaimStatus.FINALIZED:
        return SroStatus.CLOSED_PAID if paid > ZERO else SroStatus.CLOSED_UNPAID
    if status == ClaimStatus.OPENING_REJECTED:
        return SroStatus.CANCELLED
    if reopened:
        return SroStatus.REOPENED
    return _OPEN_STATUS[ClaimStatus(status)]


@dataclass
class ClaimFacts:
    """What the registradora is told of a claim, read once per build."""

    claim: Claim
    paid: Decimal  # the settled payments' indemnity
    expenses: Decimal  # regulation expenses (despesas de regulação)
    financial_charges: Decimal  # the settled payments' art. 88 fine, correction, interest
    reopened: bool
    documents_complete_on: dt.date | None
    settlement_started_on: dt.date | None
    concluded_on: dt.date | None
    final_beneficiaries: list[Beneficiary] = field(default_factory=list)
    codes: tuple[str, str] | None = None  # (grupo_ramo, cod_cobertura_sinistro)

    @property
    def status(self) -> int:
        return sro_status(self.claim.status, reopened=self.reopened, paid=self.paid)


def local_day(moment: dt.datetime) -> dt.date:
    return timezone.localdate(moment)


def claim_facts(claim: Claim, *, new: bool = False, until: dt.datetime | None = None
                ) -> ClaimFacts:
    """Three or four queries: the history's dated steps (up to ``until``, a move's time,
    when built after it), the settled payments, the coverage's SUSEP codes, and (closed
    with payment) who was paid. A ``new`` claim (its opening) has no such steps nor
    payments: only the codes are read."""
    history = ClaimHistory.objects.filter(claim=claim, action__in=[
        Action.COMPLETE_DOCUMENTS, Action.APPROVE_DOCUMENTS, Action.REGISTER_PAYMENT,
        Action.FINALIZE, Action.DENY, Action.REOPEN,
    ])
    if until is not None:
        history = history.filter(created_at__lte=until)
    steps = [] if new else list(history.order_by("created_at", "id")
                                .values_list("action", "created_at"))
    last = {action: at for action, at in steps}
    first = {}
    for action, at in steps:
        first.setdefault(action, at)
    closed = claim.status in (ClaimStatus.DENIED, ClaimStatus.FINALIZED)
    # Reopened: a reopening after the last closing (a claim closed again is not).
    last_close = max((at for action, at in steps if action in (Action.FINALIZE, Action.DENY)),
                     default=None)
    reopened = not closed and Action.REOPEN in last and (
        last_close is None or last[Action.REOPEN] > last_close)
    paid, expenses, charges = (ZERO, ZERO, ZERO) if new else _money_facts(claim)
    # The complete documentation: the upload that completed it; a claim that needed none
    # was complete when it was approved. Unknown before either (_coverage: a closing
    # that needs the date anyway takes the notice's).
    complete = last.get(Action.COMPLETE_DOCUMENTS) or first.get(Action.APPROVE_DOCUMENTS)
    documents_complete_on = local_day(complete) if complete else None
    concluded = None
    if closed:
        concluded = last.get(Action.DENY if claim.status == ClaimStatus.DENIED
                             else Action.FINALIZE)
    started = first.get(Action.REGISTER_PAYMENT) or concluded
    codes = CoverageCode.objects.filter(coverage_name=claim.coverage.name).values_list(
        "group_branch", "coverage_code").first()
    facts = ClaimFacts(
        claim=claim, paid=paid, expenses=expenses, financial_charges=charges,
        reopened=reopened,
        documents_complete_on=documents_complete_on,
        settlement_started_on=local_day(started) if started else None,
        concluded_on=local_day(concluded) if concluded else None,
        codes=codes,
    )
    if facts.status == SroStatus.CLOSED_PAID:
        paid_to = Payment.objects.filter(claim=claim, status=Payment.Status.SETTLED).values(
            "beneficiary")
        facts.final_beneficiaries = list(Beneficiary.objects.filter(pk__in=paid_to)
                                         .exclude(kind=BeneficiaryKind.CREDITOR)
                                         .order_by("created_at", "id"))
    return facts


def _money_facts(claim: Claim) -> tuple[Decimal, Decimal, Decimal]:
    """The settled payments' indemnity, the regulation expenses and the settled payments'
    art. 88 charges, in one query."""
    settled = Payment.objects.filter(claim=OuterRef("pk"), status=Payment.Status.SETTLED)
    spent = Expense.objects.filter(claim=OuterRef("pk"))

    def total(rows, expression):
        return Coalesce(Subquery(rows.values("claim").annotate(total=Sum(expression))
                                 .values("total")), Value(ZERO))

    return Claim.objects.filter(pk=claim.pk).values_list(
        total(settled, "amount"), total(spent, "amount"),
        total(settled, F("late_fine") + F("monetary_correction") + F("late_interest")),
    ).get()


def missing_facts(facts: ClaimFacts) -> list[str]:
    """What the layout needs and the claim lacks, in the operator's words: such an item
    is kept, shown as an alert and not sent."""
    missing = []
    if facts.codes is None:
        missing.append(f"A cobertura {facts.claim.coverage.name} não tem grupo/ramo e código "
                       "SUSEP (Registro SRO › Códigos SUSEP das coberturas).")
    for person in facts.final_beneficiaries:
        if len(person.tax_id) == 11 and not (person.postal_code and person.state):
            missing.append(f"O beneficiário {person.name} não tem CEP e UF, que o registro "
                           "do beneficiário final exige.")
    return missing


def _money(value: Decimal) -> float:
    # The layout's numbers are JSON numbers ("double"); two places, as the claim keeps them.
    return float(value.quantize(Decimal("0.01")))


def totals(facts: ClaimFacts) -> dict:
    """Absolute figures: what is still reserved (nothing once closed), what was paid."""
    claim = facts.claim
    pending = ZERO if facts.status in SroStatus.CLOSED else max(claim.amount - facts.paid, ZERO)
    return {
        "valor_pendente_reais": _money(pending),
        "valor_pago_reais": _money(facts.paid),
        "valor_salvado": 0.0,
        "valor_ressarcimento": 0.0,
        "valor_despesa": _money(facts.expenses),
        "valor_desp_fin": _money(facts.financial_charges),
    }


def _coverage(facts: ClaimFacts, *, changed_on: dt.date | None) -> dict:
    claim = facts.claim
    group_branch, coverage_code = facts.codes or ("", "")
    status = facts.status
    item = {
        "cobertura_interna_seguradora": claim.coverage.name[:50],
        "grupo_ramo": group_branch,
        "cod_cobertura_sinistro": coverage_code,
        "data_aviso_cobertura": local_day(claim.notified_at).isoformat(),
        "data_registro_seguradora_cobertura": local_day(claim.created_at).isoformat(),
        "data_ocorrencia": local_day(claim.occurred_at).isoformat(),
        "status": status,
        "forma_indenizacao": 1,  # pagamento pecuniário: every payment here is money
        "totalizacao_sinistro": totals(facts),
    }
    if coverage_code == OTHER_COVERAGE:
        # "Outros": the layout then asks the coverage's name (sinistro_cobertura_outros).
        item["sinistro_cobertura_outros"] = coverage_label(claim.coverage.name)[:500]
    if changed_on is not None:
        item["data_alteracao_sinistro"] = changed_on.isoformat()
    delivered = facts.documents_complete_on
    if delivered is None and _needs_delivery_date(status, claim):
        # Closed without the documentation ever complete (a denial on other grounds):
        # the layout still asks the date; the notice is when the insurer had what it had.
        delivered = local_day(claim.notified_at)
    if delivered is not None:
        # The layout: never before the notice (a channel may report an older notice date).
        item["data_entrega"] = max(delivered, local_day(claim.notified_at)).isoformat()
    if status in SroStatus.CLOSED:
        item["data_liquidacao"] = (facts.settlement_started_on or facts.concluded_on).isoformat()
        item["data_conclusao"] = facts.concluded_on.isoformat()
    if claim.status == ClaimStatus.DENIED and claim.denial_code:
        justification = {"justificativa": claim.denial_code}
        if claim.denial_code == 99:
            justification["descricao_justificativa"] = (claim.denial_reason or "Outros")[:1024]
        item["justificativa_negativa"] = justification
    return item


def _needs_delivery_date(status: int, claim: Claim) -> bool:
    # data_entrega: "Obrigatório quando o Status for 2, 7 ou 8; ou 3 ou 9 e a
    # justificativa da negativa for diferente de 3 e 4."
    if status in (2, 7, 8):
        return True
    return status in (3, 9) and claim.denial_code not in (3, 4)


def _final_beneficiary(person: Beneficiary) -> dict:
    return {"documento": person.tax_id, "tipo_documento": 1, "nome": person.name[:144],
            "codigo_postal": person.postal_code, "uf": person.state or "NA", "pais": "BRA"}


def build_item(facts: ClaimFacts, *, sequence: int, changed_on: dt.date | None,
               rectification: bool = False) -> dict:
    """One claim of a registro (``sequence`` 0) or an alteracao (its sequence)."""
    claim = facts.claim
    sale = claim.sale
    item = {
        "codigo_seguradora": settings.SUSEP_CODIGO_SEGURADORA[:5],
        "codigo_sinistro": claim.number,
    }
    if sequence:
        item["alteracao_sinistro_codigo"] = str(sequence)
    # The policy's own number where the sale has it; else the sale's id (docs/sro.md).
    item["apolice_codigo"] = (sale.policy_number or str(sale.id))[:60]
    if sale.certificate_number:
        item["certificado_codigo"] = sale.certificate_number[:60]
    item.update({
        "tipo_sinistro": 1,  # administrativo (a judicial claim is not handled here)
        "moeda_apolice": "BRL",
        "possui_cosseguro": False,
        "retificacao_registro": rectification,
        "coberturas_afetadas": [_coverage(facts, changed_on=changed_on if sequence else None)],
    })
    if facts.status == SroStatus.CLOSED_PAID:
        people = [p for p in facts.final_beneficiaries if len(p.tax_id) == 11]
        item["possui_beneficiario_final"] = bool(people)
        if people:
            item["beneficiario_final"] = [_final_beneficiary(p) for p in people]
    return item


def registered_content(item: dict) -> dict:
    """What an item says of the claim, without what only orders it (sequence, change
    date, rectification flag): two changes with the same content say nothing new."""
    content = {k: v for k, v in item.items()
               if k not in ("alteracao_sinistro_codigo", "retificacao_registro")}
    content["coberturas_afetadas"] = [
        {k: v for k, v in coverage.items() if k != "data_alteracao_sinistro"}
        for coverage in item["coberturas_afetadas"]]
    return content
