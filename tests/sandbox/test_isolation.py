"""The sandbox is the partner's alone: a production channel cannot tell it exists (the 404
of an unknown address), and nothing of a sandbox claim reaches the insurer's people (the
queues, the claim list and its search, the export, the dashboard, tasks, e-mails, red
flags) or the registradora."""

import io
import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from claims import roles
from workbench import dashboard
from claims.models import Channel, Claim
from workbench.models import AssignmentRule, Team, TeamMember, ToDo
from correspondence.models import Message
from sro.models import Registration
from tests.support.api import client_for, opening_body
from tests.support.lifecycle import logged_in, staff

pytestmark = pytest.mark.django_db
SIMULATE = "/api/v1/sandbox/sinistros/{}/simular"


def sandbox_api():
    out = io.StringIO()
    call_command("create_channel", "Parceiro em Testes", "--sandbox", "--json", stdout=out)
    credentials = json.loads(out.getvalue())
    channel = Channel.objects.get(slug=credentials["channel"])
    channel.plain_secret = credentials["client_secret"]
    return client_for(channel), credentials["vendas"]


def comparable(response) -> tuple:
    """Status, headers and body of an answer, but for what differs on every answer (the
    occurrence's id in ``instance``, the request id and the date)."""
    body = re.sub(rb"/[0-9a-f-]{36}\"", b'/<occurrence>"', response.content)
    headers = {name: value for name, value in response.headers.items() if name not in ("Date", "X-Request-ID")}
    return response.status_code, headers, body


@pytest.mark.parametrize("debug", [False, True], ids=["production", "make-run"])
def test_a_production_channel_calling_the_sandbox_gets_the_404_of_an_unknown_address(
        api, sale, settings, debug):
    settings.DEBUG = debug
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", opening_body(),
                      format="json").json()["numero-sinistro"]

    sandbox = api.post(SIMULATE.format(number), {"acao": "aprovar-documentacao"}, format="json")
    unknown = api.post("/api/v1/nao-existe/sinistros/x/simular", {"acao": "aprovar-documentacao"},
                       format="json")
    assert sandbox.status_code == 404
    assert comparable(sandbox) == comparable(unknown)
    # Nothing moved: the claim is as it was opened.
    assert Claim.objects.get(number=number).status == "criado"
    # Any method, any number: the same.
    assert comparable(api.get(SIMULATE.format("SIN-X"))) == comparable(api.get("/api/v1/nada"))


def test_without_a_valid_token_the_sandbox_answers_the_apis_401():
    response = Client().post(SIMULATE.format("SIN-X"), {}, content_type="application/json")
    assert response.status_code == 401
    bad = Client().post(SIMULATE.format("SIN-X"), {}, content_type="application/json",
                        HTTP_AUTHORIZATION="Bearer nope")
    assert bad.status_code == 401


def test_a_sandbox_channel_moves_only_its_own_claims(api, sale):
    sandbox, _ = sandbox_api()
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", opening_body(),
                      format="json").json()["numero-sinistro"]

    response = sandbox.post(SIMULATE.format(number), {"acao": "aprovar-documentacao"}, format="json")
    assert response.status_code == 404
    assert response.json()["problem-id"] == "claim-not-found"
    assert Claim.objects.get(number=number).status == "criado"


@pytest.fixture
def team_supervisor(db):
    """A supervisor of the team every new claim is routed to."""
    user = staff("sonia", roles.SUPERVISOR)
    team = Team.objects.create(name="Vida")
    TeamMember.objects.create(team=team, user=user, role=TeamMember.Role.SUPERVISOR)
    analyst = staff("andre", roles.ANALYST)
    TeamMember.objects.create(team=team, user=analyst, role=TeamMember.Role.ANALYST)
    AssignmentRule.objects.create(team=team)
    return user


