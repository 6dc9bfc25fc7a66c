"""The supervisor's decision box for a payment proposal: exactly what approving pays
(the indemnity and, after the art. 87 deadline, the art. 88 charges on top), to whom and
where, unmasked, in two aligned columns, numbers written the Brazilian way."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.utils import timezone

from claims.models import FinancialIndex, Payment
from workbench.models import Proposal
from tests.support.lifecycle import act, acted, claim_under_review, paying
from workbench import services as workbench_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_media")]


@pytest.fixture
def proposed(api, sale, team, settings):
    """Ana proposes R$ 15.000,00 to Maria da Silva (PIX maria@example.com) above her
    authority of R$ 10.000,00."""
    settings.PAYMENT_AUTHORITY_LIMIT = Decimal("10000.00")
    ana = team.people["ana"]
    claim = acted(ana, claim_under_review(api, sale), "aprovar-documentacao")
    act(ana, claim, "registrar-pagamento", paying(claim, "15.000,00"))
    proposal = Proposal.objects.get(status="pendente")
    claim.refresh_from_db()
    return claim, proposal


def overdue_by(claim, days: int) -> None:
    """The art. 87 deadline passed ``days`` ago, with the rates of those months loaded."""
    due = timezone.now() - dt.timedelta(days=days)
    type(claim).objects.filter(pk=claim.pk).update(clock_deadline=due)
    month = timezone.localdate(due).replace(day=1)
    while month <= timezone.localdate():
        for series, rate in (("correcao", "0.45"), ("juros", "0.55")):
            FinancialIndex.objects.create(series=series, month=month, rate=Decimal(rate))
        month = (month + dt.timedelta(days=32)).replace(day=1)


def decision_box(client, claim) -> dict[str, str]:
    """The box's label -> value pairs, as the supervisor reads them."""
    html = client.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    box = html[html.index('id="proposta"'):]
    box = box[:box.index("</section>")]
    facts = re.search(r'<dl class="proposal-facts">(.*?)</dl>', box, re.S).group(1)
    words = lambda part: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", part)).strip()  # noqa: E731
    pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", facts, re.S)
    assert len(pairs) == facts.count("<dt>") == facts.count("<dd>")  # one value per label
    return {"_box": words(box), **{words(label): words(value) for label, value in pairs}}


def money(text: str) -> Decimal:
    return Decimal(text.replace("R$ ", "").replace(".", "").replace(",", "."))


def test_in_time_the_box_pays_the_proposal_to_the_named_payee_at_the_whole_key(
        proposed, team):
    claim, _ = proposed

    box = decision_box(team.people["sergio"], claim)

    assert box["Será pago"] == ("R$ 15.000,00 de indenização (sem encargos: dentro do prazo "
                                "do art. 87)")
    assert box["A quem"] == "Maria da Silva, CPF 529.982.247-25"
    assert box["Onde"] == "PIX, chave e-mail maria@example.com"
    assert box["Parte do beneficiário"] == ("R$ 50.000,00 que lhe cabem; já registrado "
                                            "R$ 0,00; depois deste, restará R$ 35.000,00")
    assert "***" not in box["_box"] and "Encargos (art. 88)" not in box


def test_after_the_deadline_the_box_says_the_total_paid_and_it_is_what_is_paid(
        proposed, team):
    claim, proposal = proposed
    overdue_by(claim, 20)
    sergio = team.people["sergio"]

    box = decision_box(sergio, claim)

    paid = re.fullmatch(
        r"(R\$ [\d.]+,\d\d) \(R\$ 15\.000,00 de indenização \+ (R\$ [\d.]+,\d\d) de multa, "
        r"correção e juros, art\. 88\), se aprovado hoje, (\d\d/\d\d/\d{4})", box["Será pago"])
    assert paid, box["Será pago"]
    total, charges = money(paid.group(1)), money(paid.group(2))
    assert total == Decimal("15000.00") + charges
    assert paid.group(3) == f"{timezone.localdate():%d/%m/%Y}"
    fine = re.search(r"multa de (R\$ [\d.]+,\d\d), correção monetária de (R\$ [\d.]+,\d\d) e "
                     r"juros de mora de (R\$ [\d.]+,\d\d)", box["Encargos (art. 88)"])
    assert money(fine.group(1)) == Decimal("300.00")  # 2 % of R$ 15.000,00
    assert sum(money(fine.group(n)) for n in (1, 2, 3)) == charges
    assert "20 dia(s) de atraso" in box["Encargos (art. 88)"]
    # Every figure with a decimal comma: no "0.5484" nor "2.00%".
    figures = re.sub(r"R\$ [\d.]+,\d\d|\d{3}\.\d{3}\.\d{3}-\d\d|Lei 15\.040", "", box["_box"])
    assert not re.search(r"\d\.\d", figures)
    assert re.search(r"\(\d,\d{4} do mês\)", box["Encargos (art. 88)"])
    assert "pagar R$ 15.000,00 a Maria da Silva (***" not in box["_box"]

    workbench_services.approve(proposal_id=proposal.pk, user=sergio.user)

    assert Payment.objects.get().total == total

