"""The queues (Meus sinistros, Minha equipe, Sem responsável, any analyst's) in deadline
order, and the dashboard: numbers that link to the same lists, in a fixed number of
queries however many claims there are."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from workbench import dashboard
from claims.models import Claim
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory


def claim_of(owner=None, team=None, **fields):
    sale = SaleFactory()
    return ClaimFactory(sale=sale, coverage=CoverageFactory(sale=sale), owner=owner, team=team,
                        **fields)


def numbers(page: str) -> list[str]:
    import re
    return re.findall(r"SIN-[0-9A-Z]{12}", page)


def test_an_analyst_lands_on_their_own_claims_most_urgent_first(team):
    ana = team.people["ana"]
    now = timezone.now()
    later = claim_of(ana.user, team, status="em-regulacao", clock_kind="decisao",
                     clock_deadline=now + dt.timedelta(days=20))
    overdue = claim_of(ana.user, team, status="em-regulacao", clock_kind="decisao",
                       clock_deadline=now - dt.timedelta(days=2))
    paused_old = claim_of(ana.user, team, status="pendente-de-documentacao", clock_paused=True,
                          notified_at=now - dt.timedelta(days=40))
    paused_new = claim_of(ana.user, team, status="pendente-de-documentacao", clock_paused=True,
                          notified_at=now - dt.timedelta(days=1))
    someone_elses = claim_of(team.people["bruno"].user, team, status="em-regulacao")
    closed = claim_of(ana.user, team, status="finalizado")

    page = ana.get("/admin/claims/claim/").content.decode()

    assert "<h1>Meus sinistros</h1>" in page
    assert numbers(page) == [overdue.number, later.number, paused_old.number, paused_new.number]
    assert someone_elses.number not in page and closed.number not in page


def test_the_owner_column_shows_where_owners_differ_not_in_my_own_queue(team):
    ana = team.people["ana"]
    claim_of(ana.user, team, status="criado")

    mine = ana.get("/admin/claims/claim/").content.decode()
    everyone = ana.get("/admin/claims/claim/?fila=equipe").content.decode()

    assert "column-owner_name" not in mine and "Meus sinistros" in mine
    assert "column-owner_name" in everyone and "Ana" in everyone


def test_team_unassigned_and_everyone_queues(team):
    ana, sergio = team.people["ana"], team.people["sergio"]
    mine = claim_of(ana.user, team, status="criado")
    unassigned = claim_of(None, team, status="criado")
    no_team = claim_of(None, None, status="criado")
    closed = claim_of(None, team, status="recusado")

    def listed(client, **params):
        return set(numbers(client.get("/admin/claims/claim/", params).content.decode()))

    assert listed(ana, fila="equipe") == {mine.number, unassigned.number}
    assert listed(ana, fila="sem-responsavel") == {unassigned.number, no_team.number}
    assert listed(ana, fila="todos") == {mine.number, unassigned.number, no_team.number,
                                         closed.number}
    # A supervisor lands on the team's queue and can open any analyst's.
    assert listed(sergio) == {mine.number, unassigned.number}
    assert listed(sergio, responsavel=ana.user.pk) == {mine.number}
    # A search looks everywhere, whatever the default queue.
    assert listed(ana, q=closed.number) == {closed.number}


def test_the_dashboard_counts_match_the_lists_they_link_to(team):
    ana = team.people["ana"]
    now = timezone.now()
    claim_of(ana.user, team, status="em-regulacao", clock_kind="decisao",
             clock_deadline=now - dt.timedelta(days=3), awaiting="analise")
    claim_of(ana.user, team, status="pendente-de-documentacao", clock_paused=True,
             awaiting="documentos")
    claim_of(team.people["bruno"].user, team, status="em-regulacao", clock_kind="decisao",
             clock_deadline=now + dt.timedelta(days=2), awaiting="analise")

    board = dashboard.build(ana.user)

    by_label = {f.label: f for f in board.mine_by_awaiting}
    assert by_label["Análise do analista"].count == 1
    assert by_label["Documentos do segurado ou do canal"].count == 1
    figures = {(scope, f.label): f for scope, fs in board.deadlines.items() for f in fs}
    assert figures[("Meus sinistros", "Prazo vencido")].count == 1
    assert figures[("Minha equipe", "Vence em 5 dias")].count == 1
    assert figures[("Minha equipe", "Prazo suspenso")].count == 1
    for figure in [*board.mine_by_awaiting, *figures.values()]:
        listed = numbers(ana.get(figure.url).content.decode())
        assert len(listed) == figure.count, (figure.label, figure.url)


def test_a_supervisor_without_claims_of_their_own_sees_no_row_of_zeros_about_them(team):
    sergio = team.people["sergio"]
    claim_of(team.people["ana"].user, team, status="criado", awaiting="analise")

    empty = sergio.get("/admin/").content.decode()
    claim_of(sergio.user, team, status="criado", awaiting="analise")
    own = sergio.get("/admin/").content.decode()

    assert "o que cada um aguarda" not in empty and "Carga por analista" in empty
    assert "Minha equipe" in empty  # the team's deadlines stay
    assert "o que cada um aguarda" in own


def test_the_median_days_to_decision():
    assert dashboard.median([(2, 1), (4, 1), (10, 1)]) == 4
    assert dashboard.median([(2, 2), (4, 2)]) == 3
    assert dashboard.median([]) is None


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("who", ["ana", "sergio"])
def test_the_dashboard_and_queues_read_a_fixed_number_of_queries(team, who):
    client = team.people[who]
    claim_of(team.people["ana"].user, team, status="em-regulacao", decided_at=timezone.now(),
             days_to_decision=3)
    urls = ["/admin/", "/admin/claims/claim/", "/admin/claims/claim/?fila=equipe",
            "/admin/claims/claim/?fila=sem-responsavel", "/admin/workbench/todo/"]
    few = [queries(client, url) for url in urls]

    for i in range(12):
        claim_of(team.people["ana" if i % 2 else "bruno"].user, team, status="em-regulacao",
                 decided_at=timezone.now(), days_to_decision=i, awaiting="liquidacao")
        claim_of(None, team, status="criado")

    assert [queries(client, url) for url in urls] == few
    assert Claim.objects.count() == 25
