"""The requester of a death claim over the API: optionally who they are to the deceased
and their CPF (an addition to ``solicitante``), never the deceased's CPF; the analyst
reads both on the claim page."""

from claims.models import Claim
from tests.support.api import open_url, opening_body


def requester(**fields) -> dict:
    return {"solicitante": {"nome": "Pedro da Silva", **fields}}


def test_the_relationship_and_cpf_are_taken_and_kept(api, sale):
    response = api.post(open_url(sale.pk), opening_body(
        **requester(parentesco="filho", cpf="52998224725")), format="json")

    assert response.status_code == 200, response.content
    claim = Claim.objects.get()
    assert (claim.requester_relationship, claim.requester_tax_id) == ("filho", "52998224725")
    # Taken, never returned: the claim reads as the contract shows it.
    assert response.json()["solicitante"] == {"nome": "Pedro da Silva"}


def test_both_stay_optional_as_the_contract_has_them(api, sale):
    response = api.post(open_url(sale.pk), opening_body(), format="json")

    assert response.status_code == 200, response.content
    assert Claim.objects.get().requester_tax_id == ""


def test_the_deceased_cpf_is_refused_as_the_requesters(api, sale):
    response = api.post(open_url(sale.pk), opening_body(
        **requester(parentesco="filho", cpf=sale.insured_cpf)), format="json")

    assert response.status_code == 400
    [error] = response.json()["campos-invalidos"]
    assert error["campo"] == "solicitante.cpf"
    assert "o segurado que faleceu" in error["mensagem"]
    assert not Claim.objects.exists()


def test_a_wrong_cpf_or_relationship_is_told_by_field(api, sale):
    response = api.post(open_url(sale.pk), opening_body(
        **requester(parentesco="vizinho", cpf="52998224724")), format="json")

    assert response.status_code == 400
    fields = {e["campo"] for e in response.json()["campos-invalidos"]}
    assert fields == {"solicitante.parentesco", "solicitante.cpf"}


def test_the_analyst_reads_who_the_requester_is(api, sale, analyst):
    api.post(open_url(sale.pk), opening_body(
        **requester(parentesco="conjuge-ou-companheiro", cpf="52998224725")), format="json")
    claim = Claim.objects.get()

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "Relação com o segurado:</small> Cônjuge ou companheiro(a)" in page
    assert "CPF 529.982.247-25" in page
