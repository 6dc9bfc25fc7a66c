# Subscriptions resolve their destination: the webhooks tests' fake DNS, and no broker.
from tests.webhooks.conftest import delivery_requests, fake_dns  # noqa: F401
