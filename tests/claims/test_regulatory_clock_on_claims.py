"""The regulatory clock on real claims: every service keeps the claim's clock columns
equal to what its history says, and the analyst sees it on the page and in the list."""

import datetime as dt

import pytest
from django.utils import timezone

from claims import services
from claims.models import Claim
from tests.support.lifecycle import acted, claim_under_review, open_claim, send_document

pytestmark = pytest.mark.usefixtures("local_media")


def assert_columns_match_history(claim: Claim):
    claim.refresh_from_db()
    clock = services.regulatory_clock(claim)
    assert (claim.clock_kind, claim.clock_deadline, claim.clock_paused) == (
        clock.kind, clock.deadline, clock.paused)
    return clock


def test_a_claim_without_required_documents_starts_the_decision_clock_at_notice(api, sale):
    claim = open_claim(api, sale)

    clock = assert_columns_match_history(claim)

    assert clock.kind == "decisao"
    assert claim.clock_deadline == claim.history.get().created_at + dt.timedelta(days=30)


def test_the_decision_clock_starts_when_the_documentation_is_complete(analyst, api, sale):
    claim = claim_under_review(api, sale)

    clock = assert_columns_match_history(claim)

    completed = claim.history.get(action="completar-documentacao").created_at
    assert clock.kind == "decisao"
    assert claim.clock_deadline == completed + dt.timedelta(days=30)


def test_a_request_for_documents_suspends_it_once_and_their_arrival_resumes_it(
        analyst, api, sale):
    claim = claim_under_review(api, sale)

    acted(analyst, claim, "solicitar-documentos", {"new_type": "laudo", "new_title": "Laudo",
                                                  "note": "Para confirmar a causa."})
    paused = assert_columns_match_history(claim)
    send_document(api, claim, "laudo")
    resumed = assert_columns_match_history(claim)
    acted(analyst, claim, "solicitar-documentos", {"new_type": "extra", "new_title": "Extra",
                                                  "note": "Para confirmar a causa."})
    second = assert_columns_match_history(claim)

    assert paused.paused and claim.clock_deadline is not None
    assert not resumed.paused and resumed.suspensions_used == 1
    assert not second.paused and second.requests_beyond_allowed == 1  # a small policy: once
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "Suspensões usadas: 1 de 1" in page
    assert "1 solicitação(ões) além do permitido não suspenderam o prazo" in page


def test_recognising_cover_starts_the_payment_clock_and_finalizing_stops_it(
        analyst, supervisor, api, sale):
    claim = claim_under_review(api, sale)

    acted(analyst, claim, "aprovar-documentacao")
    payment_clock = assert_columns_match_history(claim)
    acted(supervisor, claim, "finalizar", {"reason": "Desistência."})  # nothing paid
    closed = assert_columns_match_history(claim)

    assert payment_clock.kind == "pagamento"
    assert closed.kind == "" and claim.clock_deadline is None


def test_the_claim_page_and_list_show_the_deadline(analyst, api, sale):
    claim = claim_under_review(api, sale)
    claim.refresh_from_db()
    deadline = f"{timezone.localtime(claim.clock_deadline):%d/%m/%Y}"

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    listing = analyst.get("/admin/claims/claim/?fila=todos").content.decode()

    assert f"Decisão sobre a cobertura (Lei 15.040/2024, art. 86): vence em {deadline}" in page
    assert any(f'{deadline}<br><small class="quiet">decisão, {days} d</small>' in listing
               for days in (30, 29))


# --- one wording everywhere: which clock, and its days counted alike ---------------------


def help_lines(client, claim) -> list[str]:
    form = client.get(f"/admin/claims/claim/{claim.pk}/acoes/solicitar-documentos/")
    return [line for line in form.context["help_lines"]]


def clock_row(client, claim) -> str:
    page = client.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    return page.split("<dt>Prazo regulatório</dt>")[1].split("</dd>")[0]


def test_asking_for_documents_names_the_payment_clock_it_suspends(analyst, api, sale):
    claim = claim_under_review(api, sale)
    acted(analyst, claim, "aprovar-documentacao")  # cover recognised: the payment clock runs

    lines = help_lines(analyst, claim)

    assert lines[0] == ("Esta solicitação suspende o prazo de pagamento da indenização "
                        "(Lei 15.040/2024, art. 87) até a chegada dos documentos (suspensão 1 de 1).")
    assert lines[1].startswith("Prazo atual: Pagamento da indenização (Lei 15.040/2024, art. 87): "
                               "vence em ")
    assert "art. 86" not in " ".join(lines)


def test_a_suspended_clock_reads_alike_on_the_page_the_list_and_the_form(analyst, api, sale):
    claim = claim_under_review(api, sale)
    before = clock_row(analyst, claim)
    acted(analyst, claim, "solicitar-documentos", {"new_type": "laudo", "new_title": "Laudo",
                                                  "note": "Para confirmar a causa."})

    after = clock_row(analyst, claim)
    lines = help_lines(analyst, claim)
    listing = analyst.get("/admin/claims/claim/?fila=todos").content.decode()

    days = before.split("(faltam ")[1].split(" dias)")[0]  # 30, or 29 past local midnight
    today = f"{timezone.localdate():%d/%m/%Y}"
    described = (f"Decisão sobre a cobertura (Lei 15.040/2024, art. 86): suspenso em {today}, "
                 f"quando faltavam {days} dias; aguardando documentos complementares")
    assert after.startswith(f"<dd class=\"\">{described}<br>")
    assert lines == [
        "O prazo de decisão sobre a cobertura (Lei 15.040/2024, art. 86) já está suspenso, "
        "aguardando documentos: esta solicitação não muda o prazo.",
        f"Prazo atual: {described}.",
    ]
    assert "suspenso (decisão)" in listing
