"""Paying claims through the bank: CNAB 240 remittances and returns (docs/payouts.md)."""

from config.settings.base import VAR_DIR
from config.settings.registry import Concern, decimal, env

payouts = Concern("Payouts", "config/settings/payouts.py: CNAB 240 remittances and returns "
                  "([docs/payouts.md](payouts.md))")

# Where remittances are dropped for the bank's file-transfer client to pick up, and where
# that client leaves the bank's returns (the beat job reads them). Local folders by default,
# which the local bank of `make run` watches.
BANK_OUTBOX_DIR = payouts.read(
    "BANK_OUTBOX_DIR", env.path, VAR_DIR / "bank" / "outbox", "the folder the bank's "
    "file-transfer client reads remittances from (the local bank of `make run` watches the "
    "default)")
BANK_INBOX_DIR = payouts.read(
    "BANK_INBOX_DIR", env.path, VAR_DIR / "bank" / "inbox", "the folder that client leaves "
    "the bank's returns in; the beat reads them")
# When the beat job builds the day's remittances (local time, business days only).
BANK_REMITTANCE_TIMES = payouts.read(
    "BANK_REMITTANCE_TIMES", env.list, ["09:00", "14:00"], "when the beat writes the day's "
    "remittances (local time, business days: the SRO's calendar)")
# A remittance whose total passes this needs a second treasury user's release before it is
# dropped or downloaded (R$).
BANK_REMITTANCE_RELEASE_LIMIT = payouts.read(
    "BANK_REMITTANCE_RELEASE_LIMIT", decimal, "100000.00", "a remittance above this total "
    "(R$) waits for a second treasury user's release")
# An order the bank has not answered this many business days after its payment date is
# late (reconciliation and the supervisors' dashboard).
BANK_ORDER_LATE_BUSINESS_DAYS = payouts.read(
    "BANK_ORDER_LATE_BUSINESS_DAYS", env.int, 2, "an order unanswered this many business "
    "days after its payment date is late")
# How often the beat job looks at the clock and the inbox: BANK_POLL_SECONDS (seconds,
# default 60), read where the beat schedule is (config/settings/jobs.py).
