"""The sale list's search (workbench.admin.search.sale_search) finds what Django's search of
``["=id", "insured_name", "=insured_cpf", "=proposal_id"]`` found, word by word, through
one indexed comparison per word; it also finds a name typed without its accents and a
CPF typed with its punctuation, which that search did not. The partners' sandbox sales
stay out. Runs on SQLite and PostgreSQL; the plans are in test_admin_search_indexes.py.
"""

import re
import uuid

import pytest
from django.contrib import admin
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from workbench.admin.sales import SaleAdmin
from claims.models import Sale
from claims.services import upsert_sales
from tests.support.factories import SaleFactory, make_channel

pytestmark = pytest.mark.django_db

LIST = "/admin/claims/sale/"
OLD_SEARCH_FIELDS = ["=id", "insured_name", "=insured_cpf", "=proposal_id"]


@pytest.fixture
def people(db):
    """name -> sale; a sandbox channel's sale with João's very name and another CPF."""
    people = {name: SaleFactory(insured_name=name, insured_cpf=cpf) for name, cpf in [
        ("João da Conceição Araújo", "52998224725"),
        ("Maria Silva", "11144477735"),
        ("Joana Prado", "39053344705"),
        ("José D'Ávila-Lins", "15350946056"),
    ]}
    sandbox = make_channel("Parceiro em testes")
    Sale.objects.filter(channel=sandbox).delete()  # its generated ones
    type(sandbox).objects.filter(pk=sandbox.pk).update(is_sandbox=True)
    people["sandbox"] = SaleFactory(channel=sandbox, insured_name="João da Conceição Araújo",
                                    insured_cpf="86288366757")
    return people


def found(client, term: str) -> set[str]:
    page = client.get(LIST, {"q": term}).content.decode()
    # The rows' links, not the term echoed in the search box.
    return set(re.findall(r'href="/admin/claims/sale/([0-9a-f-]{36})/change/', page))


def found_before(term: str) -> set[str]:
    """What Django's own search of the old search fields finds, on the list's queryset."""
    old = SaleAdmin(Sale, admin.site)
    old.search_fields = OLD_SEARCH_FIELDS
    request = RequestFactory().get(LIST)
    queryset, _ = admin.ModelAdmin.get_search_results(
        old, request, Sale.objects.filter(channel__is_sandbox=False), term)
    return {str(pk) for pk in queryset.values_list("pk", flat=True)}


def ids(people, *names) -> set[str]:
    return {str(people[name].pk) for name in names}


def terms_as_before(people) -> dict[str, set[str]]:
    """Terms whose answer is the old search's, on SQLite and PostgreSQL alike."""
    joao, maria = people["João da Conceição Araújo"], people["Maria Silva"]
    return {
        "João": {"João da Conceição Araújo"},
        "joão": {"João da Conceição Araújo"},
        "conceição araújo": {"João da Conceição Araújo"},
        "Araújo Conceição": {"João da Conceição Araújo"},  # every word, in any order
        "Maria": {"Maria Silva"},
        "silva": {"Maria Silva"},
        "mar": {"Maria Silva"},  # part of a word
        "Jo": {"João da Conceição Araújo", "Joana Prado", "José D'Ávila-Lins"},
        "prado jo": {"Joana Prado"},
        "Lins": {"José D'Ávila-Lins"},
        "52998224725": {"João da Conceição Araújo"},
        str(joao.pk): {"João da Conceição Araújo"},
        str(joao.pk).upper(): {"João da Conceição Araújo"},
        str(maria.proposal_id): {"Maria Silva"},
        f"maria {maria.insured_cpf}": {"Maria Silva"},  # a name and a CPF: both must match
        f"joão {maria.insured_cpf}": set(),
        "529982": set(),  # part of a CPF: it is compared whole
        "11144477736": set(),  # a wrong check digit
        str(uuid.uuid4()): set(),
        "Xzqwv": set(),
        # The sandbox channel's sale: its CPF and its id find nothing.
        "86288366757": set(),
        str(people["sandbox"].pk): set(),
    }


def test_every_kind_of_term_finds_what_it_found_before(analyst, people):
    for term, names in terms_as_before(people).items():
        expected = ids(people, *names)
        assert found(analyst, term) == expected, term
        assert found_before(term) == expected, term  # what the old search gave, here too


@pytest.mark.parametrize(("term", "name"), [
    ("joao", "João da Conceição Araújo"),
    ("JOAO CONCEICAO", "João da Conceição Araújo"),
    ("JOÃO", "João da Conceição Araújo"),  # SQLite's UPPER knew no Ã
    ("jose davila", "José D'Ávila-Lins"),
    ("davilalins", "José D'Ávila-Lins"),
    ("d'ávila-lins", "José D'Ávila-Lins"),  # Django read the apostrophe as a quote
    ("529.982.247-25", "João da Conceição Araújo"),
    (" 529.982.247-25 ", "João da Conceição Araújo"),
    ("529982247-25", "João da Conceição Araújo"),
])
def test_names_without_accents_and_punctuated_cpfs_are_found_now(analyst, people, term, name):
    assert found(analyst, term) == ids(people, name)
    assert found_before(term) <= ids(people, name)


def test_an_id_typed_without_its_hyphens_is_found_on_every_database(analyst, people):
    joao = people["João da Conceição Araújo"]
    for term in (joao.pk.hex, joao.pk.hex.upper(), people["Maria Silva"].proposal_id.hex):
        expected = {str(joao.pk)} if term.lower() == joao.pk.hex else ids(people, "Maria Silva")
        assert found(analyst, term) == expected, term
        assert found_before(term) <= expected, term  # SQLite's found it, PostgreSQL's not


def test_a_term_with_nothing_to_compare_finds_nothing(analyst, people):
    assert found(analyst, "--") == set()
    assert found(analyst, "") == ids(people, "João da Conceição Araújo", "Maria Silva",
                                     "Joana Prado", "José D'Ávila-Lins")


def test_the_folded_name_follows_the_name(people):
    sale = people["Maria Silva"]
    sale.insured_name = "Maria Ângela Silva"
    sale.save(update_fields=["insured_name"])
    assert Sale.objects.get(pk=sale.pk).search_name == "maria angela silva"


def test_an_import_folds_the_names_it_writes(analyst, people):
    channel = people["Maria Silva"].channel
    row = {field: getattr(people["Maria Silva"], field) for field in (
        "id", "proposal_id", "product_combo_id", "affiliation_id", "status", "insured_cpf",
        "insured_email", "valid_from", "valid_until", "max_guarantee")}
    upsert_sales(channel=channel, rows=[{**row, "insured_name": "Márcia Sílvia Peçanha",
                                         "coverages": []}])

    assert found(analyst, "marcia pecanha") == ids(people, "Maria Silva")
    assert found(analyst, "maria") == set()


def statements(client, term: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(LIST, {"q": term}).status_code == 200
    return len(captured.captured_queries)


def test_a_search_page_costs_the_same_statements_for_one_sale_or_many(analyst, people):
    one = {term: statements(analyst, term) for term in ("Maria", "52998224725", "nada")}
    channel = people["Maria Silva"].channel
    for n in range(15):
        SaleFactory(channel=channel if n % 2 else make_channel(), insured_name=f"Maria {n}")

    assert statements(analyst, "Maria") == one["Maria"]
    # Every kind of term that finds a sale costs the same; one that finds none, one
    # statement less (no rows to read for its ids).
    assert one["Maria"] == one["52998224725"] == statements(analyst, str(people["Maria Silva"].pk))
    assert one["nada"] == one["Maria"] - 1
