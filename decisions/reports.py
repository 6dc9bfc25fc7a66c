"""The measures of the rules (the supervisors' dashboard, /metricas, docs/decisions.md):
the share of claims decided with no person, by coverage and channel; the shadow
agreement; the sampled reversals; the time from the last document to the payment order.
Each is a handful of statements, whatever the number of claims."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Min, OuterRef, Q, Subquery

from claims.models import Claim, ClaimHistory
from decisions.models import Decision, Evaluation, SampleReview
from payouts.models import PaymentOrder

AGREEING = {Decision.APPROVE: "aprovar", Decision.PROPOSE_DENIAL: "recusar"}


@dataclass(frozen=True)
class Share:
    coverage: str
    channel: str
    decided: int
    automatic: int

    @property
    def share(self) -> float:
        return self.automatic / self.decided if self.decided else 0.0


def automatic_share(*, since, until) -> list[Share]:
    """Claims whose cover was decided in the window, and how many by the rules alone
    (an automatic decision not reversed), per coverage and channel."""
    rows = (Claim.objects.filter(decided_at__gte=since, decided_at__lt=until, is_sandbox=False)
            .values("coverage__name", "channel__slug")
            .annotate(decided=Count("pk"),
                      automatic=Count("pk", filter=Q(automatic_decision__isnull=False,
                                                     automatic_decision__reversed_at__isnull=True)))
            .order_by("coverage__name", "channel__slug"))
    return [Share(r["coverage__name"], r["channel__slug"], r["decided"], r["automatic"]) for r in rows]


@dataclass(frozen=True)
class Agreement:
    compared: int
    agreed: int
    table: dict

    @property
    def rate(self) -> float:
        return self.agreed / self.compared if self.compared else 0.0


def shadow_agreement(*, since) -> Agreement:
    """Shadow decisions people then decided: where the rules took a position (approve,
    or propose a denial), how often people did the same."""
    rows = (Evaluation.objects.filter(mode="sombra", created_at__gte=since)
            .exclude(human_decision="").values("decision", "human_decision")
            .annotate(n=Count("pk")))
    table: dict = {}
    compared = agreed = 0
    for row in rows:
        table.setdefault(row["decision"], {})[row["human_decision"]] = row["n"]
        if row["decision"] in AGREEING:
            compared += row["n"]
            if AGREEING[row["decision"]] == row["human_decision"]:
                agreed += row["n"]
    return Agreement(compared, agreed, table)


def samples(*, since) -> dict:
    """Sampled reviews by status, and the reversal rate of those reviewed."""
    counts = dict(SampleReview.objects.filter(created_at__gte=since).values_list("status")
                  .annotate(n=Count("pk")).values_list("status", "n"))
    reviewed = counts.get("confirmada", 0) + counts.get("revertida", 0)
    return {"pendentes": counts.get("pendente", 0), "confirmadas": counts.get("confirmada", 0),
            "revertidas": counts.get("revertida", 0),
            "taxa_reversao": counts.get("revertida", 0) / reviewed if reviewed else 0.0}


def latencies(*, since, automatic: bool = True, limit: int = 20000) -> list[float]:
    """Seconds from the documentation complete (the last document) to the claim's first
    payment order, for claims decided by the rules (or by people) since ``since``."""
    complete = (ClaimHistory.objects.filter(claim=OuterRef("pk"), action="completar-documentacao")
                .order_by("-created_at").values("created_at")[:1])
    first_order = (PaymentOrder.objects.filter(payment__claim=OuterRef("pk"))
                   .values("payment__claim").annotate(first=Min("created_at")).values("first")[:1])
    claims = (Claim.objects.filter(decided_at__gte=since, is_sandbox=False,
                                   automatic_decision__isnull=not automatic)
              .annotate(complete=Subquery(complete), ordered=Subquery(first_order))
              .filter(complete__isnull=False, ordered__isnull=False)
              .values_list("complete", "ordered")[:limit])
    return sorted(max((ordered - complete).total_seconds(), 0.0) for complete, ordered in claims)


def percentile(values: list[float], fraction: float) -> float | None:
    """Nearest-rank percentile of sorted ``values``."""
    if not values:
        return None
    index = max(0, min(len(values) - 1, int(round(fraction * len(values) + 0.5)) - 1))
    return values[index]


def window(days: int, now) -> tuple[dt.datetime, dt.datetime]:
    return now - dt.timedelta(days=days), now
