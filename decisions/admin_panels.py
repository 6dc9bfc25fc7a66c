"""The rules on the claim page and on the supervisors' dashboard (workbench.admin.panels;
workbench never imports this app).

- "Decisão automática", at the top of the claim page: the claim's latest evaluation (its
  version, mode, decision, effect, each fired rule in words with the facts it read, and
  the readings of the documents); "Aceitar a proposta das regras" when the rules stopped
  at their limit; a link to the pending sample; and whether the claim was decided
  automatically (and its review asked for).
- The supervisors' card: what the rules decided today and in 30 days with no person,
  the samples waiting for review, the denials the rules proposed, the shadow agreement.
  A fixed handful of statements, whatever the number of decisions."""

import datetime as dt

from django.utils import timezone

from claims.models import AutomaticDecision

from workbench.models import ToDo
from decisions import reports
from decisions.admin.common import REVIEW, WORK_CLAIM, explained, share_words
from decisions.models import Evaluation, SampleReview
from workbench.admin.panels import Card, Panel, register, register_card

AGREEMENT_DAYS = 90


def claim_context(request, claim) -> dict:
    evaluation = (Evaluation.objects.filter(claim=claim)
                  .select_related("version__rule_set").order_by("-created_at", "-id").first())
    automatic = AutomaticDecision.objects.filter(claim=claim).first()
    sample = None
    if evaluation is not None:
        sample = SampleReview.objects.filter(evaluation__claim=claim,
                                             status=SampleReview.Status.PENDING).first()
    user = request.user
    return {
        "evaluation": evaluation,
        "explained": explained(evaluation) if evaluation else [],
        "readings": evaluation.facts.get("leituras", []) if evaluation else [],
        "automatic": automatic,
        "sample": sample,
        "can_review": user.has_perm(REVIEW),
        "can_accept": (evaluation is not None and user.has_perm(WORK_CLAIM)
                       and evaluation.effect == Evaluation.Effect.ABOVE_LIMIT
                       and not evaluation.human_decision),
    }


CLAIM_PANEL = Panel(template="admin/decisions/claim_section.html", context=claim_context,
                    top=True)


def dashboard_card(request) -> dict | None:
    if not request.user.has_perm("decisions.view_evaluation"):
        return None
    now = timezone.now()
    today = timezone.make_aware(dt.datetime.combine(timezone.localdate(), dt.time.min))
    decided_today = reports.automatic_share(since=today, until=now + dt.timedelta(seconds=1))
    month = reports.automatic_share(since=now - dt.timedelta(days=30),
                                    until=now + dt.timedelta(seconds=1))
    month_decided = sum(share.decided for share in month)
    month_automatic = sum(share.automatic for share in month)
    agreement = reports.shadow_agreement(since=now - dt.timedelta(days=AGREEMENT_DAYS))
    return {
        "today_automatic": sum(share.automatic for share in decided_today),
        "today_decided": sum(share.decided for share in decided_today),
        "month_automatic": month_automatic, "month_decided": month_decided,
        "month_share": share_words(month_automatic / month_decided if month_decided else 0),
        "pending_samples": SampleReview.objects.filter(status=SampleReview.Status.PENDING).count(),
        "can_review": request.user.has_perm(REVIEW),
        "proposed_denials": ToDo.objects.filter(kind=ToDo.Kind.RULES_DENIAL,
                                                status=ToDo.Status.OPEN).count(),
        "agreement": agreement, "agreement_rate": share_words(agreement.rate),
        "agreement_days": AGREEMENT_DAYS,
    }


CARD = Card(template="admin/decisions/dashboard_card.html", context=dashboard_card)


def install() -> None:
    register(CLAIM_PANEL)
    register_card(CARD)
