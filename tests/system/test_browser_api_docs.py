"""The API docs page in a real browser (Chromium driven by Playwright) against a live
server: it runs under the site's Content-Security-Policy with nothing refused, lists the
operations (the token endpoint and the upload URL too), authorizes with the channel's
client credentials through the documented token URL, and calls the API from the page."""

import os

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.support.browser import (
    TIMEOUT_MS,
    csp_refusals,
    launch,
    needs_chromium,
    require_chromium,
    screenshot_on_failure,
)
from tests.support.factories import SaleFactory


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_the_docs_page_authorizes_and_calls_the_api_with_no_csp_refusal(
        live_server, settings, tmp_path, channel):
    require_chromium()
    settings.BASE_URL = settings.AUTH_URL = live_server.url
    sale = SaleFactory(channel=channel)
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(locale="pt-BR")
        page.set_default_timeout(TIMEOUT_MS)
        expect.set_options(timeout=TIMEOUT_MS)
        refusals = csp_refusals(page)
        try:
            with screenshot_on_failure(page, tmp_path):
                response = page.goto(f"{live_server.url}/api/v1/docs/")
                assert "script-src 'self'" in response.headers["content-security-policy"]

                listing = page.locator(".opblock", has_text="/api/v1/vendas").filter(
                    has_text="listar-vendas")
                expect(listing).to_be_visible()
                expect(page.locator(".opblock", has_text="/oauth/token")).to_be_visible()
                expect(page.locator(".opblock", has_text="/uploads/{token}")).to_be_visible()
                assert page.locator(".opblock").count() >= 19

                page.get_by_role("button", name="Authorize").first.click()
                oauth = page.locator(".dialog-ux .auth-container", has_text="clientCredentials")
                oauth.locator("input[id^='client_id']").fill(channel.application.client_id)
                oauth.locator("input[id^='client_secret']").fill(channel.plain_secret)
                oauth.locator("button", has_text="Authorize").click()
                expect(oauth.locator("button", has_text="Logout")).to_be_visible()
                page.locator(".dialog-ux button.btn-done").first.click()

                listing.locator(".opblock-summary").click()
                page.get_by_role("button", name="Try it out").click()
                page.get_by_role("button", name="Execute").click()
                live = page.locator(".live-responses-table tbody .response-col_status").first
                expect(live).to_have_text("200")
                expect(page.locator(".live-responses-table")).to_contain_text(str(sale.id))

                # The events a subscription receives, in their own section, each with
                # its body and example.
                event = page.locator(".opblock", has_text="sinistro-pagamento-concluido")
                event.locator(".opblock-summary").first.click()
                expect(event).to_contain_text("id-transacao-financeira")
                if os.environ.get("SCREENSHOTS_DIR"):
                    event.screenshot(path=f"{os.environ['SCREENSHOTS_DIR']}/api-docs-event.png")
                assert refusals == []
        finally:
            browser.close()
