"""Who opened a claim and through which channel, as the analyst reads it; the channels
the list offers to filter by."""

import re

import pytest

from claims.models import Claim
from claims.services import create_channel
from tests.support.factories import ClaimFactory
from tests.support.hosted import NEW, generate_link, open_session, opening, post_form

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_a_claim_opened_on_the_hosted_pages_names_the_requester_and_the_channel(
        api, sale, analyst):
    person = open_session(generate_link(api, sale, **{"id-usuario": "cliente-77"})["url"])
    post_form(person, f"{NEW}?cobertura=cobertura/morte",
              opening(requester_name="Francisca Martins"))
    claim = Claim.objects.get()

    page = _text(analyst.get(f"/admin/claims/claim/{claim.pk}/change/"))

    assert ("Sinistro aberto por Francisca Martins (página do segurado) · Banco Exemplo"
            in page)
    assert "cliente-77" not in page


def test_the_channel_filter_leaves_the_sandbox_channel_out(channel, analyst):
    sandbox, _ = create_channel(name="Parceiro em testes", slug="parceiro-testes",
                                sandbox=True)
    ClaimFactory(sale__channel=channel)

    page = analyst.get("/admin/claims/claim/?fila=todos").content.decode()

    assert "Por canal" in page
    assert f"channel__id__exact={channel.pk}" in page and "Banco Exemplo" in page
    assert "Parceiro em testes" not in page
    assert f"channel__id__exact={sandbox.pk}" not in page
