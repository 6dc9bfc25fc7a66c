"""The facts the rules read about a claim, by the names people write in the tables, with
their words: the catalogue (``FACTS``) is what the admin lists beside a table and what a
reason quotes. ``collect`` loads them in a flat number of statements, whatever the
claim's documents, beneficiaries or history."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from claims.documents.readings.facts import reading_facts
from claims.models import BeneficiaryKind, Claim, DocumentFile
from claims.services import entitlements_of, missing_payment_data
from claims.workflow import ClaimStatus


@dataclass(frozen=True)
class Fact:
    label: str
    kind: str  # "texto", "número", "sim/não", "lista"


FACTS: dict[str, Fact] = {
    "cobertura": Fact("Cobertura (cobertura/...)", "texto"),
    "natureza": Fact("Natureza", "texto"),
    "canal": Fact("Canal (identificador)", "texto"),
    "valor": Fact("Valor do sinistro (R$)", "número"),
    "valor_a_pagar": Fact("Valor que falta pagar (R$)", "número"),
    "lmi": Fact("LMI da cobertura (R$)", "número"),
    "lmg": Fact("LMG da apólice (R$)", "número"),
    "saldo_devedor": Fact("Saldo devedor informado (R$)", "número"),
    "prestamista": Fact("Seguro prestamista (há saldo devedor)", "sim/não"),
    "dias_desde_inicio_vigencia": Fact("Dias do início da vigência à ocorrência (carência)", "número"),
    "dias_desde_ocorrencia": Fact("Dias desde a ocorrência", "número"),
    "dias_da_ocorrencia_ao_aviso": Fact("Dias da ocorrência ao aviso", "número"),
    "documentos_recebidos": Fact("Arquivos recebidos", "número"),
    "documentos_pendentes": Fact("Documentos solicitados ainda sem arquivo", "número"),
    "tem_alertas": Fact("Há alertas no sinistro", "sim/não"),
    "alertas": Fact("Alertas (códigos)", "lista"),
    "beneficiarios_completos": Fact("Beneficiários, participações e dados de pagamento completos", "sim/não"),
    "sinistros_anteriores_cpf": Fact("Outros sinistros do mesmo CPF", "número"),
    "recusas_anteriores_cpf": Fact("Sinistros recusados do mesmo CPF", "número"),
    "documentos_lidos": Fact("Todos os arquivos foram lidos", "sim/não"),
    "documentos_integros": Fact("Todos os arquivos abrem e foram lidos sem erro", "sim/não"),
    "leitura_incerta": Fact("Alguma leitura é incerta", "sim/não"),
    "arquivo_repetido": Fact("Arquivo igual ao de sinistro de outra pessoa", "sim/não"),
    "certidao_confere": Fact("Certidão de óbito confere (nome, CPF e data)", "sim/não"),
    "certidao_cpf_confere": Fact("CPF da certidão confere", "sim/não"),
    "certidao_nome_confere": Fact("Nome da certidão confere", "sim/não"),
    "certidao_matricula_valida": Fact("Matrícula da certidão válida (dígitos verificadores)", "sim/não"),
    "certidao_data_diverge_dias": Fact("Dias entre a data do óbito na certidão e a ocorrência", "número"),
    "rescisao_confere": Fact("Rescisão confere (nome, CPF e data)", "sim/não"),
    "rescisao_data_diverge_dias": Fact("Dias entre o afastamento na rescisão e a ocorrência", "número"),
}


def collect(claim: Claim, *, today: dt.date | None = None) -> dict:
    """The facts of ``claim`` (loaded with its sale, coverage and channel) on ``today``
    (the local date by default). Money as numbers (the engine's), dates as days; None
    where a fact does not apply."""
    sale, today = claim.sale, today or timezone.localdate()
    occurred = timezone.localdate(claim.occurred_at)
    requests = list(claim.document_requests.filter(approved_at__isnull=True).annotate(
        answered=Exists(DocumentFile.objects.filter(
            request_id=OuterRef("pk"), status=DocumentFile.Status.RECEIVED)))
        .values_list("answered", flat=True))
    beneficiaries = list(claim.beneficiaries.all())
    payments = list(claim.payments.all())
    claim._prefetched_objects_cache = {"beneficiaries": beneficiaries, "payments": payments}
    shares, missing = payable_shares(claim)
    left = sum((share.left for share in shares), Decimal("0.00"))
    others = (Claim.objects.filter(sale__insured_cpf=sale.insured_cpf, is_sandbox=claim.is_sandbox)
              .exclude(pk=claim.pk)
              .aggregate(total=Count("pk"), denied=Count("pk", filter=Q(status=ClaimStatus.DENIED))))
    facts = {
        "cobertura": claim.coverage.name,
        "natureza": claim.nature,
        "canal": claim.channel.slug,
        "valor": float(claim.amount),
        "valor_a_pagar": float(left),
        "lmi": float(claim.coverage.max_indemnity),
        "lmg": float(sale.max_guarantee),
        "saldo_devedor": None if claim.outstanding_balance is None else float(claim.outstanding_balance),
        "prestamista": claim.is_credit_life,
        "dias_desde_inicio_vigencia": (occurred - sale.valid_from).days,
        "dias_desde_ocorrencia": (today - occurred).days,
        "dias_da_ocorrencia_ao_aviso": (timezone.localdate(claim.notified_at) - occurred).days,
        "documentos_recebidos": DocumentFile.objects.filter(
            claim=claim, status=DocumentFile.Status.RECEIVED).count(),
        "documentos_pendentes": sum(1 for answered in requests if not answered),
        "tem_alertas": bool(claim.alerts),
        "alertas": [alert["codigo"] for alert in claim.alerts],
        "beneficiarios_completos": not missing,
        "sinistros_anteriores_cpf": others["total"],
        "recusas_anteriores_cpf": others["denied"],
    }
    readings = reading_facts(claim)
    facts.update({name: readings.get(name) for name in FACTS if name in readings})
    facts["leituras"] = list(readings.get("leituras", []))
    return facts


def payable_shares(claim: Claim):
    """The shares still to pay (the creditor first), and what keeps them from being paid,
    in words: nothing, or the claim's missing people and data. A share with nothing left
    (the insured's, when the creditor takes the whole value) needs no payment data."""
    every = entitlements_of(claim)
    shares = sorted((share for share in every
                     if share.left > 0 and not share.beneficiary.is_held),
                    key=lambda share: share.beneficiary.kind != BeneficiaryKind.CREDITOR)
    assigned = sum((share.due for share in every), Decimal("0.00"))
    lacking = [share for share in shares if not share.beneficiary.has_payment_data]
    if assigned < claim.amount or lacking:
        return shares, missing_payment_data(claim, list(claim.beneficiaries.all())) or [
            f"os dados de pagamento de {share.beneficiary.name}" for share in lacking]
    return shares, []


def value_in_words(value) -> str:
    if value is None:
        return "não se aplica"
    if value is True:
        return "sim"
    if value is False:
        return "não"
    if isinstance(value, float):
        return f"{value:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "nenhum"
    return str(value)
