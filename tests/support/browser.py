"""Shared by the real-browser tests: Debian's Chromium driven by Playwright (never a
Playwright browser download). CI (.ci/run exports CI=true) must run these tests: there a
missing browser fails them; elsewhere they are skipped."""

import os
import re
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import Group, User
from playwright.sync_api import expect

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


# --- the insured person, on a phone -----------------------------------------------

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True, "locale": "pt-BR"}
SERIOUS = {"serious", "critical"}


def csp_refusals(page) -> list[str]:
    """What the Content-Security-Policy refuses on ``page`` from now on, as the console
    reports it (the list fills as the page runs)."""
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    return refused


class Visit:
    """One person's browser: checks each page for accessibility and CSP refusals, and
    saves screenshots when asked to."""

    def __init__(self, page, shots: Path | None):
        self.page, self.shots = page, shots
        self.csp_refusals = csp_refusals(page)
        self.axe = Axe()

    def check(self, name: str) -> None:
        results = self.axe.run(self.page)
        serious = [f"{v['id']} ({v['impact']}): {v['help']} at "
                   f"{[n['target'] for n in v['nodes']]}"
                   for v in results.response["violations"] if v["impact"] in SERIOUS]
        assert serious == [], f"{name}: {serious}"
        if self.shots:
            self.page.screenshot(path=self.shots / f"segurado-{name}.png", full_page=True)


def generate_hosted_link(base: str, channel, sale) -> str:
    """What the channel does: a token, then gerar-url, over real HTTP."""
    token = requests.post(f"{base}/oauth/token", json={
        "client_id": channel.application.client_id, "client_secret": channel.plain_secret,
        "grant_type": "client_credentials"}, timeout=10).json()["access_token"]
    response = requests.post(f"{base}/api/v1/sinistros/whitelabel/gerar-url",
                             json={"id-venda": str(sale.pk), "id-usuario": "cliente-77"},
                             headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()["url"]


# --- the admin, as a person uses it ------------------------------------------------

PASSWORD = "Senha-Forte-2026!"


def staff_user(username: str, first: str, last: str, role: str) -> User:
    user = User.objects.create_user(username, f"{username}@seguradora.example", PASSWORD,
                                    is_staff=True, first_name=first, last_name=last)
    user.groups.add(Group.objects.get(name=role))
    return user


def log_in(page, base: str, username: str, password: str = PASSWORD) -> None:
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(password)
    page.get_by_role("button", name="Acessar").click()
    # Claims roles land on their dashboard, greeted by name.
    expect(page.get_by_role("heading", name=re.compile(r"^Bom trabalho, "))).to_be_visible()


def log_out(page) -> None:
    page.get_by_role("button", name="Encerrar sessão").click()
    expect(page.get_by_role("heading", name="Sessão encerrada")).to_be_visible()


def status_badge(page):
    return page.locator("h1 .status")


def open_action(page, label: str) -> None:
    """Click the action's button on the claim page: its confirmation form opens."""
    page.locator("nav.claim-actions").get_by_role("link", name=label, exact=True).click()
    expect(page.get_by_role("button", name=f"Confirmar: {label}")).to_be_visible()
