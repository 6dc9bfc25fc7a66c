"""The sizes the house keeps (docs/layout.md): no module of an app over 400 lines (a
growing one is split by concern into a package) and no app over 35 % of the apps' lines
(no app becomes the place everything goes). The tests mirror the apps (tests/claims/
...) and the benchmarks are tools: neither is an app, so neither is counted here.
Migrations are generated history: counted in their app's share, never split."""

from pathlib import Path

from tests.test_import_graph import PACKAGES

ROOT = Path(__file__).resolve().parents[1]
MODULE_LINES = 400
APP_SHARE = 0.35


def lines_of(path: Path) -> int:
    with path.open("rb") as file:
        return sum(1 for _ in file)


def modules_of(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_no_module_of_an_app_is_over_400_lines():
    too_long = {str(path.relative_to(ROOT)): lines_of(path)
                for package in PACKAGES for path in modules_of(package)
                if "migrations" not in path.parts and lines_of(path) > MODULE_LINES}

    assert too_long == {}


def test_no_app_holds_over_35_percent_of_the_apps_lines():
    lines = {package: sum(lines_of(path) for path in modules_of(package))
             for package in PACKAGES}
    total = sum(lines.values())

    assert {package: round(n / total, 3) for package, n in lines.items()
            if n / total > APP_SHARE} == {}
    assert total > 30_000  # the whole house was counted, not a folder of it
