"""The books of claims: which accounts the entries' reconciliation reads
(docs/ledger-entries.md)."""

from config.settings.registry import Concern, env

ledger = Concern("Ledger", "config/settings/ledger_accounts.py: the chart's accounts "
                 "([docs/ledger-entries.md](ledger-entries.md))")

# The chart's bank accounts (credited with what the ledger settled) and PSL accounts
# (moving as the ledger's reserve): the codes shipped in ledger/data/chart_of_accounts.json,
# illustrative until finance sets the insurer's own (comma-separated codes).
LEDGER_BANK_ACCOUNTS = ledger.read(
    "LEDGER_BANK_ACCOUNTS", env.list, ["111200000"], "the chart's bank account codes "
    "(illustrative until finance sets the insurer's), which the accounting entries' "
    "reconciliation reads")
LEDGER_PSL_ACCOUNTS = ledger.read(
    "LEDGER_PSL_ACCOUNTS", env.list, ["214110000"], "the chart's PSL account codes "
    "(illustrative), which the same reconciliation reads")
