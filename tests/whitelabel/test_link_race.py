"""Browsers racing for one link on PostgreSQL with real transactions: one session."""

import pytest
from django.test import Client

from tests.support.concurrency import postgres_only, run_together
from tests.support.api import client_for
from tests.support.factories import CoverageFactory, SaleFactory, make_channel
from tests.support.hosted import SESSION_COOKIE, generate_link, path_of
from whitelabel.models import AccessLink

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def test_eight_browsers_opening_one_link_at_once_get_exactly_one_session(settings):
    settings.WHITELABEL_EXCHANGE_RATE_LIMIT = 100  # every browser here shares one address
    channel = make_channel()
    sale = SaleFactory(channel=channel)
    CoverageFactory(sale=sale)
    api = client_for(channel)

    for _round in range(4):  # several rounds: a lost race shows up only now and then
        path = path_of(generate_link(api, sale)["url"])

        answers = run_together([lambda p=path: Client().post(p) for _ in range(8)])

        assert sorted(a.status_code for a in answers) == [303] + [403] * 7
        [winner] = [a for a in answers if a.status_code == 303]
        link = AccessLink.objects.latest("created_at")
        assert link.exchanged_at is not None and link.session_digest
        assert winner.cookies[SESSION_COOKIE].value
