"""The demo ``seed_demo`` loads: the workload of claims (workload.py) and each app's part,
called in turn by the command (sro: the registrations sent after each step; payouts: the
bank paying the past; decisions, ledger, privacy: their data once the claims are in)."""
