import json

import pytest
from django.test import Client

from tests.api_common.openapi.schema_reading import SCHEMA_URL


@pytest.fixture(scope="package")
def schema() -> dict:
    """Fetched once, without a token: generating it is the slow part."""
    response = Client().get(SCHEMA_URL, {"format": "json"})
    assert response.status_code == 200, response.content[:500]
    return json.loads(response.content)
