"""What a walk through the workbench found wrong, each held: the limits table, actions
after the indemnity is paid, the task owner list, the proposals awaiting a supervisor."""

from decimal import Decimal

import pytest

from claims import services
from workbench.proposal_terms import DenialTerms
from tests.support.lifecycle import DENIAL_ARGUMENTS, HEIR_DETAILS, claim_under_review, open_claim
from workbench import services as workbench_services

pytestmark = pytest.mark.usefixtures("local_media")


def page_of(client, claim) -> str:
    return client.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()


def test_the_limits_table_keeps_this_claim_apart_from_the_others(api, sale, team):
    open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)  # 30k
    claim = open_claim(api, sale)  # 50k of the 100k LMG

    page = page_of(team.people["ana"], claim)

    assert "Usado por outros sinistros" in page and "Este sinistro" in page
    lmg_row = page[page.index("LMG (apólice)"):].split("</tr>")[0]
    assert [cell.split("<")[0] for cell in lmg_row.split('class="money">')[1:]] == [
        "R$ 100.000,00", "R$ 30.000,00", "R$ 50.000,00", "R$ 20.000,00"]


def test_nothing_is_asked_of_the_insured_once_the_indemnity_is_paid(api, sale, team):
    ana = team.people["ana"]
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    services.approve_documents(claim_id=claim.pk, user=ana.user)
    services.register_payment(claim_id=claim.pk, beneficiary_id=claim.beneficiaries.get().pk,
                              user=team.people["sergio"].user, amount=Decimal("50000.00"))

    page = page_of(ana, claim)

    assert "acoes/solicitar-documentos/" not in page
    assert "acoes/solicitar-dados-de-pagamento/" not in page
    assert "Solicitar documentos: a indenização já foi paga (ou retida) por inteiro" in page


def test_the_task_owner_list_names_the_reader_once(api, sale, team):
    claim = open_claim(api, sale)

    page = page_of(team.people["ana"], claim)

    owners = page[page.index('name="owner"'):].split("</select>")[0]
    assert "Eu mesmo (Ana)" in owners
    assert owners.count(">Ana<") == 0 and ">Bruno<" in owners


def test_proposals_awaiting_show_their_total_oldest_first(api, channel, team):
    from tests.support.factories import CoverageFactory, SaleFactory

    ana, sergio = team.people["ana"], team.people["sergio"]
    numbers = []
    for reason in ("primeira", "segunda"):
        sale = SaleFactory(channel=channel)
        CoverageFactory(sale=sale, name="cobertura/morte")
        claim = open_claim(api, sale)
        workbench_services.propose(claim_id=claim.pk, user=ana.user,
                         terms=DenialTerms(**{**DENIAL_ARGUMENTS, "reason": reason}),
                         expected_version=claim.version)
        numbers.append(claim.number)

    board = sergio.get("/admin/").content.decode()
    listing = sergio.get("/admin/workbench/proposal/?status__exact=pendente").content.decode()

    assert "Propostas aguardando aprovação</a> <span class=\"total\">(2)</span>" in board
    assert board.index(numbers[0]) < board.index(numbers[1])
    assert listing.index(numbers[0]) < listing.index(numbers[1])


def test_a_claim_opened_with_nothing_asked_is_said_on_the_dashboard_and_its_page(api, sale, team):
    claim = open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)
    ana = team.people["ana"]

    board = ana.get("/admin/").content.decode()
    listed = ana.get("/admin/claims/claim/?fila=meus&documentos=nenhum").content.decode()
    page = page_of(ana, claim)

    assert "<strong>1</strong> sinistro(s) sem documentos exigidos (Meus sinistros)" in board
    assert claim.number in listed
    assert "Nenhum documento foi exigido na abertura" in page


def test_asking_for_payment_data_tells_the_channel_what_is_missing(api, sale, team):
    from claims.models import Event

    claim = claim_under_review(api, sale, **{"saldo-devedor": 8000,
                                             "detalhes-pagamento": HEIR_DETAILS})
    services.approve_documents(claim_id=claim.pk, user=team.people["ana"].user,
                               request_payment_data=True)

    event = Event.objects.filter(claim=claim, name="sinistro-pendente-de-dados-de-pagamento").get()
    assert event.details["dados-faltantes"] == ["o credor (tipo credor) e seus dados de pagamento"]
    assert "Faltam: o credor (tipo credor) e seus dados de pagamento." in page_of(
        team.people["ana"], claim)
