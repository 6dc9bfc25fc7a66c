"""A denied claim on the hosted pages: the denial as the person may read it (never the
team's note) and the request for reconsideration, with its CSRF token, for the
session's own claims only."""

import re

import pytest

from claims import roles, services
from claims.models import Reconsideration
from tests.support.factories import SaleFactory
from tests.support.hosted import post_form, text
from tests.support.lifecycle import DENIAL_ARGUMENTS, open_claim, staff

pytestmark = pytest.mark.usefixtures("local_media")


def denied(api, sale, **overrides):
    claim = open_claim(api, sale, **overrides)
    services.deny(claim_id=claim.pk, user=staff(f"sup-{claim.number}", roles.SUPERVISOR),
                  reason="A doença existia antes da contratação.", **DENIAL_ARGUMENTS,
                  internal_note="Prontuário de 2019 confirma (interno).")
    return claim


def page_of(claim) -> str:
    return f"/segurado/sinistros/{claim.number}"


def test_the_denial_reads_in_words_without_the_internal_note(insured, api, sale):
    claim = denied(api, sale)

    page = text(insured.get(page_of(claim)))

    assert "A doença existia antes da contratação." in page
    assert "Risco excluído" in page and "Cláusula 5.2 das Condições Gerais" in page
    assert "Prontuário" not in page and "interno" not in page
    assert "Pedir reconsideração" in page


def test_the_requester_asks_for_reconsideration_on_a_death(insured, api, sale):
    claim = denied(api, sale)  # cobertura/morte: the requester follows the claim

    response = post_form(insured, page_of(claim), {"motivo": "O laudo do IML mostra outra causa."},
                         action=f"{page_of(claim)}/reconsideracao")

    assert response.status_code == 302 and response.url == page_of(claim)
    reconsideration = Reconsideration.objects.get()
    assert (reconsideration.requested_by_role, reconsideration.text) == (
        "solicitante", "O laudo do IML mostra outra causa.")
    assert reconsideration.claim.history.get(
        action="solicitar-reconsideracao").actor.startswith("segurado:")
    page = text(insured.get(page_of(claim)))
    assert "Pedido de reconsideração enviado" in page  # the message, then the timeline
    assert "Aguardando a seguradora" in page and "O laudo do IML" in page
    assert "Pedir reconsideração" not in page  # one at a time


def test_the_insured_asks_on_a_living_coverage_and_reads_the_answer(insured, api, sale):
    claim = denied(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)
    post_form(insured, page_of(claim), {"motivo": "Discordo."},
              action=f"{page_of(claim)}/reconsideracao")
    assert Reconsideration.objects.get().requested_by_role == "segurado"

    services.keep_denial(claim_id=claim.pk, user=staff("sofia", roles.SUPERVISOR),
                         note="A invalidez é anterior à contratação.")
    page = text(insured.get(page_of(claim)))

    assert "Recusa mantida" in page and "A invalidez é anterior à contratação." in page
    assert "A seguradora manteve a recusa" in page  # the timeline
    assert "Pedir reconsideração" in page  # a new request may follow


def test_an_empty_request_is_a_form_error(insured, api, sale):
    claim = denied(api, sale)

    response = post_form(insured, page_of(claim), {"motivo": "  "},
                         action=f"{page_of(claim)}/reconsideracao")

    assert response.status_code == 400
    assert "Escreva por que a seguradora deve reconsiderar a recusa." in text(response)
    assert not Reconsideration.objects.exists()


def test_a_claim_that_is_not_denied_is_refused_in_plain_words(insured, api, sale):
    claim = open_claim(api, sale)

    response = post_form(insured, "/segurado/", {"motivo": "x"},
                         action=f"{page_of(claim)}/reconsideracao")

    assert response.status_code == 302
    assert "não está recusado" in text(insured.get(page_of(claim)))
    assert not Reconsideration.objects.exists()


def test_a_twice_posted_request_says_it_is_already_waiting(insured, api, sale):
    claim = denied(api, sale)
    action = f"{page_of(claim)}/reconsideracao"
    post_form(insured, page_of(claim), {"motivo": "Primeiro."}, action=action)

    post_form(insured, "/segurado/", {"motivo": "Segundo."}, action=action)

    assert "Você já pediu a reconsideração" in text(insured.get(page_of(claim)))
    assert Reconsideration.objects.count() == 1


def test_without_its_csrf_token_the_request_is_refused(insured, api, sale):
    claim = denied(api, sale)

    response = insured.post(f"{page_of(claim)}/reconsideracao", {"motivo": "x"})

    assert response.status_code == 403
    assert not Reconsideration.objects.exists()


def test_another_sales_claim_is_not_found(insured, api, channel):
    other_sale = SaleFactory(channel=channel)
    other_sale.coverages.create(name="cobertura/morte", max_indemnity=50000)
    claim = denied(api, other_sale)

    response = post_form(insured, "/segurado/", {"motivo": "x"},
                         action=f"{page_of(claim)}/reconsideracao")

    assert response.status_code == 404
    assert not Reconsideration.objects.exists()


def test_a_get_is_not_allowed(insured, api, sale):
    claim = denied(api, sale)

    assert insured.get(f"{page_of(claim)}/reconsideracao").status_code == 405


def test_a_pending_request_shows_when_the_insurer_answers(insured, api, sale):
    claim = denied(api, sale)
    post_form(insured, page_of(claim), {"motivo": "Discordo."},
              action=f"{page_of(claim)}/reconsideracao")
    due = Reconsideration.objects.get().task.due_on

    page = text(insured.get(page_of(claim)))

    assert re.search(rf"responder por aqui até <strong[^>]*>{due:%d/%m/%Y}</strong>", page)


def test_after_a_kept_denial_a_request_without_new_documents_says_what_to_bring(
        insured, api, sale):
    claim = denied(api, sale)
    post_form(insured, page_of(claim), {"motivo": "Discordo."},
              action=f"{page_of(claim)}/reconsideracao")
    services.keep_denial(claim_id=claim.pk, user=staff("sofia", roles.SUPERVISOR),
                         note="A doença é anterior.")
    page = text(insured.get(page_of(claim)))
    assert "Um novo pedido só é analisado com algo novo" in page
    assert "Ouvidoria da seguradora" in page and "SUSEP" in page

    response = post_form(insured, page_of(claim), {"motivo": "Discordo de novo."},
                         action=f"{page_of(claim)}/reconsideracao")

    assert response.status_code == 302
    page = text(insured.get(page_of(claim)))
    assert "envie primeiro um documento novo" in page
    assert Reconsideration.objects.count() == 1


def test_past_the_limit_the_page_offers_no_request_and_says_what_remains(
        insured, api, sale, settings):
    settings.RECONSIDERATION_MAX_REQUESTS = 1
    claim = denied(api, sale)
    post_form(insured, page_of(claim), {"motivo": "Discordo."},
              action=f"{page_of(claim)}/reconsideracao")
    services.keep_denial(claim_id=claim.pk, user=staff("sofia", roles.SUPERVISOR),
                         note="A doença é anterior.")

    page = text(insured.get(page_of(claim)))

    assert "Pedir reconsideração" not in page
    assert "Documentos para a reconsideração" not in page
    assert "reconsiderada e mantida o número máximo de vezes" in page
    assert "0800 000 0000" in page  # the ombudsman's contact (INSURER_OMBUDSMAN_TEXT)
    assert "Lei 15.040/2024, art. 126" in page
