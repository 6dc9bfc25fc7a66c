"""The claim list's search forgives: names without accents or capitals, any word of the
insured person's, the requester's or the contact's name, part of a claim number with or
without ``SIN-``, a CPF with or without punctuation, an ``id-venda``. The same answers
on SQLite and PostgreSQL (this file runs on both)."""

import re

import pytest

from claims.serializers import SaleSerializer
from claims.services import upsert_sales
from tests.support.lifecycle import open_claim
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory

pytestmark = pytest.mark.django_db


def claim_of(insured: str, cpf: str, **fields):
    sale = SaleFactory(insured_name=insured, insured_cpf=cpf)
    return ClaimFactory(sale=sale, coverage=CoverageFactory(sale=sale), **fields)


@pytest.fixture
def joao(db):
    return claim_of("João da Conceição Araújo", "52998224725",
                    requester_name="Márcia Peçanha", contact_name="Zoë D'Ávila-Lins")


@pytest.fixture
def others(db):
    return [claim_of("Maria Silva", "11144477735", requester_name="Carlos Lima",
                     contact_name="Carlos Lima"),
            claim_of("Joana Prado", "39053344705")]


def found(client, term: str) -> set[str]:
    """The claim numbers the list shows for a search (the list shows every queue then)."""
    return found_in(client, term)


def found_in(client, term: str, **params) -> set[str]:
    page = client.get("/admin/claims/claim/", {"q": term, **params}).content.decode()
    # The rows' links, not the term echoed in the search box.
    return set(re.findall(r'class="claim-number">(SIN-[0-9A-Z]{12})</span>', page))


@pytest.mark.parametrize("term", [
    "joao", "João", "JOAO", "conceicao", "joao conceicao", "Conceição João", "araujo",
    '"joão da conceição"',
])
def test_the_insured_persons_name_is_found_by_any_word_with_or_without_accents(
        analyst, joao, others, term):
    assert found(analyst, term) == {joao.number}


@pytest.mark.parametrize("term", ["pecanha", "Márcia", "zoe", "avila", "davila", "lins",
                                  "d'avila-lins"])
def test_the_requester_and_the_contact_are_found_by_name_too(analyst, joao, others, term):
    assert found(analyst, term) == {joao.number}


def test_every_word_must_match(analyst, joao, others):
    assert found(analyst, "joao silva") == set()
    assert found(analyst, "jo") == {joao.number, others[1].number}  # João, Joana


def test_a_claim_number_is_found_whole_or_in_part_with_or_without_the_prefix(
        analyst, joao, others):
    number = joao.number  # SIN- and 12 characters
    for term in [number, number.lower(), number[:10], number[:10].lower(), number[4:],
                 number[6:12], number[6:12].lower(), f"SIN {number[4:]}"]:
        assert found(analyst, term) == {joao.number}, term


@pytest.mark.parametrize("term", ["52998224725", "529.982.247-25", " 529.982.247-25 ",
                                  "529982", "529.982"])
def test_a_cpf_is_found_with_or_without_punctuation_whole_or_in_part(
        analyst, joao, others, term):
    assert found(analyst, term) == {joao.number}


def test_an_id_venda_is_found(analyst, joao, others):
    sale_id = str(joao.sale_id)
    for term in [sale_id, sale_id.upper(), sale_id.replace("-", "")]:
        assert found(analyst, term) == {joao.number}, term


@pytest.mark.parametrize("term", ["xyzzy", "joaquim", "00000000000", "--", "SIN-ZZZZZZZZZZZZ"])
def test_nonsense_finds_nothing(analyst, joao, others, term):
    page = analyst.get("/admin/claims/claim/", {"q": term}).content.decode()

    assert found(analyst, term) == set()
    assert "0 sinistros" in page


def test_a_search_looks_in_every_queue_and_a_chosen_queue_narrows_it(analyst, joao):
    # Ana lands on "Meus sinistros", which holds none of these: a search ignores that...
    assert found(analyst, "joao") == {joao.number}
    # ...unless she picks a queue herself.
    assert analyst.get("/admin/claims/claim/", {"q": "joao", "fila": "meus"}).status_code == 200
    assert found_in(analyst, "joao", fila="meus") == set()
    assert found_in(analyst, "joao", fila="todos") == {joao.number}


def test_a_claim_opened_through_the_api_is_found_by_its_names_and_number(
        analyst, api, channel):
    sale = SaleFactory(channel=channel, insured_name="Antônio Gonçalves")
    CoverageFactory(sale=sale, name="cobertura/morte")
    claim = open_claim(api, sale, **{"solicitante": {"nome": "Irmã Dulcinéia"}})

    for term in ["antonio goncalves", "dulcineia", "pedro", claim.number[5:11]]:
        assert found(analyst, term) == {claim.number}, term


def row_of(sale) -> dict:
    """The sale as a channel's import file would carry it."""
    serializer = SaleSerializer(data=SaleSerializer(sale).data)
    assert serializer.is_valid(), serializer.errors
    return serializer.validated_data


def test_a_renamed_insured_person_is_found_by_the_new_name_only(analyst, joao, others):
    row = {**row_of(joao.sale), "insured_name": "João Batista", "insured_cpf": "86288366757"}

    upsert_sales(channel=joao.sale.channel, rows=[row])

    assert found(analyst, "batista") == {joao.number}
    assert found(analyst, "862.883.667-57") == {joao.number}
    assert found(analyst, "conceicao") == set()
    assert found(analyst, "52998224725") == set()
    assert found(analyst, "pecanha") == {joao.number}  # the claim's own names stay
