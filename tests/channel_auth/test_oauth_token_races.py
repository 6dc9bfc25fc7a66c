"""Token requests racing each other, on PostgreSQL and the shared cache: a limit is
never passed, because each request reserves its slot before the secret is checked."""

import pytest
from oauth2_provider.models import AccessToken

from tests.support.api import post_token_json, token_credentials
from tests.support.concurrency import postgres_only, run_together
from tests.support.factories import make_channel

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def test_sixty_concurrent_correct_requests_of_a_new_client_get_exactly_the_limit(settings):
    settings.TOKEN_RATE_LIMIT = 20
    # Each request in flight holds a failure slot until its secret checks out: room for
    # all sixty at once, so this measures the issuance limit alone.
    settings.TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS = settings.TOKEN_FAILURE_LIMIT_PER_ADDRESS = 100
    channel = make_channel()

    answers = run_together([lambda: post_token_json(token_credentials(channel))] * 60)

    codes = sorted(a.status_code for a in answers)
    assert codes == [200] * 20 + [429] * 40
    assert AccessToken.objects.filter(application_id=channel.application_id).count() == 20


def test_concurrent_wrong_secrets_are_checked_exactly_the_limit_times(settings):
    settings.TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS = 30
    # A request in flight also holds an issuance slot until its secret fails: room for
    # all of them, so this measures the failure limit alone.
    settings.TOKEN_FAILURE_LIMIT_PER_ADDRESS = settings.TOKEN_RATE_LIMIT = 1000
    channel = make_channel()

    answers = run_together([lambda: post_token_json(token_credentials(channel, "wrong"))] * 120)

    codes = sorted(a.status_code for a in answers)
    assert codes == [401] * 30 + [429] * 90
