"""The rule sets the product ships, as data (docs/decisions.md): installed by
``manage.py load_default_rules``."""

import json
from pathlib import Path

FOLDER = Path(__file__).resolve().parent


def default_rule_sets() -> list[dict]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(FOLDER.glob("*.json"))]
