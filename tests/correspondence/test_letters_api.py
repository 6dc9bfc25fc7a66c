"""The channel lists a claim's letters and downloads each PDF through a signed link; with
"o canal comunica o segurado" on, nothing is e-mailed and the letters wait there."""

import io
from urllib.parse import urlparse

import pytest
from django.test import Client
from pypdf import PdfReader

from correspondence import sending
from correspondence.models import ChannelLetters, Message
from tests.support.lifecycle import open_claim

pytestmark = pytest.mark.django_db


def test_with_the_channel_telling_the_insured_nothing_is_emailed_and_the_api_lists_the_letters(
        api, sale, channel, smtp):
    ChannelLetters.objects.create(channel=channel, channel_tells_insured=True)
    claim = open_claim(api, sale)

    message = Message.objects.get(claim=claim)
    assert message.status == "com-o-canal"
    assert sending.send(message.pk) == "not-taken"
    assert sending.due_messages() == []
    assert smtp.received == []

    response = api.get(f"/api/v1/sinistros/{claim.number}/cartas")

    assert response.status_code == 200
    [letter] = response.json()["cartas"]
    assert letter["carta"] == "aviso-recebido"
    assert letter["titulo"] == "Aviso recebido"
    assert letter["status"] == "com-o-canal"
    assert letter["destinatario"] == {"nome": "Pedro da Silva", "email": "pedro@example.com",
                                      "papel": "contato"}
    assert claim.number in letter["assunto"] and claim.number in letter["texto"]
    assert "%%" not in letter["texto"]
    assert letter["url-pdf-expira-em"].endswith("Z")

    pdf = Client().get(urlparse(letter["url-pdf"]).path)
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert f'filename="aviso-recebido-{claim.number}.pdf"' in pdf["Content-Disposition"]
    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert claim.number in text


def test_another_channels_claim_has_no_letters_to_show(api, other_api, sale):
    claim = open_claim(api, sale)

    response = other_api.get(f"/api/v1/sinistros/{claim.number}/cartas")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"


def test_a_tampered_or_unknown_download_link_is_refused(api, sale):
    claim = open_claim(api, sale)
    url = api.get(f"/api/v1/sinistros/{claim.number}/cartas").json()["cartas"][0]["url-pdf"]
    path = urlparse(url).path

    response = Client().get(path[:-2] + ("AA" if not path.endswith("AA") else "BB"))

    assert response.status_code in (403, 404, 410)
    assert response["Content-Type"] == "application/problem+json"


def test_the_list_is_empty_for_a_claim_with_no_letters(api, sale):
    claim = open_claim(api, sale)
    Message.objects.filter(claim=claim).delete()

    response = api.get(f"/api/v1/sinistros/{claim.number}/cartas")

    assert response.json() == {"cartas": []}
