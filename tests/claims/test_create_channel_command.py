"""`manage.py create_channel`: the operator's way to onboard a partner channel."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from oauth2_provider.models import Application
from rest_framework.test import APIClient

from claims.models import Channel

pytestmark = pytest.mark.django_db


def run(*args):
    out, err = StringIO(), StringIO()
    call_command("create_channel", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def printed_values(output: str) -> dict:
    """``key: value`` lines of the human-readable output."""
    values = {}
    for line in output.splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            values[key.strip()] = value.strip()
    return values


def request_token(client_id: str, client_secret: str):
    return APIClient().post(
        "/oauth/token",
        {
            "client_id": client_id,
            "client_secret": client_secret,
            "grant_type": "client_credentials",
        },
        format="json",
    )


def test_it_prints_the_channel_client_id_and_client_secret():
    out, err = run("Banco Exemplo")

    printed = printed_values(out)
    channel = Channel.objects.select_related("application").get()
    assert printed["channel"] == "banco-exemplo" == channel.slug
    assert channel.name == "Banco Exemplo"
    assert printed["client_id"] == channel.application.client_id
    assert len(printed["client_secret"]) >= 20
    # The secret is shown once: the operator is told to keep it.
    assert "client_secret" in err


def test_json_output_is_exactly_one_object_with_the_credentials():
    out, _ = run("Banco Exemplo", "--json")

    credentials = json.loads(out)  # fails if there is anything but one JSON document
    assert isinstance(credentials, dict)
    assert set(credentials) == {"channel", "client_id", "client_secret"}
    channel = Channel.objects.select_related("application").get()
    assert credentials["channel"] == channel.slug == "banco-exemplo"
    assert credentials["client_id"] == channel.application.client_id


def test_the_explicit_slug_option_names_the_channel():
    out, _ = run("Banco Exemplo", "--slug", "bex", "--json")

    assert json.loads(out)["channel"] == "bex"
    assert Channel.objects.get().slug == "bex"


def test_the_printed_secret_obtains_a_token_but_is_stored_hashed():
    credentials = json.loads(run("Banco Exemplo", "--json")[0])

    response = request_token(credentials["client_id"], credentials["client_secret"])

    assert response.status_code == 200, response.content
    assert response.json()["access_token"]
    stored = Application.objects.get(client_id=credentials["client_id"]).client_secret
    assert stored != credentials["client_secret"]
    assert credentials["client_secret"] not in stored


def test_a_wrong_secret_does_not_obtain_a_token():
    credentials = json.loads(run("Banco Exemplo", "--json")[0])

    response = request_token(credentials["client_id"], credentials["client_secret"] + "x")

    assert response.status_code == 401


def test_creating_the_same_slug_twice_fails_and_creates_nothing_more():
    run("Banco Exemplo")

    with pytest.raises(CommandError, match="banco-exemplo"):
        run("Banco  exemplo!")  # different name, same slug

    assert Channel.objects.count() == 1
    assert Application.objects.count() == 1


@pytest.mark.parametrize("name", ["", "   ", "!!! ???"])
def test_a_name_without_letters_or_digits_fails(name):
    with pytest.raises(CommandError):
        run(name)

    assert not Channel.objects.exists()
    assert not Application.objects.exists()


def test_a_name_too_long_for_the_slug_column_fails_cleanly_or_gets_a_slug_that_fits():
    try:
        out, _ = run("Banco " + "x" * 60, "--json")
    except CommandError:
        assert not Channel.objects.exists()
    else:
        slug = json.loads(out)["channel"]
        assert len(slug) <= Channel._meta.get_field("slug").max_length


def test_a_slug_option_that_is_not_a_slug_fails():
    with pytest.raises(CommandError):
        run("Banco Exemplo", "--slug", "Banco X/1")

    assert not Channel.objects.exists()


def test_sandbox_makes_a_test_channel_with_its_own_free_sales():
    out, _ = run("Parceiro em Testes", "--sandbox", "--json")
    credentials = json.loads(out)

    channel = Channel.objects.get(slug=credentials["channel"])
    assert channel.is_sandbox and credentials["sandbox"] is True
    assert sorted(credentials["vendas"]) == sorted(
        str(pk) for pk in channel.sales.values_list("pk", flat=True))
    assert len(credentials["vendas"]) == 10
    sale = channel.sales.prefetch_related("coverages").first()
    assert sale.status == "ativa" and not sale.claims.exists()
    assert {c.name for c in sale.coverages.all()} == {
        "cobertura/morte", "cobertura/invalidez-permanente", "cobertura/perda-de-renda"}
    assert request_token(credentials["client_id"], credentials["client_secret"]).status_code == 200


def test_a_channel_is_a_production_channel_unless_asked(settings):
    out, _ = run("Banco Real")
    assert not Channel.objects.get(slug="banco-real").is_sandbox
    assert not Channel.objects.get(slug="banco-real").sales.exists()
    assert "sandbox" not in out
