"""Paying claims through the bank: CNAB 240 remittances and returns (docs/payouts.md)."""

from decimal import Decimal

from config.settings.base import VAR_DIR, env

# Where remittances are dropped for the bank's file-transfer client to pick up, and where
# that client leaves the bank's returns (the beat job reads them). Local folders by default,
# which the local bank of `make run` watches.
BANK_OUTBOX_DIR = env.path("BANK_OUTBOX_DIR", default=VAR_DIR / "bank" / "outbox")
BANK_INBOX_DIR = env.path("BANK_INBOX_DIR", default=VAR_DIR / "bank" / "inbox")
# When the beat job builds the day's remittances (local time, business days only).
BANK_REMITTANCE_TIMES = env.list("BANK_REMITTANCE_TIMES", default=["09:00", "14:00"])
# A remittance whose total passes this needs a second treasury user's release before it is
# dropped or downloaded (R$).
BANK_REMITTANCE_RELEASE_LIMIT = Decimal(env.str("BANK_REMITTANCE_RELEASE_LIMIT", default="100000.00"))
# An order the bank has not answered this many business days after its payment date is
# late (reconciliation and the supervisors' dashboard).
BANK_ORDER_LATE_BUSINESS_DAYS = env.int("BANK_ORDER_LATE_BUSINESS_DAYS", default=2)
# How often the beat job looks at the clock and the inbox: BANK_POLL_SECONDS (seconds,
# default 60), read where the beat schedule is (config/settings/jobs.py).
