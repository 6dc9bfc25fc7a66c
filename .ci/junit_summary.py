"""Sum pytest's JUnit reports into the closing lines of a CI run.

One line per phase, then a total as pytest's own closing line
("===== N passed, N skipped in S.SSs ====="), so whoever (or whatever) reads the end of
the log sees what ran without scrolling back past the schemathesis and deploy-check
output, whose own closing line counts no tests.
"""
import sys
import xml.etree.ElementTree as ET


def counts(path: str) -> dict[str, int]:
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}
    for suite in suites:
        for key in total:
            total[key] += type(total[key])(suite.get(key, 0))
    return total


def line(c: dict[str, int]) -> str:
    passed = c["tests"] - c["failures"] - c["errors"] - c["skipped"]
    return f"{passed} passed, {c['failures'] + c['errors']} failed, {c['skipped']} skipped"


def pytest_closing_line(c: dict) -> str:
    passed = c["tests"] - c["failures"] - c["errors"] - c["skipped"]
    parts = [f"{c['failures']} failed"] if c["failures"] else []
    parts.append(f"{passed} passed")
    if c["skipped"]:
        parts.append(f"{c['skipped']} skipped")
    if c["errors"]:
        parts.append(f"{c['errors']} errors")
    return f" {', '.join(parts)} in {c['time']:.2f}s ".center(88, "=")


def main(paths: list[str]) -> int:
    grand = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}
    for path in paths:
        c = counts(path)
        print(f"{path.rsplit('/', 1)[-1]}: {line(c)}")
        for key in grand:
            grand[key] += c[key]
    print(f"total: {line(grand)}")
    print(pytest_closing_line(grand))
    return 1 if grand["failures"] or grand["errors"] or grand["tests"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
