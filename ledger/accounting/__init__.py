"""Accounting entries for the ERP: the ledger's movements as double-entry lines under the
rules finance keeps, the month's file and its reconciliation with the ledger and the bank
(docs/ledger-entries.md)."""

from ledger.accounting.entries import EntriesFile, month_entries
from ledger.accounting.mapping import Line, MissingRule, lines_for
from ledger.accounting.reconciliation import Reconciliation, reconcile, reconciliation

__all__ = ["EntriesFile", "Line", "MissingRule", "Reconciliation", "lines_for",
           "month_entries", "reconcile", "reconciliation"]
