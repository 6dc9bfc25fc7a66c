"""What finance does with the books: close a month, ask for a flash report."""

from ledger.services.closing import close_month, flash_report

__all__ = ["close_month", "flash_report"]
