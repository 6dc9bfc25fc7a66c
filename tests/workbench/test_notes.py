"""Internal notes: any claims role writes one at any time; it shows in the timeline with
who and when, never reaches channels (API, webhooks) or the hosted pages, and is never
edited or deleted."""

import pytest

from claims.models import ClaimHistory, Event
from tests.support.lifecycle import open_claim, page_messages


def test_a_note_shows_in_the_timeline_with_who_and_when_and_nowhere_else(api, sale, team):
    claim = open_claim(api, sale)
    bruno = team.people["bruno"]
    events_before = Event.objects.count()

    response = bruno.post(f"/admin/claims/claim/{claim.pk}/notas/",
                          {"text": "Cliente ligou: a certidão sai na sexta."})

    page = page_messages(bruno, response)
    assert "Nota registrada na linha do tempo." in page
    assert "Nota interna</strong> por Bruno" in page
    assert "Cliente ligou: a certidão sai na sexta." in page
    assert Event.objects.count() == events_before
    assert "certidão sai na sexta" not in api.get(f"/api/v1/sinistros/{claim.number}").content.decode()


def test_a_note_does_not_invalidate_a_form_another_analyst_has_open(api, sale, team):
    claim = open_claim(api, sale)
    claim.refresh_from_db()
    seen = claim.version

    team.people["bruno"].post(f"/admin/claims/claim/{claim.pk}/notas/", {"text": "Anotado."})

    claim.refresh_from_db()
    assert claim.version == seen


def test_an_empty_note_is_refused_in_words(api, sale, team):
    claim = open_claim(api, sale)
    ana = team.people["ana"]

    response = ana.post(f"/admin/claims/claim/{claim.pk}/notas/", {"text": "   "})

    assert "Este campo é obrigatório." in page_messages(ana, response)
    assert not ClaimHistory.objects.filter(claim=claim, action="nota").exists()


def test_notes_cannot_be_edited(api, sale, team):
    claim = open_claim(api, sale)
    team.people["ana"].post(f"/admin/claims/claim/{claim.pk}/notas/", {"text": "Primeira."})
    note = ClaimHistory.objects.get(claim=claim, action="nota")

    note.note = "Reescrita."
    with pytest.raises(ValueError, match="não se alteram"):
        note.save()
    assert team.people["sergio"].get(
        f"/admin/claims/claimhistory/{note.pk}/change/").status_code in (403, 404)
