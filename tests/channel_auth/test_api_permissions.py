from claims.models import Channel


def test_a_channel_without_the_claims_api_enabled_is_forbidden(api, sale):
    Channel.objects.filter(pk=api.channel.pk).update(claims_api_enabled=False)

    response = api.get(f"/api/v1/vendas/{sale.id}")

    assert response.status_code == 403
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "forbidden"
    assert "não está habilitada" in response.json()["detail"]


def test_the_same_channel_is_served_once_the_api_is_enabled_again(api, sale):
    Channel.objects.filter(pk=api.channel.pk).update(claims_api_enabled=False)
    Channel.objects.filter(pk=api.channel.pk).update(claims_api_enabled=True)

    assert api.get(f"/api/v1/vendas/{sale.id}").status_code == 200
