"""The claims domain's models, split by concern; import them from here."""

from claims.models.automatic import AutomaticDecision
from claims.models.banks import Bank
from claims.models.beneficiaries import (
    Beneficiary,
    BeneficiaryKind,
    Relationship,
    RequesterRelationship,
)
from claims.models.claims import (
    Claim,
    ClaimHistory,
    Event,
    new_claim_number,
    webhook_envelope,
)
from claims.models.payments import Payment, PaymentMethod
from claims.models.consequences import MoveConsequence
from claims.models.expenses import Expense, FinancialIndex
from claims.models.reconsiderations import Reconsideration
from claims.models.documents import DocumentFile, DocumentRequest, DocumentRequirement
from claims.models.readings import DocumentReading
from claims.models.sales import MONEY, Channel, Coverage, Sale

__all__ = [
    "MONEY",
    "AutomaticDecision",
    "Bank",
    "Beneficiary",
    "BeneficiaryKind",
    "Channel",
    "Claim",
    "ClaimHistory",
    "Coverage",
    "DocumentFile",
    "DocumentReading",
    "DocumentRequest",
    "Expense",
    "MoveConsequence",
    "FinancialIndex",
    "DocumentRequirement",
    "Event",
    "Payment",
    "PaymentMethod",
    "Reconsideration",
    "Relationship",
    "RequesterRelationship",
    "Sale",
    "new_claim_number",
    "webhook_envelope",
]
