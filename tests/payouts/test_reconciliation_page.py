"""The "Conciliação" page: treasury and supervisors; files named for treasury only."""

import pytest

from tests.payouts.known_day import BEFORE, DAY, known_day
from tests.payouts.treasury_rows import treasury_user
from tests.support.lifecycle import logged_in

pytestmark = pytest.mark.django_db
PAGE = "/admin/payouts/paymentorder/conciliacao/"


def test_analysts_are_refused(analyst):
    assert analyst.get(PAGE).status_code == 403


def test_treasury_sees_each_account_and_file_with_its_figures():
    rows = known_day()
    client = logged_in(treasury_user("tereza"))

    page = client.get(PAGE, {"data": DAY.isoformat()}).content.decode()

    assert "Conciliação de 16/11/2026" in page
    assert rows.itau.filename in page and rows.bradesco_old.filename in page
    assert rows.answered_before.filename not in page
    assert "R$ 1.000,00" in page and "R$ 3.050,00" in page
    assert '<span class="overdue">2</span>' in page  # Bradesco's two unanswered orders
    assert "As somas não conferem" in page  # the week shown holds 13/11
    assert "Não confere: diferença de -R$ 50,00" in page


def test_supervisors_see_the_figures_but_not_the_files_names(supervisor):
    rows = known_day()

    page = supervisor.get(PAGE, {"data": DAY.isoformat()}).content.decode()

    assert "Itaú pagamentos" in page and "Remessa nº 1" in page
    assert rows.itau.filename not in page and rows.bradesco_old.account.account not in page
    assert f"/admin/payouts/remittance/{rows.itau.pk}/" not in page


def test_a_day_whose_sums_match_says_so(supervisor):
    known_day()

    page = supervisor.get(PAGE, {"data": BEFORE.isoformat()}).content.decode()

    assert "Conciliação de 13/11/2026" in page
    assert "diferença de -R$ 50,00" in page
    assert "Confere" in page  # the days before, with no return, match at R$ 0,00


def test_a_date_that_is_not_one_shows_today(supervisor):
    response = supervisor.get(PAGE, {"data": "ontem"})

    assert response.status_code == 200
    assert "Nenhuma remessa com pagamento em" in response.content.decode()
