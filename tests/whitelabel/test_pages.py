"""The insured person's pages over HTTP: what they show, opening a claim with the API's
rules, payment data, and the walls around one sale."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.utils import timezone

from claims import roles, services
from claims.models import Claim, ClaimHistory, Event
from workbench.models import AssignmentRule, Team, TeamMember
from claims.workflow import ClaimStatus
from tests.support.lifecycle import form_values, staff
from tests.support.factories import ClaimFactory, PaymentFactory, SaleFactory
from tests.support.hosted import NEW, PAYMENT_DETAILS, generate_link, open_session, opening, post_form, text
from whitelabel.models import HostedPages

def test_home_greets_who_asked_and_lists_coverages_and_claims_in_words(insured, sale):
    ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/perda-de-renda"),
                 status=ClaimStatus.PENDING_DOCUMENTS, nature="perda-de-renda-desemprego",
                 requester_name=sale.insured_name)

    page = text(insured.get("/segurado/"))

    assert f"Olá, {sale.insured_name}" in page and "Seus sinistros" in page
    for words in ("Morte", "Perda de renda", "Invalidez permanente"):
        assert words in page
    assert "Aguardando seus documentos" in page
    assert "cobertura/" not in page and "pendente-de-documentacao</" not in page
    assert "Comunicar um sinistro" in page


def test_pages_carry_the_channels_brand(insured, channel):
    HostedPages.objects.create(channel=channel, display_name="Banco Azul", primary_color="#FFD400")

    page = insured.get("/segurado/")
    html = page.content.decode()

    assert "Banco Azul" in html
    assert "--brand: #FFD400; --brand-text: #000000;" in html  # dark text on yellow
    nonce = re.search(r'<style nonce="([^"]+)"', html).group(1)
    assert f"'nonce-{nonce}'" in page["Content-Security-Policy"]


def test_every_page_has_a_content_security_policy_and_is_not_cached(insured):
    for path in ("/segurado/", NEW):
        response = insured.get(path)
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy and "'unsafe-inline'" not in policy
        assert response["Cache-Control"] == "no-store"


def test_several_coverages_are_chosen_first(insured):
    page = text(insured.get(NEW))

    assert "Qual cobertura você quer acionar?" in page
    assert 'value="cobertura/morte"' in page and "Invalidez permanente" in page


def test_the_form_offers_only_the_natures_of_the_chosen_coverage(insured):
    page = text(insured.get(NEW, {"cobertura": "cobertura/perda-de-renda"}))

    assert "Perda de renda por desemprego" in page
    assert "Morte natural" not in page


def test_a_coverage_without_natures_asks_for_none(insured):
    page = text(insured.get(NEW, {"cobertura": "cobertura/invalidez-permanente"}))

    assert 'name="nature"' not in page


def test_the_form_is_prefilled_from_the_sale_and_the_links_payment_details(api, sale):
    insured = open_session(generate_link(api, sale, **{"detalhes-pagamento": PAYMENT_DETAILS})["url"])

    page = text(insured.get(NEW, {"cobertura": "cobertura/perda-de-renda"}))

    assert f'value="{sale.insured_name}"' in page
    assert 'value="segurado@example.com"' in page
    assert 'value="maria@example.com"' in page and 'value="52998224725"' in page


def test_the_links_heir_is_offered_and_kept_whole_when_the_person_confirms(api, sale):
    heir = {"tipo": "outro", "nome": "Maria da Silva", "cpf-ou-cnpj": "52998224725",
            "data-nascimento": "1961-03-14", "participacao": 62.5, "parentesco": "conjuge",
            "endereco": {"cep": "01310-100", "uf": "SP"}}
    insured = open_session(generate_link(api, sale, **{"detalhes-pagamento": {
        **PAYMENT_DETAILS, "beneficiario": heir}})["url"])

    page = text(insured.get(NEW, {"cobertura": "cobertura/morte"}))

    assert 'value="Maria da Silva"' in page and 'value="52998224725"' in page
    assert 'value="62,50"' in page
    assert '<option value="conjuge" selected>' in page
    # The person confirms what the page offered.
    confirmed = opening(**{
        "pagamento-metodo_pagamento": "pix", "pagamento-pix_chave": "maria@example.com",
        "pagamento-beneficiario_nome": "Maria da Silva",
        "pagamento-beneficiario_cpf_ou_cnpj": "52998224725",
        "pagamento-beneficiario_participacao": "62,50",
        "pagamento-beneficiario_parentesco": "conjuge"})
    assert post_form(insured, f"{NEW}?cobertura=cobertura/morte", confirmed).status_code == 302
    kept = Claim.objects.get().beneficiaries.get()
    assert (kept.share, kept.relationship) == (Decimal("62.50"), "conjuge")
    # Not asked on the page, the link's word for the same person stays.
    assert kept.birth_date == dt.date(1961, 3, 14)
    assert (kept.postal_code, kept.state) == ("01310100", "SP")


def test_a_death_is_reported_by_someone_else_so_nothing_of_the_insured_is_prefilled(insured,
                                                                                  sale):
    page = text(insured.get(NEW, {"cobertura": "cobertura/morte"}))

    assert sale.insured_name not in page.split("Comunicar sinistro", 1)[1].split("Sair")[0]
    assert 'value="segurado@example.com"' not in page


def test_a_used_up_limit_is_explained_in_plain_words(insured, sale, channel):
    sale.max_guarantee = 0
    sale.save()

    response = post_form(insured, f"{NEW}?cobertura=cobertura/morte", opening())

    assert "O valor total do seu seguro já foi usado por outros sinistros" in text(response)
    assert f"Fale com {channel.name} para saber como seguir." in text(response)
    assert "LMG" not in text(response)


def test_a_tax_id_typed_with_punctuation_is_accepted(insured):
    data = opening(**{"pagamento-metodo_pagamento": "pix",
                      "pagamento-beneficiario_nome": "Ana", "pagamento-pix_chave": "(11) 91234-5678",
                      "pagamento-beneficiario_cpf_ou_cnpj": "529.982.247-25"})

    assert post_form(insured, f"{NEW}?cobertura=cobertura/morte", data).status_code == 302
    heir = Claim.objects.get().beneficiaries.get()
    assert (heir.tax_id, heir.payment_method["pix"]["key"]) == ("52998224725", "+5511912345678")


def test_opening_a_claim_runs_the_apis_service(insured, sale, death_certificate):
    response = post_form(insured, f"{NEW}?cobertura=cobertura/morte", opening())

    claim = Claim.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/segurado/sinistros/{claim.number}"
    assert claim.sale == sale and claim.status == ClaimStatus.PENDING_DOCUMENTS
    assert claim.nature == "morte-natural" and claim.requester_name == "Ana Souza"
    assert timezone.localtime(claim.occurred_at).time() == dt.time(0, 0)
    history = ClaimHistory.objects.get(claim=claim)
    assert history.actor.startswith("segurado:link ")
    assert Event.objects.get(claim=claim).name == "sinistro-criado"
    page = text(insured.get(response["Location"]))
    assert f"Sinistro {claim.number} comunicado." in page
    assert "Certidão de óbito" in page and "Aguardando envio." in page


def test_a_claim_opened_on_the_pages_has_an_owner_at_once(insured, sale):
    team = Team.objects.create(name="Vida")
    AssignmentRule.objects.create(team=team)
    TeamMember.objects.create(team=team, user=staff("zuleica", roles.ANALYST))

    post_form(insured, f"{NEW}?cobertura=cobertura/morte", opening())

    claim = Claim.objects.get()
    assert (claim.team, claim.owner.username) == (team, "zuleica")
    page = text(insured.get(f"/segurado/sinistros/{claim.number}"))
    assert claim.number in page and "Zuleica" not in page and "Distribuído" not in page


def test_the_actor_is_the_channels_user_when_the_link_names_one(api, sale):
    insured = open_session(generate_link(api, sale, **{"id-usuario": "cliente-42"})["url"])

    post_form(insured, f"{NEW}?cobertura=cobertura/morte", opening())

    assert ClaimHistory.objects.get().actor == "segurado:cliente-42"


def test_payment_details_given_at_opening_are_validated_like_the_apis(insured):
    bad = opening(**{"pagamento-metodo_pagamento": "pix",
                     "pagamento-beneficiario_nome": "Ana", "pagamento-beneficiario_cpf_ou_cnpj":
                     "11111111111", "pagamento-pix_chave": "ana@example.com"})

    response = post_form(insured, f"{NEW}?cobertura=cobertura/morte", bad)

    assert response.status_code == 200
    assert "CPF inválido" in text(response)
    assert not Claim.objects.exists()
    good = {**bad, "pagamento-beneficiario_cpf_ou_cnpj": "52998224725"}
    assert post_form(insured, f"{NEW}?cobertura=cobertura/morte", good).status_code == 302
    assert Claim.objects.get().beneficiaries.get().payment_method == {
        "method": "pix", "pix": {"key": "ana@example.com"}}


@pytest.mark.parametrize("overrides, message", [
    ({"nature": ""}, "Este campo é obrigatório."),
    ({"occurred_at": (timezone.localdate() + dt.timedelta(days=3)).isoformat()},
     "A data da ocorrência não pode estar no futuro."),
    ({"contact_email": "", "contact_phone": "", "contact_area_code": ""},
     "Informe e-mail ou telefone da pessoa para contato."),
    ({"occurred_at": "2019-05-01"}, "Esta data está fora do período coberto pelo seu seguro "
                                    "(01/01/2025 a 31/12/2030)."),
])
def test_errors_are_shown_on_the_form_in_portuguese(insured, overrides, message):
    response = post_form(insured, f"{NEW}?cobertura=cobertura/morte", opening(**overrides))

    assert response.status_code == 200
    assert message in text(response)
    assert not Claim.objects.exists()


def test_a_claim_opened_while_the_person_filled_the_form_is_linked(insured, sale, monkeypatch):
    form_page = f"{NEW}?cobertura=cobertura/morte"
    token_page = insured.get(form_page)  # drawn while the coverage was still free
    existing = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"))
    # The chooser's read ran before the claim appeared; the service's lock still sees it.
    monkeypatch.setattr("whitelabel.selectors.open_claim_numbers", lambda sale: {})
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"',
                      token_page.content.decode()).group(1)

    response = insured.post(form_page, {"csrfmiddlewaretoken": token, **opening()})

    assert "Já existe um sinistro aberto para esta cobertura." in text(response)
    assert f'href="/segurado/sinistros/{existing.number}"' in text(response)
    assert Claim.objects.count() == 1


def test_another_sales_claim_is_not_found_even_of_the_same_channel(insured, channel):
    elsewhere = ClaimFactory(sale=SaleFactory(channel=channel))
    other_channel = ClaimFactory()

    for claim in (elsewhere, other_channel):
        page = insured.get(f"/segurado/sinistros/{claim.number}")
        assert page.status_code == 404
        assert "Não encontramos esta página" in text(page)
        assert insured.get(f"/segurado/sinistros/{claim.number}/dados-pagamento").status_code == 404
    assert elsewhere.number not in text(insured.get("/segurado/"))


def test_a_form_posted_without_its_csrf_token_is_refused(insured):
    response = insured.post(f"{NEW}?cobertura=cobertura/morte", opening())

    assert response.status_code == 403
    assert not Claim.objects.exists()


def test_the_claim_page_shows_timeline_deadline_denial_and_payments(insured, sale):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.DENIED, denied_at=timezone.now(),
                         denial_reason="Evento anterior à contratação.")
    ClaimHistory.objects.create(claim=claim, action="abrir", to_status="criado", actor="canal:x")
    ClaimHistory.objects.create(claim=claim, action="ajustar-reserva", from_status="criado",
                                to_status="criado", actor="usuario:ana", note="interno")
    ClaimHistory.objects.create(claim=claim, action="recusar", from_status="criado",
                                to_status="recusado", actor="usuario:ana")
    PaymentFactory(claim=claim, amount="1234.56", status="concluido", paid_on=timezone.localdate(),
                   financial_transaction_id="TX-1")

    page = text(insured.get(f"/segurado/sinistros/{claim.number}"))

    assert "Recusado" in page and "Evento anterior à contratação." in page
    assert "Sinistro comunicado" in page and "Pedido recusado" in page
    assert "interno" not in page and "Reserva" not in page
    assert "R$ 1.234,56" in page and "pago em" in page
    assert "de indenização" not in page  # on time: the total is the indemnity


def test_a_late_payment_reads_as_its_total_with_the_indemnity_and_charges_apart(insured, sale):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"))
    PaymentFactory(claim=claim, amount="10000.00", late_fine="200.00",
                   monetary_correction="45.10", late_interest="55.45")

    page = text(insured.get(f"/segurado/sinistros/{claim.number}"))

    assert "<strong>R$ 10.300,55</strong> para Maria Beneficiária: programado" in page
    assert ("R$ 10.000,00 de indenização e R$ 300,55 de multa, correção e juros pelo atraso "
            "(Lei 15.040/2024, art. 88)") in page


def test_the_deadline_to_decide_is_shown_while_it_runs(insured, sale):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.DOCUMENTS_UNDER_REVIEW)
    opened = timezone.now() - dt.timedelta(days=20)
    ClaimHistory.objects.create(claim=claim, action="abrir", to_status="criado", actor="canal:x",
                                created_at=opened)

    page = text(insured.get(f"/segurado/sinistros/{claim.number}"))

    due = timezone.localdate(opened + dt.timedelta(days=30))
    assert f"A seguradora tem até {due:%d/%m/%Y} para decidir se o seguro cobre" in page


def test_payment_data_is_asked_only_while_the_claim_waits_for_it(insured, sale):
    living = ClaimFactory(sale=sale, nature="", status=ClaimStatus.UNDER_REGULATION,
                          coverage=sale.coverages.get(name="cobertura/invalidez-permanente"))
    death = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.UNDER_REGULATION)

    response = insured.get(f"/segurado/sinistros/{living.number}/dados-pagamento")
    early = text(insured.get(f"/segurado/sinistros/{death.number}/dados-pagamento"))

    assert response.status_code == 302
    assert "Informar dados de pagamento" not in text(insured.get(f"/segurado/sinistros/{living.number}"))
    # On a death the heirs may be named early (test_early_beneficiaries.py), not asked.
    assert "<h1>Informar beneficiários</h1>" in early
    assert "Informar dados de pagamento" not in text(insured.get(f"/segurado/sinistros/{death.number}"))


def test_payment_data_sent_from_the_page_returns_the_claim_to_analysis(insured, sale):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.PENDING_PAYMENT_DATA)
    page = f"/segurado/sinistros/{claim.number}/dados-pagamento"
    data = {"beneficiario_nome": "Maria da Silva", "beneficiario_parentesco": "conjuge",
            "beneficiario_cpf_ou_cnpj": "52998224725", "metodo_pagamento": "ted",
            "banco": "001", "agencia": "1234", "conta": "5678"}
    assert "Informar dados de pagamento" in text(insured.get(f"/segurado/sinistros/{claim.number}"))

    refused = post_form(insured, page, {**data, "banco": "1"})
    assert refused.status_code == 200
    assert "Banco não encontrado" in text(refused)

    response = post_form(insured, page, data)

    claim.refresh_from_db()
    assert response.status_code == 302
    assert claim.status == ClaimStatus.UNDER_REGULATION
    assert claim.beneficiaries.get().name == "Maria da Silva"
    assert "Dados de pagamento recebidos" in text(insured.get(response["Location"]))


def test_on_a_death_the_requester_gives_each_heir_with_their_part(insured, sale):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.PENDING_PAYMENT_DATA, requester_name="Pedro Souza")
    page = f"/segurado/sinistros/{claim.number}/dados-pagamento"
    heir = {"beneficiario_nome": "Ana Souza", "beneficiario_parentesco": "conjuge",
            "beneficiario_participacao": "50", "beneficiario_cpf_ou_cnpj": "529.982.247-25",
            "metodo_pagamento": "pix", "pix_chave": "11 91234-5678"}

    form = text(insured.get(page))
    first = post_form(insured, page, heir)
    after_one = text(insured.get(page))
    too_much = post_form(insured, page, {**heir, "beneficiario_nome": "Bruno Souza",
                                         "beneficiario_cpf_ou_cnpj": "111.444.777-35",
                                         "beneficiario_participacao": "60"})
    second = post_form(insured, page, {**heir, "beneficiario_nome": "Bruno Souza",
                                       "beneficiario_parentesco": "filho",
                                       "beneficiario_cpf_ou_cnpj": "111.444.777-35"})

    assert "Olá, Pedro Souza" in form and sale.insured_name not in form.split("Olá")[1][:40]
    assert "O próprio segurado" not in form
    assert first["Location"] == page  # the next person
    assert ("<strong>Ana Souza</strong> (cônjuge): 50% da indenização, dados de pagamento "
            "recebidos") in after_one
    assert "Partes informadas: 50% de 100%" in after_one
    assert "somariam 110%" in text(too_much)
    assert second["Location"] == f"/segurado/sinistros/{claim.number}"
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.UNDER_REGULATION
    assert sorted(claim.beneficiaries.values_list("name", "share")) == [
        ("Ana Souza", 50), ("Bruno Souza", 50)]


def test_before_anyone_says_who_they_are_the_home_greets_nobody(insured, sale):
    home = text(insured.get("/segurado/"))

    assert f"<h1>Seguro de {sale.insured_name}</h1>" in home
    assert "Olá" not in home and "Seu seguro" not in home and "Seus sinistros" not in home


def test_a_death_greets_its_requester_never_the_deceased(insured, sale):
    ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/perda-de-renda"),
                 nature="perda-de-renda-desemprego", requester_name=sale.insured_name,
                 notified_at=timezone.now() - dt.timedelta(days=90))
    ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                 requester_name="Pedro Souza")

    home = text(insured.get("/segurado/"))

    assert "<h1>Olá, Pedro Souza</h1>" in home
    assert f"Seguro de {sale.insured_name}." in home
    assert f"Olá, {sale.insured_name}" not in home and "Seus sinistros" not in home


def test_a_living_claim_pays_the_insured_who_gives_only_how(insured, sale):
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/invalidez-permanente"),
                         nature="", status=ClaimStatus.PENDING_PAYMENT_DATA)
    page = f"/segurado/sinistros/{claim.number}/dados-pagamento"

    form = insured.get(page)
    response = post_form(insured, page, {
        **form_values(form), "metodo_pagamento": "pix", "pix_chave": "(21) 99876-5432"})

    assert response.status_code == 302, text(response)
    insured_person = claim.beneficiaries.get()
    assert (insured_person.kind, insured_person.tax_id, insured_person.payment_method["pix"]) == (
        "segurado", sale.insured_cpf, {"key": "+5521998765432"})


def test_the_home_page_reads_a_fixed_number_of_queries(insured, sale, django_assert_max_num_queries):
    for coverage in sale.coverages.all():
        services.open_claim(channel=sale.channel, sale_id=sale.pk, actor="canal:x",
                            coverage_name=coverage.name, occurred_at=timezone.now(),
                            requester_name="A", contact_name="A", contact_email="a@example.com",
                            nature={"cobertura/morte": "morte-natural",
                                    "cobertura/perda-de-renda": "perda-de-renda-desemprego"}.get(
                                        coverage.name, ""))
    with django_assert_max_num_queries(4):
        insured.get("/segurado/")


def test_the_claim_page_reads_a_fixed_number_of_queries(insured, sale, death_certificate,
                                                        django_assert_max_num_queries):
    post_form(insured, f"{NEW}?cobertura=cobertura/morte", opening())
    claim = Claim.objects.get()
    for _ in range(5):
        PaymentFactory(claim=claim, amount="10.00")
        ClaimHistory.objects.create(claim=claim, action="ajustar-reserva", actor="x",
                                    from_status=claim.status, to_status=claim.status)

    # The ninth: the beneficiaries of "Quem vai receber", all in one. The tenth: the
    # access log's INSERT (the person's own reading, LGPD art. 37, docs/privacy-access.md).
    with django_assert_max_num_queries(10):
        insured.get(f"/segurado/sinistros/{claim.number}")
