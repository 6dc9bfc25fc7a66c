"""The FEBRABAN CNAB 240 layout for paying suppliers (service 20): remittances written and
read, validated, and the bank's returns read (docs/cnab240.md). Pure Python: no Django."""

from payouts.cnab240.occurrences import OCCURRENCES, describe, outcome
from payouts.cnab240.remittance import read_remittance, write_remittance
from payouts.cnab240.returns import read_return, write_return
from payouts.cnab240.types import Company, Form, LayoutError, Order, ReturnFile, ReturnItem
from payouts.cnab240.validator import validate_remittance

__all__ = ["OCCURRENCES", "Company", "Form", "LayoutError", "Order", "ReturnFile",
           "ReturnItem", "describe", "outcome", "read_remittance", "read_return",
           "validate_remittance", "write_remittance", "write_return"]
