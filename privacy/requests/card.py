"""The privacy team's card on the admin's home page: people's requests open, and those
past their term (LGPD art. 19, II). Shown to the privacy role only."""

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from privacy.models import DataRequest
from workbench.admin.panels import Card, register_card

ANSWER = "privacy.answer_request"


def can_answer(user) -> bool:
    return user.is_active and user.is_staff and user.has_perm(ANSWER)


def dashboard_card(request) -> dict | None:
    if not can_answer(request.user):
        return None
    today = timezone.localdate()
    open_requests = DataRequest.objects.filter(status=DataRequest.Status.OPEN)
    counts = {"open": open_requests.count(),
              "overdue": open_requests.filter(due_on__lt=today).count()}
    listing = reverse("admin:privacy_datarequest_changelist")
    return {**counts, "days": settings.DATA_REQUEST_DAYS, "list_url": f"{listing}?status=aberta",
            "overdue_url": f"{listing}?situacao=atrasada",
            "add_url": reverse("admin:privacy_datarequest_add")}


CARD = Card(template="admin/privacy/requests_card.html", context=dashboard_card)


def install() -> None:
    register_card(CARD)
