"""Claims that decide themselves: rules, their authority and the sampled review
(docs/decisions.md)."""

from config.settings.registry import Concern, decimal, env

rules = Concern("Automatic decisions", "config/settings/decisions.py: the rules' authority "
                "and the sampled review ([docs/decisions.md](decisions.md))")

# The rules' authority (alçada): an approval whose payments pass this (R$) is proposed
# to a person, ready to accept, instead of applied.
AUTO_DECISION_LIMIT = rules.read(
    "AUTO_DECISION_LIMIT", decimal, "20000.00", "the rules' authority: an automatic "
    "approval paying more is proposed to a person")
# The share of automatic approvals drawn at random for a quality review ("amostra").
AUTO_DECISION_SAMPLE_RATE = rules.read(
    "AUTO_DECISION_SAMPLE_RATE", env.float, 0.05, "the share of automatic approvals drawn "
    "for a quality review")
# Every automatic approval paying more than this (R$) is reviewed too.
AUTO_DECISION_SAMPLE_ABOVE = rules.read(
    "AUTO_DECISION_SAMPLE_ABOVE", decimal, "10000.00", "every automatic approval paying more "
    "is reviewed")
# How long a sampled approval's payment orders wait for the review (hours); past it
# they go with the next bank file, and the review stays open, marked late.
AUTO_DECISION_REVIEW_HOURS = rules.read(
    "AUTO_DECISION_REVIEW_HOURS", env.int, 48, "how long a sampled approval's payment orders "
    "wait for the review")
# How long the rules wait for the documents' readings (OCR, in a worker) before
# deciding without them (then "documents read" is false and the claim goes to a person).
AUTO_DECISION_READING_WAIT_MINUTES = rules.read(
    "AUTO_DECISION_READING_WAIT_MINUTES", env.int, 30, "how long the rules wait for the "
    "documents' readings")
# How long the rules' measures on /metricas are kept in the shared cache (seconds): the
# scrape reads them from there, whichever web process answers it.
AUTO_DECISION_METRICS_SECONDS = rules.read(
    "AUTO_DECISION_METRICS_SECONDS", env.int, 60, "how long the rules' measures on "
    "`/metricas` are kept in the shared cache")
