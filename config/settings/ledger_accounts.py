"""The books of claims: which accounts the entries' reconciliation reads
(docs/ledger-entries.md)."""

from config.settings.base import env

# The chart's bank accounts (credited with what the ledger settled) and PSL accounts
# (moving as the ledger's reserve): the codes shipped in ledger/data/chart_of_accounts.json,
# illustrative until finance sets the insurer's own (comma-separated codes).
LEDGER_BANK_ACCOUNTS = env.list("LEDGER_BANK_ACCOUNTS", default=["111200000"])
LEDGER_PSL_ACCOUNTS = env.list("LEDGER_PSL_ACCOUNTS", default=["214110000"])
