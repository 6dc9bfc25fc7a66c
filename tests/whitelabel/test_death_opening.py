"""Opening a death claim on the hosted pages: the requester says who they are to the
deceased and gives their own CPF."""

from claims.models import Claim
from tests.support.hosted import NEW, opening, post_form, text

DEATH = f"{NEW}?cobertura=cobertura/morte"


def test_the_death_form_asks_who_the_requester_is_and_their_cpf_not_about_a_dismissal(insured):
    form = text(insured.get(DEATH))

    assert "Quem você é de quem faleceu?" in form
    for choice in ("Cônjuge ou companheiro(a)", "Filho(a)", "Pai ou mãe", "Irmão ou irmã",
                   "Outro parente", "Procurador(a) ou representante"):
        assert choice in form
    assert "Seu CPF" in form and "Data do falecimento" in form
    assert "demissão" not in form


def test_a_living_coverage_asks_neither(insured):
    form = text(insured.get(f"{NEW}?cobertura=cobertura/perda-de-renda"))

    assert "Comunicar sinistro" in form
    assert "Quem você é de quem faleceu?" not in form and 'name="requester_cpf"' not in form


def test_the_requester_relationship_and_cpf_are_kept_on_the_claim(insured, sale):
    response = post_form(insured, DEATH, opening(requester_relationship="conjuge-ou-companheiro",
                                                 requester_cpf="529.982.247-25"))

    assert response.status_code == 302, text(response)
    claim = Claim.objects.get()
    assert (claim.requester_relationship, claim.requester_tax_id) == (
        "conjuge-ou-companheiro", "52998224725")


def test_the_deceased_cpf_is_refused_as_the_requesters(insured, sale):
    response = post_form(insured, DEATH, opening(requester_cpf=sale.insured_cpf))

    assert response.status_code == 200
    assert (f"Este é o CPF de {sale.insured_name}. Informe o seu CPF, de quem está "
            "comunicando.") in text(response)
    assert not Claim.objects.exists()


def test_the_relationship_and_cpf_are_required_on_a_death(insured):
    response = post_form(insured, DEATH, opening(requester_relationship="", requester_cpf=""))

    page = text(response)
    assert page.count("Este campo é obrigatório") >= 2
    assert not Claim.objects.exists()
