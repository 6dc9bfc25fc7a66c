"""Shared by the real-browser tests: Debian's Chromium driven by Playwright (never a
Playwright browser download). CI (.ci/run exports CI=true) must run these tests: there a
missing browser fails them; elsewhere they are skipped."""

import os
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
TIMEOUT_MS = 10_000

BROWSER_REQUIRED = os.environ.get("CI", "").lower() == "true"
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists() and not BROWSER_REQUIRED,
    reason=f"needs Debian's Chromium at {CHROMIUM} (apt-get install chromium; .ci/run "
           "installs it)",
)


def require_chromium() -> None:
    if not CHROMIUM.exists():
        pytest.fail(f"CI=true but {CHROMIUM} is missing: .ci/run installs Debian's chromium "
                    "(never a Playwright browser download)")


def launch(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                      args=CHROMIUM_ARGS)


@contextmanager
def screenshot_on_failure(page, tmp_path):
    """Save what the page showed when a step failed, and say where."""
    try:
        yield
    except Exception:
        page.screenshot(path=tmp_path / "failure.png", full_page=True)
        print(f"screenshot of the failure: {tmp_path / 'failure.png'}")
        raise
