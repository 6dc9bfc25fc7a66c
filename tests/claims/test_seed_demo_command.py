"""`manage.py seed_demo`: demo data for a local run (known credentials, so DEBUG only)."""

import datetime as dt
from decimal import Decimal
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command

from localdev.demo import decisions as rules_demo
from localdev.demo import privacy as privacy_demo
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import Application
from rest_framework.test import APIClient

from claims.models import (Beneficiary, Channel, Claim, ClaimHistory, Coverage,
                           DocumentRequirement, Event, MoveConsequence, Payment, Sale)
from correspondence.models import Message
from ledger.models import Movement
from payouts.models import BankReturn, PaymentOrder, Remittance
from sro.models import Submission

from workbench.models import Proposal, ToDo

pytestmark = pytest.mark.django_db

SALE_MARIA = "3f6c1a52-8d1e-4b7a-9c55-0a1b2c3d4e01"
SALE_ANA_CANCELLED = "3f6c1a52-8d1e-4b7a-9c55-0a1b2c3d4e03"


@pytest.fixture
def debug(settings):
    settings.DEBUG = True


def seed(*args):
    """The command; without its workload of claims unless a test asks for one."""
    if not any(arg.startswith("--sinistros") for arg in args):
        args = (*args, "--sinistros=0")
    out = StringIO()
    call_command("seed_demo", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def demo_token_response():
    return APIClient().post(
        "/oauth/token",
        {
            "client_id": "demo-client",
            "client_secret": "demo-secret",
            "grant_type": "client_credentials",
        },
        format="json",
    )


def demo_api() -> APIClient:
    response = demo_token_response()
    assert response.status_code == 200, response.content
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {response.json()['access_token']}")
    return client


def counts() -> dict:
    return {
        "channels": Channel.objects.count(),
        "applications": Application.objects.count(),
        "sales": Sale.objects.count(),
        "coverages": Coverage.objects.count(),
        "active coverages": Coverage.objects.filter(is_active=True).count(),
        "requirements": DocumentRequirement.objects.count(),
        "users": User.objects.count(),
        "groups": Group.objects.count(),
    }


def admin_login(client: Client, username: str, password: str):
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": username, "password": password, "next": "/admin/"},
    )


def test_the_demo_credentials_obtain_a_token_and_read_the_demo_sales(debug):
    out = seed()

    assert "demo-client" in out and "demo-secret" in out
    channel = Channel.objects.select_related("application").get(slug="demo")
    assert channel.application.client_id == "demo-client"
    assert channel.application.client_secret != "demo-secret"  # stored hashed
    api = demo_api()
    response = api.get("/api/v1/vendas")
    assert response.status_code == 200, response.content
    listed = {sale["id-venda"]: sale for sale in response.json()["dados"]}
    assert SALE_MARIA in listed
    assert listed[SALE_MARIA]["status"] == "ativa"
    assert listed[SALE_ANA_CANCELLED]["status"] == "cancelada"


def test_the_demo_sales_and_document_requirements_exist(debug):
    seed()

    demo_sales = Sale.objects.filter(channel__slug="demo")
    assert demo_sales.count() >= 2
    assert demo_sales.filter(status=Sale.Status.ACTIVE).exists()
    maria = Sale.objects.get(pk=SALE_MARIA)
    assert set(maria.coverages.filter(is_active=True).values_list("name", flat=True)) >= {
        "cobertura/morte",
        "cobertura/perda-de-renda",
    }
    death_docs = DocumentRequirement.objects.filter(coverage_name="cobertura/morte", is_active=True)
    assert death_docs.exists()
    assert DocumentRequirement.objects.filter(coverage_name="cobertura/perda-de-renda").exists()


