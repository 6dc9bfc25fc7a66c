# Subscriptions resolve their destination: the fake resolver, and no broker.
from tests.support.webhook_isolation import delivery_requests, fake_dns  # noqa: F401
