"""Claims that decide themselves: rules, their authority and the sampled review
(docs/decisions.md)."""

from decimal import Decimal

from config.settings.base import env

# The rules' authority (alçada): an approval whose payments pass this (R$) is proposed
# to a person, ready to accept, instead of applied.
AUTO_DECISION_LIMIT = Decimal(env.str("AUTO_DECISION_LIMIT", default="20000.00"))
# The share of automatic approvals drawn at random for a quality review ("amostra").
AUTO_DECISION_SAMPLE_RATE = env.float("AUTO_DECISION_SAMPLE_RATE", default=0.05)
# Every automatic approval paying more than this (R$) is reviewed too.
AUTO_DECISION_SAMPLE_ABOVE = Decimal(env.str("AUTO_DECISION_SAMPLE_ABOVE", default="10000.00"))
# How long a sampled approval's payment orders wait for the review (hours); past it
# they go with the next bank file, and the review stays open, marked late.
AUTO_DECISION_REVIEW_HOURS = env.int("AUTO_DECISION_REVIEW_HOURS", default=48)
# How long the rules wait for the documents' readings (OCR, in a worker) before
# deciding without them (then "documents read" is false and the claim goes to a person).
AUTO_DECISION_READING_WAIT_MINUTES = env.int("AUTO_DECISION_READING_WAIT_MINUTES", default=30)
# How long the rules' measures on /metricas are kept in the shared cache (seconds): the
# scrape reads them from there, whichever web process answers it.
AUTO_DECISION_METRICS_SECONDS = env.int("AUTO_DECISION_METRICS_SECONDS", default=60)
