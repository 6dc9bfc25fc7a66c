"""The claims domain's models, split by concern; import them from here."""

from claims.models.claims import (
    NATURES_BY_COVERAGE,
    BeneficiaryKind,
    Claim,
    ClaimHistory,
    Event,
    Nature,
    Payment,
    PaymentMethod,
    new_claim_number,
    webhook_envelope,
)
from claims.models.documents import DocumentFile, DocumentRequest, DocumentRequirement
from claims.models.sales import MONEY, Channel, Coverage, Sale

__all__ = [
    "MONEY",
    "NATURES_BY_COVERAGE",
    "BeneficiaryKind",
    "Channel",
    "Claim",
    "ClaimHistory",
    "Coverage",
    "DocumentFile",
    "DocumentRequest",
    "DocumentRequirement",
    "Event",
    "Nature",
    "Payment",
    "PaymentMethod",
    "Sale",
    "new_claim_number",
    "webhook_envelope",
]