def test_the_demo_channel_can_open_a_claim_that_asks_for_documents(debug):
    seed()

    response = demo_api().post(
        f"/api/v1/vendas/{SALE_MARIA}/abrir-sinistro",
        {
            "pessoa-para-contato": {"nome": "Pedro", "email": "pedro@example.com"},
            "solicitante": {"nome": "Pedro"},
            "cobertura": "cobertura/morte",
            "natureza": "morte-natural",
            "data-ocorrencia": "2026-02-01T10:00:00Z",
        },
        format="json",
    )

    assert response.status_code == 200, response.content
    claim = response.json()
    assert claim["status"] == "pendente-de-documentacao"
    assert claim["documentacao"]["documentos-pendentes"]


def test_the_analyst_is_staff_and_can_log_into_the_admin_and_list_claims(debug):
    seed()

    analyst = User.objects.get(username="analista")
    assert analyst.is_staff
    assert analyst.is_active
    assert not analyst.is_superuser
    browser = Client()
    login = admin_login(browser, "analista", "analista-demo")
    assert login.status_code == 302, login.content.decode()[:500]
    assert login.url == "/admin/"
    assert browser.get("/admin/claims/claim/").status_code == 200
    sales_page = browser.get("/admin/claims/sale/")
    assert sales_page.status_code == 200
    assert "Maria da Silva" in sales_page.content.decode()


def test_the_analyst_cannot_log_in_with_a_wrong_password(debug):
    seed()

    browser = Client()
    response = admin_login(browser, "analista", "senha-errada")

    assert response.status_code == 200  # the login form again, with an error
    assert browser.get("/admin/claims/claim/").status_code == 302


def test_running_it_twice_converges_to_the_same_data(debug):
    seed()
    first = counts()

    seed()

    assert counts() == first
    assert demo_token_response().status_code == 200
    assert admin_login(Client(), "analista", "analista-demo").status_code == 302


def test_running_it_again_restores_a_rotated_demo_secret_and_analyst_password(debug):
    seed()
    application = Application.objects.get(client_id="demo-client")
    application.client_secret = "rotated-secret"
    application.save()
    analyst = User.objects.get(username="analista")
    analyst.set_password("outra-senha")
    analyst.save()
    assert demo_token_response().status_code == 401

    seed()

    assert demo_token_response().status_code == 200
    assert Application.objects.get(client_id="demo-client").client_secret != "demo-secret"
    assert admin_login(Client(), "analista", "analista-demo").status_code == 302


def test_without_debug_it_refuses_and_creates_nothing(settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="--allow-production"):
        seed()

    assert not Channel.objects.exists()
    assert not Sale.objects.exists()
    assert not User.objects.filter(username="analista").exists()


def test_without_debug_it_runs_when_production_is_explicitly_allowed(settings):
    settings.DEBUG = False

    seed("--allow-production")

    assert Channel.objects.filter(slug="demo").exists()
    assert demo_token_response().status_code == 200


def test_the_analyst_maintains_document_requirements_but_cannot_add_channels(debug):
    seed()
    client = Client()
    admin_login(client, "analista", "analista-demo")

    assert client.get("/admin/claims/documentrequirement/add/").status_code == 200
    assert client.get("/admin/claims/channel/add/").status_code == 403


def test_the_supervisor_logs_in_and_both_staff_users_have_their_roles(debug):
    seed()

    assert admin_login(Client(), "supervisor", "supervisor-demo").status_code == 302
    assert set(User.objects.get(username="analista").groups.values_list("name", flat=True)) == {
        "Analista de sinistros"}
    supervisor = User.objects.get(username="supervisor")
    assert set(supervisor.groups.values_list("name", flat=True)) == {"Supervisor de sinistros"}
    assert supervisor.has_perm("claims.deny_claim")
    assert not User.objects.get(username="analista").has_perm("claims.deny_claim")


