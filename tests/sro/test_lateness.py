"""How the sent registrations kept their deadlines, counted against a known history: the
supervisor's card, "Registros SRO" filtered by "enviado com atraso" and ``sro_status``.

Sent late: accepted by the registradora on a local (America/Sao_Paulo) day after the
deadline day. The card counts the deadlines of the last 30 days; ``sro_status`` those
too, and each of the last six months by the month of the deadline."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from sro.models import Registration, Submission
from sro.overview import lateness, lateness_by_month
from tests.support.factories import ClaimFactory

pytestmark = pytest.mark.django_db
LIST = "/admin/sro/submission/"
LOCAL = ZoneInfo("America/Sao_Paulo")


def at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=LOCAL)


class History:
    """Claims with their registro and changes, each deadline and acceptance known."""

    def __init__(self):
        self.claims = {}

    def claim(self, name: str, *rows):
        """``rows``: (deadline, accepted at or None, status) for sequence 0, 1, ..."""
        claim = ClaimFactory()
        registration = Registration.objects.create(claim=claim, last_sequence=len(rows) - 1)
        for sequence, (deadline, accepted, status) in enumerate(rows):
            Submission.objects.create(
                registration=registration, sequence=sequence,
                kind="registro" if sequence == 0 else "alteracao",
                trigger="aviso" if sequence == 0 else "pagamento", sro_status=6,
                occurred_at=at(deadline, 9) - dt.timedelta(days=2), deadline=deadline,
                body={}, status=status, sent_at=accepted,
                batch_id="L" * 24 if accepted else "")
        self.claims[name] = claim
        return claim


@pytest.fixture
def today():
    return timezone.localdate()


@pytest.fixture
def history(today):
    """Two periods:

    - more than 30 days ago (the 10th of an earlier month): 4 accepted in time, 2 late;
    - 5 days ago: 3 in time (one at 23:30 of the deadline day, 02:30 UTC of the next),
      1 late (00:10 of the next day), 1 still pending past its deadline; and one pending
      due today (in time).

    Registros accepted: 8 claims (the late change of "antigo-alteracao" is its second
    submission)."""
    old = (today.replace(day=1) - dt.timedelta(days=40)).replace(day=10)
    recent = today - dt.timedelta(days=5)
    h = History()
    for index in range(3):
        h.claim(f"antigo-{index}", (old, at(old, 10), "enviado"))
    h.claim("antigo-alteracao", (old, at(old, 11), "enviado"),
            (old, at(old + dt.timedelta(days=3), 9), "enviado"))
    h.claim("antigo-atrasado", (old, at(old + dt.timedelta(days=1), 8), "enviado"))
    h.claim("recente-0", (recent, at(recent, 9), "enviado"))
    h.claim("recente-23h30", (recent, at(recent, 23, 30), "enviado"))
    h.claim("recente-1", (recent - dt.timedelta(days=1), at(recent - dt.timedelta(days=2), 15),
                          "enviado"))
    h.claim("recente-0h10", (recent, at(recent + dt.timedelta(days=1), 0, 10), "enviado"))
    h.claim("recente-pendente", (recent, None, "pendente"))
    h.claim("hoje", (today, None, "pendente"))
    h.old, h.recent = old, recent
    return h


def test_sent_late_counts_the_acceptance_day_against_the_deadline_day(history, today):
    kept = lateness()

    assert kept.registered_claims == 9
    assert (kept.recent.due, kept.recent.on_time, kept.recent.sent_late,
            kept.recent.late_unsent) == (6, 3, 1, 1)
    months = {period.label: period for period in lateness_by_month()}
    assert len(months) == 6 and list(months)[-1] == f"{today:%m/%Y}"
    old = months[f"{history.old:%m/%Y}"]
    assert (old.due, old.on_time, old.sent_late, old.late_unsent) == (6, 4, 2, 0)


def test_the_supervisors_card_shows_the_late_ones_and_the_claims_registered(
        supervisor, history):
    page = supervisor.get("/admin/").content.decode()
    card = page[page.index('id="sro-card"'):]
    card = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", card[:card.index("</section>")]))

    assert "1 enviado com atraso (de 4 enviados com prazo nos últimos 30 dias)" in card
    assert "9 sinistros registrados na registradora" in card
    assert "1 atrasado" in card  # the one still pending past its deadline


def test_the_list_filters_the_ones_sent_late(supervisor, history):
    def shown(**query) -> set[str]:
        page = supervisor.get(LIST, query).content.decode()
        return {name for name, claim in history.claims.items() if claim.number in page}

    assert shown(enviado_com_atraso="sim") == {"antigo-alteracao", "antigo-atrasado",
                                               "recente-0h10"}
    assert shown(enviado_com_atraso="30-dias") == {"recente-0h10"}
    assert shown(enviado_com_atraso="nao") == {
        "antigo-0", "antigo-1", "antigo-2", "antigo-alteracao", "recente-0", "recente-23h30",
        "recente-1"}
    page = supervisor.get(LIST).content.decode()
    assert "Por enviado com atraso" in page and "Sim, com prazo nos últimos 30 dias" in page


def test_sro_status_says_the_claims_registered_and_the_late_ones_per_month(history, capsys,
                                                                          today):
    call_command("sro_status")
    out = capsys.readouterr().out

    assert "Sinistros registrados na registradora: 9" in out
    assert ("últimos 30 dias: 1 de 4 enviados (25%); 1 ainda não enviado após o prazo"
            in out)
    assert (f"{history.old:%m/%Y}: 2 de 6 enviados (33,33%); 0 ainda não enviados após o "
            "prazo") in out
    assert f"{today:%m/%Y}: " in out


def test_the_card_reads_as_many_queries_however_long_the_history(supervisor, history):
    with CaptureQueriesContext(connection) as few:
        supervisor.get("/admin/")
    for index in range(5):
        history.claim(f"mais-{index}", (history.recent, at(history.recent, 10), "enviado"),
                      (history.recent, at(history.recent + dt.timedelta(days=4), 10),
                       "enviado"))
    with CaptureQueriesContext(connection) as more:
        page = supervisor.get("/admin/").content.decode()
    assert len(more) == len(few)
    assert '<span class="n">6</span>enviados com atraso' in page
    assert '<span class="n">14</span>sinistros registrados' in page
