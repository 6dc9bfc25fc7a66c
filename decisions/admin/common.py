"""What the rules' admin pages share: the permissions, POST-only views that turn a
service's refusal into the page's message, and dates and links in words."""

from django.contrib import messages
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from api_common.problem_types import ProblemError
from decisions import engine

EDIT = "decisions.edit_rules"
PUBLISH = "decisions.publish_rules"
SWITCH = "decisions.switch_rules"
REVIEW = "decisions.review_samples"
# Accepting the rules' proposal is an analyst's act on the claim, under their authority.
WORK_CLAIM = "claims.work_claim"


def run(request, done_url: str, call, success: str):
    """POST only: ``call()``; its refusal (a domain error, or a table the engine cannot
    run) becomes the page's message. Back to ``done_url`` either way."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    try:
        call()
    except ProblemError as refusal:
        messages.error(request, refusal.detail)
    except engine.RulesInvalid as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, success)
    return HttpResponseRedirect(done_url)


def when(moment) -> str:
    return timezone.localtime(moment).strftime("%d/%m/%Y %H:%M") if moment else "—"


def claim_link(claim) -> str:
    return format_html('<a href="{}" class="nowrap">{}</a>',
                       reverse("admin:claims_claim_change", args=[claim.pk]), claim.number)


def explained(evaluation) -> list[str]:
    return [engine.explain(item) for item in evaluation.fired]


def share_words(fraction: float) -> str:
    """0.4567 -> "45,7%"."""
    return f"{fraction * 100:.1f}".replace(".", ",").replace(",0", "") + "%"
