"""Keeping and forgetting (docs/privacy.md)."""

from config.settings.base import env

# Circular SUSEP 605/2020: claims records are kept at least 5 years from the latest of
# the act, the end of the contract and the extinction of its obligations. 0 is allowed
# (tests, an operator's rehearsal on a copy of the database), never in production.
RETENTION_YEARS = env.int("RETENTION_YEARS", default=5)
# Claims anonymised per transaction by a run (privacy.forgetting): a crash loses at most
# one batch's work, which the next run does again.
RETENTION_BATCH_SIZE = env.int("RETENTION_BATCH_SIZE", default=200)
# LGPD art. 19, II: the complete answer to a person's request, in calendar days.
DATA_REQUEST_DAYS = env.int("DATA_REQUEST_DAYS", default=15)
# How long a run's lock lasts where PostgreSQL's advisory lock is not available (the
# embedded SQLite): longer than a run takes; a dead run's lock expires after it.
RETENTION_LOCK_SECONDS = env.int("RETENTION_LOCK_SECONDS", default=6 * 60 * 60)
# Circular SUSEP 612/2020 and Lei 9.613/1998, art. 10 (anti-money-laundering): how long
# the records of a payment (who was paid, how) are kept after it. The term could not be
# verified against the norm's current text: unset, the retention term applies; set and
# longer, the clock counts it from the last payment (privacy.clock.payment_years).
AML_RETENTION_YEARS = env.int("AML_RETENTION_YEARS", default=None)
