"""The chart of accounts comes from a data migration (0004); an earlier transactional
test's flush empties it, as it empties the roles' groups: load it again where it is
missing, for every test here that uses the database."""

import pytest

from ledger.accounting.chart import load_chart
from ledger.models import Account, AccountRule


@pytest.fixture(autouse=True)
def chart_of_accounts(request):
    marker = request.node.get_closest_marker("django_db")
    if marker is None and "db" not in request.fixturenames:
        return
    transactional = marker is not None and marker.kwargs.get("transaction", False)
    request.getfixturevalue("transactional_db" if transactional else "db")
    if not AccountRule.objects.exists():
        load_chart(Account, AccountRule)
