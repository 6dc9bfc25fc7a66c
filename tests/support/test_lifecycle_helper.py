"""``acted`` proves the action happened. The claim page is where a refused action lands
too (not offered now, or the claim moved on meanwhile), and where a move that became a
proposal to a supervisor lands, each with a message of its own: a redirect there proves
nothing."""

import pytest

from tests.support.lifecycle import acted, claim_under_review, open_claim, proposed, refused

pytestmark = pytest.mark.usefixtures("local_media")


def test_finalizing_a_claim_opened_a_moment_ago_without_a_reason_fails_with_the_forms_words(
        analyst, api, sale):
    claim = open_claim(api, sale)

    with pytest.raises(AssertionError, match="informe o motivo do encerramento"):
        acted(analyst, claim, "finalizar")

    claim.refresh_from_db()
    assert claim.status == "criado"


def test_an_analysts_finalizing_that_became_a_proposal_is_not_the_action_done(
        analyst, api, sale):
    claim = open_claim(api, sale)

    with pytest.raises(AssertionError, match="proposto ao supervisor"):
        acted(analyst, claim, "finalizar", {"reason": "Desistência."})

    claim.refresh_from_db()
    assert claim.status == "criado"


def test_an_action_not_offered_fails_with_the_warning_the_claim_page_shows(analyst, api, sale):
    claim = claim_under_review(api, sale)
    claim = acted(analyst, claim, "aprovar-documentacao")

    with pytest.raises(AssertionError, match="refused: Aprovar documentação: documentação "
                                             "já aprovada"):
        acted(analyst, claim, "aprovar-documentacao")


def test_a_real_action_is_done_and_the_claim_returned_fresh(analyst, supervisor, api, sale):
    claim = acted(analyst, claim_under_review(api, sale), "aprovar-documentacao")
    assert claim.status == "em-regulacao"

    claim = acted(supervisor, claim, "finalizar", {"reason": "Desistência."})

    assert claim.status == "finalizado"
    assert claim.history.latest("id").action == "finalizar"


def test_refused_gives_the_refusals_words(analyst, api, sale):
    claim = open_claim(api, sale)

    assert "informe o motivo do encerramento" in refused(analyst, claim, "finalizar")
    claim = acted(analyst, claim, "aprovar-documentacao")
    assert refused(analyst, claim, "aprovar-documentacao") == \
        "Aprovar documentação: documentação já aprovada."
    claim.refresh_from_db()
    assert claim.status == "em-regulacao"


def test_a_stale_version_is_refused_with_the_error_the_claim_page_shows(
        analyst, supervisor, api, sale):
    claim = claim_under_review(api, sale)
    seen = claim.version
    acted(analyst, claim, "ajustar-reserva", {"amount": "40.000,00", "reason": "Laudo."})

    words = refused(supervisor, claim, "finalizar", {"reason": "Desistência."}, version=seen)

    claim.refresh_from_db()
    assert "alterado por outra pessoa enquanto você decidia" in words
    assert claim.status != "finalizado"


def test_refused_fails_when_the_action_was_done(supervisor, api, sale):
    claim = open_claim(api, sale)

    with pytest.raises(AssertionError, match="was done"):
        refused(supervisor, claim, "finalizar", {"reason": "Desistência."})


def test_proposed_is_a_proposal_written_and_the_claim_unchanged(analyst, api, sale):
    claim = open_claim(api, sale)

    said = proposed(analyst, claim, "finalizar", {"reason": "Desistência."})

    claim.refresh_from_db()
    assert "proposto ao supervisor" in said and claim.status == "criado"
    assert claim.proposals.get().status == "pendente"
