"""The chart of accounts and the accounting rules shipped as data
(ledger/data/chart_of_accounts.json), loaded by migration 0004 and editable by finance in
the admin afterwards. docs/ledger-entries.md says where the codes come from."""

import json
from pathlib import Path

CHART_FILE = Path(__file__).resolve().parent.parent / "data" / "chart_of_accounts.json"


def read_chart(path: Path = CHART_FILE) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def load_chart(Account, AccountRule, path: Path = CHART_FILE) -> tuple[int, int]:
    """Create the shipped accounts and rules that are missing (the models are passed in,
    as a migration's historical ones). An account or rule already there is left as it
    is: loading again never undoes what finance edited. Returns how many were created."""
    chart = read_chart(path)
    accounts, created_accounts = {}, 0
    for item in chart["accounts"]:
        account, created = Account.objects.get_or_create(code=item["code"],
                                                         defaults={"name": item["name"]})
        accounts[account.code] = account
        created_accounts += created
    created_rules = 0
    for item in chart["rules"]:
        _, created = AccountRule.objects.get_or_create(
            kind=item["kind"], component=item["component"], figure=item["figure"],
            group_branch=item["group_branch"],
            defaults={"debit": accounts[item["debit"]], "credit": accounts[item["credit"]],
                      "history": item["history"]})
        created_rules += created
    return created_accounts, created_rules