def test_nothing_of_a_sandbox_claim_reaches_the_insurers_people_or_the_registradora(
        api, sale, team_supervisor, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    real = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", opening_body(),
                    format="json").json()["numero-sinistro"]
    sandbox, sales = sandbox_api()
    number = sandbox.post(f"/api/v1/vendas/{sales[0]}/abrir-sinistro", opening_body(),
                          format="json").json()["numero-sinistro"]
    sandbox.post(SIMULATE.format(number), {"acao": "solicitar-documentos"}, format="json")
    denied = sandbox.post(SIMULATE.format(number), {"acao": "recusar", "codigo": 7},
                          format="json")
    assert denied.json()["status"] == "recusado", denied.content
    asked = sandbox.post(f"/api/v1/sinistros/{number}/reconsideracao", {"motivo": "Reveja."},
                         format="json")
    assert asked.status_code == 201, asked.content
    claim = Claim.objects.get(number=number)

    # Nobody's work: no team, no owner, no task (not even the reconsideration's).
    assert (claim.is_sandbox, claim.team_id, claim.owner_id) == (True, None, None)
    assert not ToDo.objects.filter(claim=claim).exists()
    # Letters are written (the channel reads them), never e-mailed.
    letters = Message.objects.filter(claim=claim)
    assert letters.exists()
    assert set(letters.values_list("status", flat=True)) == {Message.Status.WITH_CHANNEL}
    # The registradora hears of the real claim only.
    assert list(Registration.objects.values_list("claim__number", flat=True)) == [real]

    supervisor = logged_in(team_supervisor)
    for params in ({"fila": "todos"}, {"fila": "equipe"}, {"fila": "sem-responsavel"},
                   {"fila": "meus"}, {}, {"responsavel": "nenhum"}):
        page = supervisor.get("/admin/claims/claim/", params).content.decode()
        assert number not in page, params
    assert real in supervisor.get("/admin/claims/claim/", {"fila": "todos"}).content.decode()
    # The page repeats what was searched: no row links to the claim.
    searched = supervisor.get("/admin/claims/claim/", {"fila": "todos", "q": number})
    assert searched.status_code == 200 and str(claim.pk) not in searched.content.decode()
    export = supervisor.get("/admin/claims/claim/exportar/", {"fila": "todos"})
    assert export.status_code == 200
    exported = b"".join(export.streaming_content) if export.streaming else export.content
    assert real.encode() in exported and number.encode() not in exported
    assert supervisor.get(f"/admin/claims/claim/{claim.pk}/change/").status_code in (302, 404)
    assert number not in supervisor.get("/admin/correspondence/message/").content.decode()
    events = supervisor.get("/admin/claims/event/").content.decode()
    assert real in events and number not in events
    assert f"/admin/claims/sale/{sale.id}/change/" in supervisor.get(
        "/admin/claims/sale/").content.decode()
    sale_page = f"/admin/claims/sale/{sales[0]}/change/"
    assert sale_page not in supervisor.get("/admin/claims/sale/", {"q": sales[0]}).content.decode()
    board = dashboard.build(User.objects.get(username="sonia"))
    assert sum(n for _, n in board.weekly) == 1  # the real claim alone


def test_a_sandbox_claim_raises_no_red_flag_on_a_real_one(api, sale):
    """The same payee on both sides would be "destino-compartilhado" between two real
    claims; between a sandbox and a real one it is nothing."""
    heir = {"beneficiario": {"tipo": "outro", "nome": "Maria", "cpf-ou-cnpj": "52998224725",
                             "participacao": 100},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "x@example.com"}}}
    real = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro",
                    opening_body(**{"detalhes-pagamento": heir}), format="json")
    assert real.status_code == 200, real.content
    sandbox, sales = sandbox_api()
    other = {**heir, "beneficiario": {**heir["beneficiario"], "cpf-ou-cnpj": "11144477735"}}
    for sale_id in sales[:2]:
        sandbox.post(f"/api/v1/vendas/{sale_id}/abrir-sinistro",
                     opening_body(**{"detalhes-pagamento": other}), format="json")

    assert Claim.objects.get(number=real.json()["numero-sinistro"]).alerts == []
