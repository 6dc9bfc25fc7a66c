"""What a proposal asks the supervisor to approve, one typed shape per kind.

The admin's forms build the terms, ``approvals.propose`` checks and stores them
(``Proposal.arguments``, JSON: amounts and dates as strings, so a proposal reads back
exactly as proposed), and approving reads them back (``terms_of``) to call the service
as the proposer would have. The stored keys are the ones proposals always had; the
migration ``workbench 0003`` retired the only older shape (denials proposed before they
carried a SUSEP code).
"""

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import ClassVar

from workbench.models import Proposal


@dataclasses.dataclass(frozen=True)
class DenialTerms:
    KIND: ClassVar[str] = Proposal.Kind.DENY
    reason: str
    code: int
    clause: str = ""
    internal_note: str = ""
    late_justification: str = ""
    denied_at: dt.datetime | None = None

    def to_json(self) -> dict:
        return {"reason": self.reason, "code": int(self.code), "clause": self.clause,
                "internal_note": self.internal_note,
                "late_justification": self.late_justification,
                "denied_at": self.denied_at.isoformat() if self.denied_at else None}

    @classmethod
    def from_json(cls, data: dict) -> "DenialTerms":
        denied_at = data.get("denied_at")
        return cls(reason=data["reason"], code=int(data["code"]),
                   clause=data.get("clause", ""), internal_note=data.get("internal_note", ""),
                   late_justification=data.get("late_justification", ""),
                   denied_at=dt.datetime.fromisoformat(denied_at) if denied_at else None)


@dataclasses.dataclass(frozen=True)
class ClosingTerms:
    """A closing with nothing paid (a withdrawn notice: the whole reserve released)."""

    KIND: ClassVar[str] = Proposal.Kind.CLOSE_UNPAID
    reason: str

    def to_json(self) -> dict:
        return {"reason": self.reason}

    @classmethod
    def from_json(cls, data: dict) -> "ClosingTerms":
        return cls(reason=data["reason"])


@dataclasses.dataclass(frozen=True)
class ReserveTerms:
    KIND: ClassVar[str] = Proposal.Kind.RESERVE
    amount: Decimal
    previous: Decimal  # the claim's value when proposed, for the supervisor to compare
    reason: str

    def to_json(self) -> dict:
        return {"amount": str(self.amount), "from": str(self.previous), "reason": self.reason}

    @classmethod
    def from_json(cls, data: dict) -> "ReserveTerms":
        return cls(amount=Decimal(data["amount"]), previous=Decimal(data["from"]),
                   reason=data["reason"])


@dataclasses.dataclass(frozen=True)
class ExpenseTerms:
    KIND: ClassVar[str] = Proposal.Kind.EXPENSE
    kind: str  # claims.models.Expense.Kind
    kind_label: str
    supplier_name: str
    supplier_tax_id: str
    amount: Decimal
    incurred_on: dt.date
    note: str = ""

    def to_json(self) -> dict:
        return {"kind": self.kind, "kind_label": self.kind_label,
                "supplier_name": self.supplier_name, "supplier_tax_id": self.supplier_tax_id,
                "amount": str(self.amount), "incurred_on": self.incurred_on.isoformat(),
                "note": self.note}

    @classmethod
    def from_json(cls, data: dict) -> "ExpenseTerms":
        return cls(kind=data["kind"], kind_label=data["kind_label"],
                   supplier_name=data["supplier_name"],
                   supplier_tax_id=data.get("supplier_tax_id", ""),
                   amount=Decimal(data["amount"]),
                   incurred_on=dt.date.fromisoformat(data["incurred_on"]),
                   note=data.get("note", ""))


@dataclasses.dataclass(frozen=True)
class PaymentTerms:
    KIND: ClassVar[str] = Proposal.Kind.PAYMENT
    beneficiary: str  # the Beneficiary's id
    amount: Decimal
    payee: dict  # {"name", "tax_id"}: who receives, as the analyst confirmed it
    payment_method: dict  # the contract's payment method (PIX key or bank account)
    note: str = ""

    def to_json(self) -> dict:
        return {"beneficiary": str(self.beneficiary), "amount": str(self.amount),
                "payee": dict(self.payee), "payment_method": dict(self.payment_method),
                "note": self.note}

    @classmethod
    def from_json(cls, data: dict) -> "PaymentTerms":
        return cls(beneficiary=str(data["beneficiary"]), amount=Decimal(data["amount"]),
                   payee=data["payee"], payment_method=data["payment_method"],
                   note=data.get("note", ""))


Terms = DenialTerms | ClosingTerms | ReserveTerms | ExpenseTerms | PaymentTerms
TERMS_OF_KIND: dict[str, type] = {
    terms.KIND: terms
    for terms in (DenialTerms, ClosingTerms, ReserveTerms, ExpenseTerms, PaymentTerms)}


def terms_of(proposal: Proposal) -> Terms:
    """The proposal's terms, as proposed."""
    return TERMS_OF_KIND[proposal.kind].from_json(proposal.arguments)
