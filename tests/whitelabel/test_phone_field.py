"""The hosted opening's phone: one field with the DDD, taken as people type it, never
cut short by a ``maxlength``."""

import pytest

from claims.models import Claim
from tests.support.hosted import NEW, opening, post_form, text

DEATH = f"{NEW}?cobertura=cobertura/morte"


def test_the_phone_field_is_a_phone_field_that_cuts_nothing(insured):
    form = insured.get(DEATH).content.decode()

    assert "Celular ou telefone, com DDD" in form and 'type="tel"' in form
    assert 'maxlength="9"' not in form and 'name="contact_area_code"' not in form


@pytest.mark.parametrize("typed", [
    "(11) 91234-5678", "11 91234 5678", "011912345678", "+55 11 91234-5678"])
def test_the_phone_is_taken_as_people_type_it(insured, typed):
    response = post_form(insured, DEATH, opening(contact_phone=typed, contact_email=""))

    assert response.status_code == 302, text(response)
    claim = Claim.objects.get()
    assert (claim.contact_phone_area_code, claim.contact_phone_number) == ("11", "912345678")


def test_a_phone_without_its_ddd_is_asked_again_with_it(insured):
    response = post_form(insured, DEATH, opening(contact_phone="91234-5678", contact_email=""))

    assert "Informe o número com o DDD, como (11) 91234-5678." in text(response)
    assert 'value="91234-5678"' in text(response)  # what was typed stays in the field
    assert not Claim.objects.exists()


def test_the_insureds_phone_is_offered_as_people_read_it(insured, sale):
    sale.insured_phone_area_code, sale.insured_phone_number = "21", "998765432"
    sale.save(update_fields=["insured_phone_area_code", "insured_phone_number"])

    form = text(insured.get(f"{NEW}?cobertura=cobertura/perda-de-renda"))

    assert 'value="(21) 99876-5432"' in form
