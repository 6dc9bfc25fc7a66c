"""A proposal's terms read back exactly as proposed: types, amounts to the cent, dates,
and the keys the stored proposals always had."""

import datetime as dt
from decimal import Decimal

import pytest

from workbench.models import Proposal
from workbench.proposal_terms import (
    TERMS_OF_KIND,
    ClosingTerms,
    DenialTerms,
    ExpenseTerms,
    PaymentTerms,
    ReserveTerms,
    terms_of,
)

EXAMPLES = [
    DenialTerms(reason="Doença preexistente.", code=2, clause="Cláusula 7.1",
                internal_note="Prontuário de 2019.", late_justification="",
                denied_at=dt.datetime(2026, 11, 2, 14, 30, tzinfo=dt.UTC)),
    DenialTerms(reason="Fora da vigência.", code=1),
    ClosingTerms(reason="Aviso retirado pela família."),
    ReserveTerms(amount=Decimal("150000.10"), previous=Decimal("90000.00"), reason="Laudo."),
    ExpenseTerms(kind="pericia", kind_label="Perícia médica", supplier_name="Clínica X",
                 supplier_tax_id="11222333000181", amount=Decimal("1234.56"),
                 incurred_on=dt.date(2026, 10, 31), note="Junta médica"),
    PaymentTerms(beneficiary="8f0c2a1e-0000-4000-8000-000000000001", amount=Decimal("0.01"),
                 payee={"name": "Maria da Silva", "tax_id": "52998224725"},
                 payment_method={"pix": {"tipo-chave": "cpf", "chave": "52998224725"}}),
]


@pytest.mark.parametrize("terms", EXAMPLES, ids=lambda terms: type(terms).__name__)
def test_terms_survive_the_json_round_trip_with_their_types(terms):
    stored = terms.to_json()
    proposal = Proposal(kind=terms.KIND, arguments=stored)

    assert terms_of(proposal) == terms
    assert TERMS_OF_KIND[terms.KIND] is type(terms)
    assert all(not isinstance(value, (Decimal, dt.date)) for value in stored.values())


def test_the_stored_keys_are_those_proposals_always_had():
    assert ReserveTerms(amount=Decimal("1"), previous=Decimal("2"), reason="r").to_json() == {
        "amount": "1", "from": "2", "reason": "r"}
    assert set(EXAMPLES[0].to_json()) == {"reason", "code", "clause", "internal_note",
                                          "late_justification", "denied_at"}


def test_every_kind_of_proposal_has_its_terms():
    assert set(TERMS_OF_KIND) == set(Proposal.Kind.values)