# The product's path for a move's consequences (a job on the broker, which no worker here
# takes): the demo runs them itself, at each step's moment, as ``make run`` does.
@pytest.mark.consequences_after_commit
def test_the_workload_puts_claims_in_every_queue_state_with_owners_tasks_and_proposals(
        debug, local_media):
    started = timezone.now()
    out = seed("--sinistros=60")

    # The workload's claims (the rules' own demo claims are localdev.demo.decisions', the
    # claims of 2020 past their retention clock localdev.demo.privacy's).
    claims = Claim.objects.exclude(sale__product_combo_id__in=[rules_demo.PRODUCT_COMBO,
                                                               privacy_demo.PRODUCT_COMBO])
    assert "60 sinistros de demonstração criados agora" in out
    assert claims.count() == 60
    # The team receives every claim; a few were unassigned since, for "Sem responsável".
    unassigned = claims.filter(owner__isnull=True)
    assert 0 < unassigned.count() < 10
    assert all(claim.history.filter(action="atribuir", note__contains="Redistribuir").exists()
               for claim in unassigned)
    # Payment proposals take the claim's payments above the authority, as only those would.
    assert all(p.claim.paid_amount + Decimal(p.arguments["amount"]) > settings.PAYMENT_AUTHORITY_LIMIT
               for p in Proposal.objects.filter(kind="registrar-pagamento"))
    # A death is reported by someone alive, and paid to heirs whose shares make 100%.
    for claim in claims.filter(coverage__name="cobertura/morte"):
        assert claim.requester_name != claim.sale.insured_name
    heirs = Beneficiary.objects.filter(claim__coverage__name="cobertura/morte")
    assert heirs.exists() and not heirs.filter(kind="segurado").exists()
    assert {"documentos", "analise", "encerrado"} <= set(claims.values_list("awaiting", flat=True))
    assert Proposal.objects.filter(status="pendente").exists()
    assert ToDo.objects.filter(status="aberta").exists()
    # Dated in the past by the services themselves: ages and decisions spread over weeks.
    assert claims.filter(notified_at__lt=timezone.now() - dt.timedelta(days=14)).exists()
    assert claims.filter(days_to_decision__gt=0).exists()
    # Each step passed its moment to the service (``at=``), and what the moves caused,
    # in their transaction or after it (letters, SRO submissions, orders, bank files,
    # ledger movements), carries it: nothing the claims' steps wrote is dated by the day
    # the demo was loaded.
    for model, field in [(Claim, "updated_at"), (ClaimHistory, "created_at"),
                         (Event, "created_at"), (Payment, "created_at"),
                         (MoveConsequence, "done_at"), (Message, "created_at"),
                         (Submission, "created_at"), (Movement, "created_at"),
                         (PaymentOrder, "status_changed_at"), (Remittance, "created_at"),
                         (BankReturn, "received_at")]:
        rows = model.objects.all()
        if model is ClaimHistory:  # the periodic job's to-dos of today, made after the past
            rows = rows.exclude(action__in=["tarefa-criada", "tarefa-escalada"])
        assert rows.exists(), model
        assert not rows.filter(**{f"{field}__gte": started}).exists(), model
    # Once: running it again adds no claims (nor the rules' demo claims).
    everything = Claim.objects.count()
    assert everything > 60
    assert "0 sinistros de demonstração criados agora" in seed("--sinistros=60")
    assert claims.count() == 60 and Claim.objects.count() == everything

    browser = Client()
    admin_login(browser, "analista", "analista-demo")
    dashboard = browser.get("/admin/").content.decode()
    assert "Meus sinistros" in dashboard and "Sinistros abertos por semana" in dashboard


def test_the_newest_demo_sale_has_its_coverages_free_so_a_first_opening_succeeds(db):
    from tests.support.api import bearer_client, post_token_json
    from tests.support.documents import OPEN_BODY

    call_command("seed_demo", "--allow-production", "--sinistros", "6", stdout=StringIO())
    token = post_token_json({"grant_type": "client_credentials", "client_id": "demo-client",
                             "client_secret": "demo-secret"})
    api = bearer_client(token.json()["access_token"])

    first = api.get("/api/v1/vendas").json()["dados"][0]
    response = api.post(f"/api/v1/vendas/{first['id-venda']}/abrir-sinistro", OPEN_BODY,
                        format="json")

    assert response.status_code == 200, response.content
