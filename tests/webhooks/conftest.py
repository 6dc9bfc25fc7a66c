# Every webhook test: the fake resolver and no broker (tests/support/webhook_isolation.py).
from tests.support.webhook_isolation import (  # noqa: F401
    delivery_requests,
    fake_dns,
    local_receivers,
)
