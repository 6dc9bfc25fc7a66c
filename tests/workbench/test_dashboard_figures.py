"""The dashboard's shared figures (workbench.dashboard_figures): read from the shared cache
as the beat computed them, the page saying when; computed by the page itself when the
cache has none or is away; a reader's own figures always counted at the view; real
workers computing them at once write the same figures."""

import datetime as dt
import re

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from workbench import dashboard, dashboard_figures
from workbench.models import Team, TeamMember
from workbench.tasks import refresh_dashboard_figures
from tests.support.concurrency import postgres_only
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory
from tests.support.workers import CeleryWorkers, wait_until


@pytest.fixture
def shared(settings):
    settings.DASHBOARD_FIGURES_SECONDS = 60
    return settings


def claim_of(owner=None, team=None, **fields):
    sale = SaleFactory()
    return ClaimFactory(sale=sale, coverage=CoverageFactory(sale=sale), owner=owner, team=team,
                        **fields)


def team_deadlines(board) -> dict[str, int]:
    return {figure.label: figure.count for figure in board.deadlines["Minha equipe"]}


def load(board) -> dict[str, int]:
    return {row["name"]: row["open"] for row in board.load}


def test_shared_figures_are_read_as_the_beat_computed_them_and_the_page_says_when(shared, team):
    sergio, ana = team.people["sergio"], team.people["ana"].user
    claim_of(ana, team, status="em-regulacao", clock_kind="decisao",
             clock_deadline=timezone.now() - dt.timedelta(days=1))
    first = dashboard.build(sergio.user)  # nothing cached yet: counted, and stored
    assert team_deadlines(first)["Prazo vencido"] == 1 and load(first) == {"Ana": 1}

    claim_of(ana, team, status="em-regulacao", clock_kind="decisao",
             clock_deadline=timezone.now() - dt.timedelta(days=1))
    claim_of(ana, team, status="criado")  # no document asked: "sem documentos exigidos"
    stale = dashboard.build(sergio.user)
    assert team_deadlines(stale)["Prazo vencido"] == 1 and load(stale) == {"Ana": 1}
    assert stale.no_requirements is None
    assert stale.shared_at == first.shared_at

    assert refresh_dashboard_figures.apply().successful()  # the beat's task, in process
    fresh = dashboard.build(sergio.user)
    assert team_deadlines(fresh)["Prazo vencido"] == 2 and load(fresh) == {"Ana": 3}
    assert fresh.no_requirements.count == 1
    assert fresh.shared_at > first.shared_at

    page = sergio.get("/admin/").content.decode()
    at = timezone.localtime(fresh.shared_at)
    assert re.search(rf"calculados às {at:%H}:\d\d; recalculados a cada minuto", page)


def test_an_analysts_own_figures_are_counted_at_the_view(shared, team):
    ana = team.people["ana"].user
    dashboard.build(ana)  # the shared figures are cached from here on
    claim_of(ana, team, status="em-regulacao", awaiting="analise")

    board = dashboard.build(ana)

    assert {f.label: f.count for f in board.mine_by_awaiting}["Análise do analista"] == 1
    mine = {f.label: f.count for f in board.deadlines["Meus sinistros"]}
    assert mine == {"Prazo vencido": 0, "Vence em 5 dias": 0, "Prazo suspenso": 0}


def test_a_supervisor_of_two_teams_sees_each_analysts_claims_summed(shared, team):
    sergio, ana = team.people["sergio"].user, team.people["ana"].user
    other = Team.objects.create(name="Prestamista")
    TeamMember.objects.create(team=other, user=sergio, role=TeamMember.Role.SUPERVISOR)
    TeamMember.objects.create(team=other, user=ana, role=TeamMember.Role.ANALYST)
    claim_of(ana, team, status="criado")
    claim_of(ana, other, status="em-regulacao", clock_kind="decisao",
             clock_deadline=timezone.now() - dt.timedelta(days=1))
    claim_of(None, other, status="criado")
    dashboard_figures.refresh()

    board = dashboard.build(sergio)

    assert load(board) == {"Ana": 2}
    assert board.load[0]["overdue"] == 1
    assert team_deadlines(board)["Prazo vencido"] == 1
    assert board.no_requirements.count == 2  # the two "criado", one in each team


def test_the_page_counts_for_itself_when_the_cache_is_away(shared, team, monkeypatch):
    sergio = team.people["sergio"]
    claim_of(team.people["ana"].user, team, status="criado")

    def away(*args, **kwargs):
        raise ConnectionError("cache away")

    monkeypatch.setattr(cache, "get_many", away)
    monkeypatch.setattr(cache, "set_many", away)
    board = dashboard.build(sergio.user)

    assert load(board) == {"Ana": 1}
    assert sergio.get("/admin/").status_code == 200


def statements(client) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/admin/").status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("who", ["ana", "sergio"])
def test_read_from_the_cache_the_dashboard_costs_fewer_statements_however_many_claims(
        shared, team, who):
    client = team.people[who]
    claim_of(team.people["ana"].user, team, status="em-regulacao", decided_at=timezone.now(),
             days_to_decision=3)
    counted = statements(client)  # the first view counts the shared figures
    cached = statements(client)
    for i in range(6):
        claim_of(team.people["bruno"].user, team, status="em-regulacao",
                 decided_at=timezone.now(), days_to_decision=i)
    dashboard_figures.refresh()

    assert statements(client) == cached
    # weekly, decisions and the team's load are read, not counted (the supervisor's
    # "sem documentos exigidos" for the team and the SRO's registrations sent late too)
    assert counted - cached == (5 if who == "sergio" else 3)


@postgres_only
@pytest.mark.skipif(not django_settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://"))
                    or "redis" not in django_settings.CACHES["default"]["BACKEND"].lower(),
                    reason="needs a networked broker and the shared (Redis) cache")
@pytest.mark.django_db(transaction=True)
def test_two_workers_computing_the_figures_at_once_store_what_the_page_would_count(team):
    ana = team.people["ana"].user
    for days in range(3):
        claim_of(ana, team, status="em-regulacao", decided_at=timezone.now(),
                 days_to_decision=days)
    claim_of(None, team, status="criado")
    expected = dashboard_figures.read(dashboard_figures.team_figures(team.pk)).values
    cache.clear()
    workers = CeleryWorkers("figures", DASHBOARD_FIGURES_SECONDS="60")
    try:
        workers.start("one"), workers.start("two")
        for _ in range(4):  # two for each, at once
            refresh_dashboard_figures.apply_async(queue=workers.queue)
        key = dashboard_figures.KEY_PREFIX + f"team-load:{team.pk}"
        assert wait_until(lambda: cache.get(key) is not None, 60)
    finally:
        workers.stop()

    stored = {name: cache.get(dashboard_figures.KEY_PREFIX + name)[0] for name in expected}
    assert stored == expected
    decisions = cache.get(dashboard_figures.KEY_PREFIX + "decisions")[0]
    assert sum(n for _, _, n, _ in decisions) == 3


def test_what_a_page_counts_itself_lasts_one_interval_and_the_beats_three(shared, team,
                                                                          monkeypatch):
    # Where the cache is the process's own memory, the beat's figures never reach the
    # pages: what a page stored must be recounted after the interval the page states.
    timeouts = []
    set_many = cache.set_many
    monkeypatch.setattr(cache, "set_many", lambda values, timeout: (
        timeouts.append(timeout), set_many(values, timeout=timeout)))

    dashboard.build(team.people["ana"].user)
    dashboard_figures.refresh()

    assert timeouts == [60, 180]
