"""The letter PDFs anyone with the address can fetch (the channel's signed link, the
hosted pages' copy): limited per client address, and drawn once, then served stored."""

from urllib.parse import urlparse

import pytest
from django.core.files.storage import default_storage
from django.test import Client

from correspondence import downloads
from correspondence.models import Message
from tests.support.hosted import generate_link, open_session
from tests.support.lifecycle import open_claim

pytestmark = pytest.mark.usefixtures("one_rate_window")


@pytest.fixture
def limit(settings):
    settings.LETTER_PDF_RATE_LIMIT = 3
    return 3


@pytest.fixture
def signed_path(api, sale):
    claim = open_claim(api, sale)
    url = api.get(f"/api/v1/sinistros/{claim.number}/cartas").json()["cartas"][0]["url-pdf"]
    return urlparse(url).path


@pytest.fixture
def draws(monkeypatch):
    """Each time a letter's PDF is drawn (not read back from the storage)."""
    drawn = []
    real = downloads.letter_pdf
    monkeypatch.setattr(downloads, "letter_pdf", lambda message, **kwargs: drawn.append(
        message.pk) or real(message, **kwargs))
    return drawn


def test_the_signed_link_is_limited_per_client_address(signed_path, limit):
    one, other = Client(REMOTE_ADDR="203.0.113.7"), Client(REMOTE_ADDR="203.0.113.8")

    answers = [one.get(signed_path).status_code for _ in range(limit)]
    refused = one.get(signed_path)

    assert answers == [200] * limit
    assert refused.status_code == 429
    assert refused["Content-Type"] == "application/problem+json"
    assert refused.json()["problem-id"] == "too-many-requests"
    assert 0 < int(refused["Retry-After"]) <= 60
    assert other.get(signed_path).status_code == 200  # another address counts alone


def test_the_hosted_copy_is_limited_per_client_address(api, sale, limit):
    claim = open_claim(api, sale)
    message = Message.objects.get(claim=claim)
    path = f"/segurado/sinistros/{claim.number}/cartas/{message.pk}.pdf"
    person = open_session(generate_link(api, sale)["url"])
    neighbour = open_session(generate_link(api, sale)["url"])

    answers = [person.get(path, REMOTE_ADDR="198.51.100.1").status_code for _ in range(limit)]
    refused = person.get(path, REMOTE_ADDR="198.51.100.1")

    assert answers == [200] * limit
    assert refused.status_code == 429
    assert refused["Content-Type"].startswith("text/html")
    assert "Muitos downloads seguidos" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert person.get(path, REMOTE_ADDR="198.51.100.2").status_code == 200
    assert neighbour.get(path, REMOTE_ADDR="198.51.100.3").status_code == 200
    # The session outlives the refusal: the person's pages still open.
    assert person.get(f"/segurado/sinistros/{claim.number}",
                      REMOTE_ADDR="198.51.100.1").status_code == 200


def test_a_repeat_is_served_from_the_stored_file_without_drawing_again(signed_path, draws):
    first = Client().get(signed_path)
    second = Client().get(signed_path)

    assert first.status_code == second.status_code == 200
    assert len(draws) == 1
    [message_id] = draws
    name = f"cartas/{message_id}.pdf"
    assert default_storage.exists(name)
    with default_storage.open(name, "rb") as stored:
        assert stored.read() == first.content == second.content


def test_the_stored_file_is_what_is_served(signed_path, draws):
    Client().get(signed_path)
    [message_id] = draws
    with default_storage.open(f"cartas/{message_id}.pdf", "wb") as stored:
        stored.write(b"%PDF-1.4 stored copy")

    assert Client().get(signed_path).content == b"%PDF-1.4 stored copy"
    assert len(draws) == 1
