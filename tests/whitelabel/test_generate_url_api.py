"""POST /api/v1/sinistros/whitelabel/gerar-url (endpoint 5 of the contract)."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.utils import timezone

from claims.models import Sale
from tests.support.factories import SaleFactory
from tests.support.hosted import PAYMENT_DETAILS, generate_link, path_of
from whitelabel.models import AccessLink, HostedPages, token_digest

URL = "/api/v1/sinistros/whitelabel/gerar-url"


def test_answers_a_one_time_url_on_the_hosted_pages_address_and_its_expiry(api, sale, settings):
    settings.WHITELABEL_BASE_URL = "https://sinistros.seguradora.example"
    before = timezone.now()

    body = generate_link(api, sale)

    assert set(body) == {"url", "expira-em"}
    assert re.fullmatch(r"https://sinistros\.seguradora\.example/segurado/acesso/[\w-]{43}",
                        body["url"])
    expires = dt.datetime.fromisoformat(body["expira-em"].replace("Z", "+00:00"))
    assert body["expira-em"].endswith("Z")
    assert before + dt.timedelta(hours=24) <= expires <= timezone.now() + dt.timedelta(hours=24)


def test_the_token_is_random_and_stored_only_as_a_digest(api, sale):
    first = path_of(generate_link(api, sale)["url"]).rsplit("/", 1)[1]
    second = path_of(generate_link(api, sale)["url"]).rsplit("/", 1)[1]

    assert first != second
    assert len(first) >= 43  # 32 random bytes, base64url: 256 bits
    stored = AccessLink.objects.get(token_digest=token_digest(first))
    assert first not in str(AccessLink.objects.filter(pk=stored.pk).values().first())


def test_keeps_id_usuario_and_the_validated_payment_details(api, sale):
    generate_link(api, sale, **{"id-usuario": "cliente-889", "detalhes-pagamento": PAYMENT_DETAILS})

    link = AccessLink.objects.get()
    assert link.user_reference == "cliente-889"
    assert link.payment_details == {
        "beneficiary": {"kind": "segurado", "name": "Maria da Silva", "tax_id": "52998224725"},
        "payment_method": {"method": "pix", "pix": {"key": "maria@example.com"}},
    }


def test_a_beneficiary_with_a_birth_date_a_share_and_an_address_is_kept(api, sale):
    heir = {"tipo": "outro", "nome": "Maria da Silva", "cpf-ou-cnpj": "52998224725",
            "data-nascimento": "1961-03-14", "participacao": 62.5, "parentesco": "conjuge",
            "endereco": {"cep": "01310-100", "uf": "SP"}}

    generate_link(api, sale, **{"detalhes-pagamento": {**PAYMENT_DETAILS, "beneficiario": heir}})

    link = AccessLink.objects.get()
    # Stored as JSON holds it: the ISO date and the share's exact text.
    assert link.payment_details["beneficiary"]["birth_date"] == "1961-03-14"
    assert link.payment_details["beneficiary"]["share"] == "62.50"
    # Read back with the types the claims services take.
    assert link.offered_payment_details()["beneficiary"] == {
        "kind": "outro", "name": "Maria da Silva", "tax_id": "52998224725",
        "birth_date": dt.date(1961, 3, 14), "share": Decimal("62.50"),
        "relationship": "conjuge", "address": {"postal_code": "01310100", "state": "SP"},
    }


def test_the_lifetime_is_the_channels_own_when_configured(api, sale, channel):
    HostedPages.objects.create(channel=channel, link_lifetime_hours=2)

    body = generate_link(api, sale)

    expires = dt.datetime.fromisoformat(body["expira-em"].replace("Z", "+00:00"))
    assert expires - timezone.now() < dt.timedelta(hours=2, seconds=5)
    assert expires - timezone.now() > dt.timedelta(hours=1, minutes=59)


def test_another_channels_sale_or_an_unknown_one_is_404(api, other_api, sale):
    for client, sale_id in ((other_api, sale.pk), (api, "6f1c1b52-8f43-4c51-9e0e-2a4f5d1f0c11")):
        response = client.post(URL, {"id-venda": str(sale_id)}, format="json")
        assert response.status_code == 404
        assert response["Content-Type"] == "application/problem+json"
        assert response.json()["problem-id"] == "sale-not-found"
    assert not AccessLink.objects.exists()


def test_a_cancelled_sale_is_422_sale_not_active(api, channel):
    sale = SaleFactory(channel=channel, status=Sale.Status.CANCELLED)

    response = api.post(URL, {"id-venda": str(sale.pk)}, format="json")

    assert response.status_code == 422
    assert response.json()["problem-id"] == "sale-not-active"


@pytest.mark.parametrize("body, field", [
    ({"id-venda": ""}, "id-venda"),
    ({"id-venda": "not-a-uuid"}, "id-venda"),
    ({"id-usuario": "a\x00b"}, "id-usuario"),
    ({"id-usuario": "x" * 201}, "id-usuario"),
    ({"detalhes-pagamento": {**PAYMENT_DETAILS, "beneficiario": {**PAYMENT_DETAILS["beneficiario"],
                                                          "cpf-ou-cnpj": "12345678900"}}},
     "detalhes-pagamento.beneficiario.cpf-ou-cnpj"),
    ({"detalhes-pagamento": {**PAYMENT_DETAILS, "dados-pagamento": {"metodo-pagamento": "ted"}}},
     "detalhes-pagamento.dados-pagamento.ted"),
])


def test_bad_input_is_400_naming_the_field(api, sale, body, field):
    response = api.post(URL, {"id-venda": str(sale.pk), **body}, format="json")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert field in [error["campo"] for error in response.json()["campos-invalidos"]]
    assert not AccessLink.objects.exists()


def test_needs_a_channel_token(client, sale):
    response = client.post(URL, {"id-venda": str(sale.pk)}, content_type="application/json")

    assert response.status_code == 401


def test_id_venda_is_required(api):
    response = api.post(URL, {}, format="json")

    assert response.status_code == 400
    assert [e["campo"] for e in response.json()["campos-invalidos"]] == ["id-venda"]
