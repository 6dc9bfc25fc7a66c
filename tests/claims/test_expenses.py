"""Regulation expenses: an analyst registers what settling a claim cost (a medical
examination, an investigation) with its supplier and date, within the payment
authority; above it, a supervisor approves. They never touch what beneficiaries get."""

from decimal import Decimal

import pytest
from django.utils import timezone

from claims import errors, services
from claims.models import Expense
from workbench.models import Proposal
from tests.support.lifecycle import (
    DENIAL, HEIR_DETAILS, act, acted, claim_under_review, page_messages,
)
from workbench import services as workbench_services

pytestmark = pytest.mark.usefixtures("local_media")


@pytest.fixture
def claim(api, sale, analyst):
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    return acted(analyst, claim, "aprovar-documentacao")


def expense(client, claim, amount="850,00", **extra):
    return act(client, claim, "registrar-despesa", {
        "kind": "pericia-medica", "supplier_name": "Clínica Perícias Ltda.",
        "supplier_tax_id": "11.222.333/0001-81", "amount": amount,
        "incurred_on": timezone.localdate().isoformat(), **extra})


def test_an_analyst_registers_an_expense_shown_on_the_claim_page(claim, analyst):
    response = expense(analyst, claim)

    assert "Despesa de R$ 850,00 (perícia médica, Clínica Perícias Ltda.) registrada." in \
        page_messages(analyst, response)
    registered = Expense.objects.get()
    assert (registered.supplier_tax_id, registered.registered_by) == ("11222333000181",
                                                                      analyst.user)
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "Despesas de regulação" in page and "Clínica Perícias Ltda." in page
    assert "11.222.333/0001-81" in page
    claim.refresh_from_db()
    assert claim.amount == Decimal("50000.00")  # the indemnity is untouched
    assert claim.history.filter(action="registrar-despesa").exists()


def test_a_closed_claim_takes_a_late_invoice(claim, supervisor, analyst):
    claim = acted(supervisor, claim, "recusar", {**DENIAL, "reason": "Sem cobertura.",
                                                "note": "x"})
    assert "registrada" in page_messages(analyst, expense(analyst, claim))


@pytest.mark.parametrize(("field", "value", "message"), [
    ("amount", "0,00", "Certifique-se que este valor seja maior ou igual a 0"),
    ("supplier_tax_id", "123", "Informe um CPF (11 dígitos) ou um CNPJ (14)."),
    ("incurred_on", "2999-01-01", "A data da despesa não pode estar no futuro."),
])
def test_bad_input_is_a_form_error(claim, analyst, field, value, message):
    response = expense(analyst, claim, **{field: value})

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Expense.objects.exists()


def test_above_the_authority_the_analyst_proposes_and_a_supervisor_approves(
        claim, analyst, supervisor, settings):
    settings.PAYMENT_AUTHORITY_LIMIT = Decimal("1000.00")
    expense(analyst, claim, amount="600,00")

    response = expense(analyst, claim, amount="600,00")  # 1.200,00 on the claim

    assert "proposta enviada ao supervisor" in page_messages(analyst, response)
    assert Expense.objects.count() == 1
    proposal = Proposal.objects.get(kind=Proposal.Kind.EXPENSE)
    assert "registrar despesa de R$ 600,00 a Clínica Perícias Ltda." in proposal.summary
    page = supervisor.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "R$ 600,00 já registradas" in page

    workbench_services.approve(proposal_id=proposal.pk, user=supervisor.user)

    second = Expense.objects.order_by("created_at").last()
    assert (second.registered_by, second.proposed_by) == (supervisor.user, analyst.user)


def test_the_service_refuses_an_analyst_above_the_authority(claim, analyst, settings):
    settings.PAYMENT_AUTHORITY_LIMIT = Decimal("100.00")
    with pytest.raises(errors.ActionNotPermitted, match="despesas do sinistro somariam"):
        services.register_expense(claim_id=claim.pk, user=analyst.user, kind="sindicancia",
                                  supplier_name="X", supplier_tax_id="", amount=Decimal("101"),
                                  incurred_on=timezone.localdate())
