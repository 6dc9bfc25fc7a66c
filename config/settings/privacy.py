"""Keeping and forgetting (docs/privacy.md)."""

from config.settings.registry import Concern, env

privacy = Concern("Keeping and forgetting", "config/settings/privacy.py: retention, "
                  "people's requests ([docs/privacy.md](privacy.md))")

# Circular SUSEP 605/2020: claims records are kept at least 5 years from the latest of
# the act, the end of the contract and the extinction of its obligations. 0 is allowed
# (tests, an operator's rehearsal on a copy of the database), never in production.
RETENTION_YEARS = privacy.read(
    "RETENTION_YEARS", env.int, 5, "the longest retention term that binds the insurer",
    shown="`5` (Circular SUSEP 605/2020)", production="never `0` (only tests and rehearsals "
    "on a copy)")
# Claims anonymised per transaction by a run (privacy.forgetting): a crash loses at most
# one batch's work, which the next run does again.
RETENTION_BATCH_SIZE = privacy.read("RETENTION_BATCH_SIZE", env.int, 200,
                                    "claims (or sales) per transaction of a run")
# LGPD art. 19, II: the complete answer to a person's request, in calendar days.
DATA_REQUEST_DAYS = privacy.read(
    "DATA_REQUEST_DAYS", env.int, 15, "calendar days to answer a person's request "
    "completely", shown="`15` (LGPD art. 19, II)")
# Circular SUSEP 612/2020 and Lei 9.613/1998, art. 10 (anti-money-laundering): how long
# the records of a payment (who was paid, how) are kept after it. The term could not be
# verified against the norm's current text: unset, the retention term applies; set and
# longer, the clock counts it from the last payment (privacy.clock.payment_years).
AML_RETENTION_YEARS = privacy.read(
    "AML_RETENTION_YEARS", env.int, None, "a longer term for the records of a payment, "
    "counted from the last payment (Circular SUSEP 612/2020; not verified here)",
    shown="unset (the retention term applies)")
# LGPD art. 37: whether an access record written on its own (an API or hosted-page read)
# waits for PostgreSQL's WAL flush before the answer leaves (privacy.access). Off: the
# record is committed and visible before the answer, but a crash of PostgreSQL itself
# can lose the last fraction of a second of records (3 x wal_writer_delay); on: every
# such read waits for the disk, and stalls when it does.
ACCESS_RECORD_COMMIT_WAITS = privacy.read(
    "ACCESS_RECORD_COMMIT_WAITS", env.bool, False, "an API or hosted-page read waits for "
    "its access record to reach the disk (docs/privacy-access.md, \"What a crash can lose\")")
