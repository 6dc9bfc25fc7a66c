"""What analysts see: the claim list and page in Portuguese, who sees what, flat query
counts, and no edits by hand."""

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from claims.models import ClaimHistory, DocumentFile, DocumentRequirement, Event
from tests.support.lifecycle import logged_in, staff
from tests.support.factories import ClaimFactory, CoverageFactory, PaymentFactory, SaleFactory


@pytest.fixture
def staff_client(client, db):
    user = User.objects.create_superuser("supervisora", "s@example.com", "senha-forte-123")
    client.force_login(user)
    return client


def history(claim, n=1):
    for i in range(n):
        ClaimHistory.objects.create(claim=claim, action="abrir" if i == 0 else "ajustar-reserva",
                                    from_status="" if i == 0 else "criado",
                                    to_status="criado", actor="canal:banco-exemplo",
                                    note=f"passo {i}")


def test_the_claim_page_reads_like_a_claims_department_would_write_it(analyst, db):
    sale = SaleFactory(insured_name="Maria da Silva", insured_cpf="52998224725")
    claim = ClaimFactory(sale=sale, coverage=CoverageFactory(sale=sale, max_indemnity=Decimal("50000")),
                         amount=Decimal("14000.00"))
    PaymentFactory(claim=claim, amount=Decimal("1234.56"))
    history(claim)

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    for text in ["Sinistro " + claim.number, "Morte", "R$ 14.000,00", "R$ 12.765,44",
                 "529.982.247-25", sale.channel.name, "Valor restante", "LMI (Morte)",
                 "R$ 36.000,00",  # LMI left: 50.000 - 14.000
                 "Linha do tempo", "Sinistro aberto", "Canal banco-exemplo (API)",
                 "Prazo regulatório", "Pagamentos", "R$ 1.234,56"]:
        assert text in page, text
    for raw in ["ClaimHistory object", "cobertura/morte<", "14000,00", "Object ("]:
        assert raw not in page, raw


def test_the_claim_page_shows_phones_formatted_and_a_date_only_occurrence_as_a_date(
        analyst, settings, db):
    settings.TIME_ZONE = "America/Sao_Paulo"
    midnight = dt.datetime(2026, 11, 5, tzinfo=ZoneInfo("America/Sao_Paulo"))
    claim = ClaimFactory(contact_name="Pedro", contact_phone_area_code="11",
                         contact_phone_number="912345678", occurred_at=midnight)

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "(11) 91234-5678" in page
    assert "<dt>Data da ocorrência</dt><dd>05/11/2026</dd>" in page


def test_the_claim_list_shows_what_an_analyst_sorts_by(analyst, db):
    claim = ClaimFactory(status="em-regulacao", amount=Decimal("14000"),
                         notified_at=timezone.now() - dt.timedelta(days=3),
                         clock_kind="decisao", clock_deadline=timezone.now() + dt.timedelta(days=27))

    listing = analyst.get("/admin/claims/claim/?fila=todos").content.decode()

    for text in [claim.number, claim.sale.insured_name, claim.sale.channel.name, "Morte",
                 "Em regulação", "R$ 14.000,00", "decisão, 27 d", "Dias em aberto",
                 "Prazo regulatório"]:
        assert text in listing, text


@pytest.mark.parametrize("query", ["prazo=vencido", "prazo=5dias", "prazo=suspenso",
                                   "prazo=correndo", "cobertura=cobertura%2Fmorte",
                                   "status__exact=em-regulacao", "nature__exact=morte-natural",
                                   "q=Maria", "q=52998224725", "q=SIN-000000000000",
                                   "q=3f6c1a52-8d1e-4b7a-9c55-0a1b2c3d4e01", "q=não-é-uuid"])
def test_every_filter_and_search_answers(analyst, db, query):
    ClaimFactory()

    assert analyst.get(f"/admin/claims/claim/?{query}").status_code == 200


def test_the_deadline_filters_pick_overdue_and_due_soon_claims(analyst, db):
    now = timezone.now()
    overdue = ClaimFactory(clock_kind="decisao", clock_deadline=now - dt.timedelta(days=2))
    soon = ClaimFactory(clock_kind="decisao", clock_deadline=now + dt.timedelta(days=3))
    later = ClaimFactory(clock_kind="pagamento", clock_deadline=now + dt.timedelta(days=20))
    paused = ClaimFactory(clock_kind="decisao", clock_paused=True)

    def listed(query):
        page = analyst.get(f"/admin/claims/claim/?fila=todos&prazo={query}").content.decode()
        return {c for c in (overdue, soon, later, paused) if c.number in page}

    assert listed("vencido") == {overdue}
    assert listed("5dias") == {soon}
    assert listed("suspenso") == {paused}


def test_search_finds_a_claim_by_number_cpf_name_and_sale(analyst, db):
    sale = SaleFactory(insured_name="Joana Prado", insured_cpf="11144477735")
    claim = ClaimFactory(sale=sale, coverage=CoverageFactory(sale=sale))
    # Someone else, named so: a random name could be a Joana too.
    other = SaleFactory(insured_name="Carlos Lima")
    ClaimFactory(sale=other, coverage=CoverageFactory(sale=other))

    for term in [claim.number, "11144477735", "Joana", str(sale.pk)]:
        page = analyst.get("/admin/claims/claim/", {"q": term}).content.decode()
        assert claim.number in page and "1 sinistro" in page, term


def test_the_history_button_leads_to_the_timeline(analyst, db):
    claim = ClaimFactory()

    response = analyst.get(f"/admin/claims/claim/{claim.pk}/history/")

    assert response.status_code == 302
    assert response.url.endswith(f"/admin/claims/claim/{claim.pk}/change/#linha-do-tempo")


def test_events_read_in_portuguese_with_their_envelope(analyst, db):
    claim = ClaimFactory()
    event = Event.objects.create(channel=claim.sale.channel, claim=claim,
                                 name="sinistro-documentacao-aprovada", details={"a": 1})

    listing = analyst.get("/admin/claims/event/").content.decode()
    page = analyst.get(f"/admin/claims/event/{event.pk}/change/").content.decode()

    assert "Documentação aprovada" in listing
    assert "&quot;id-evento&quot;" in page and "&quot;versao&quot;: &quot;1&quot;" in page


# --- who sees what ---------------------------------------------------------------------


def test_staff_without_a_claims_role_see_nothing_of_claims(db):
    nobody = logged_in(staff("sem-papel", None))
    claim = ClaimFactory()

    assert nobody.get("/admin/claims/claim/").status_code == 403
    assert nobody.get(f"/admin/claims/claim/{claim.pk}/change/").status_code == 403
    assert nobody.get(f"/admin/claims/claim/{claim.pk}/acoes/finalizar/").status_code == 403
    assert "Sinistros" not in nobody.get("/admin/").content.decode().split("<main")[-1]


@pytest.mark.parametrize("path", ["/admin/oauth2_provider/application/",
                                  "/admin/oauth2_provider/accesstoken/",
                                  "/admin/claims/channel/add/"])
def test_analysts_and_supervisors_cannot_reach_oauth_clients_or_create_channels(
        analyst, supervisor, path):
    assert analyst.get(path).status_code == 403
    assert supervisor.get(path).status_code == 403


def test_the_channel_page_shows_the_client_id_and_never_a_secret(supervisor, channel):
    page = supervisor.get(f"/admin/claims/channel/{channel.pk}/change/").content.decode()

    assert channel.application.client_id in page
    assert channel.plain_secret not in page
    assert channel.application.client_secret not in page  # not even the hash


def test_claims_cannot_be_edited_by_hand_in_the_admin(staff_client):
    claim = ClaimFactory()

    response = staff_client.post(f"/admin/claims/claim/{claim.pk}/change/", {"status": "finalizado"})

    assert response.status_code == 403
    claim.refresh_from_db()
    assert claim.status == "criado"


@pytest.mark.parametrize(
    "path",
    ["/admin/claims/channel/", "/admin/claims/sale/", "/admin/claims/documentrequirement/",
     "/admin/claims/event/", "/admin/claims/claim/"],
)
def test_every_admin_list_renders(staff_client, path):
    ClaimFactory()
    response = staff_client.get(path)
    assert response.status_code == 200


def test_lists_are_headed_by_what_they_list(analyst, supervisor, db):
    pages = {"/admin/workbench/proposal/": "Propostas", "/admin/claims/event/": "Eventos",
             "/admin/claims/documentrequirement/": "Documentos exigidos",
             "/admin/claims/claim/": "Meus sinistros"}
    for path, heading in pages.items():
        page = analyst.get(path).content.decode()
        assert f"<h1>{heading}</h1>" in page and "Selecione" not in page, path
        assert f"<title>{heading} |" in page, path


def test_a_document_requirement_names_its_coverage_in_words(supervisor, db):
    form = supervisor.get("/admin/claims/documentrequirement/add/").content.decode()
    created = supervisor.post("/admin/claims/documentrequirement/add/", {
        "coverage_name": "cobertura/morte", "nature": "", "doc_type": "laudo",
        "title": "Laudo do IML", "is_active": "on"})
    listed = supervisor.get("/admin/claims/documentrequirement/").content.decode()

    assert '<option value="cobertura/morte">Morte</option>' in form
    assert created.status_code == 302
    assert "Morte: Laudo do IML" in str(DocumentRequirement.objects.get(doc_type="laudo"))
    assert "cobertura/morte" not in listed.split('id="result_list"')[1].split("</table>")[0]


def test_an_unknown_or_malformed_claim_id_is_a_404(analyst, db):
    assert analyst.get("/admin/claims/claim/not-a-uuid/change/").status_code == 404
    assert analyst.get(
        "/admin/claims/claim/00000000-0000-0000-0000-000000000000/change/").status_code == 404


# --- query counts stay flat ----------------------------------------------------------------


def queries_for(client, path) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_the_claim_page_query_count_does_not_grow_with_payments_files_or_history(analyst, db):
    small, big = ClaimFactory(), ClaimFactory()
    for claim, n in ((small, 1), (big, 25)):
        history(claim, n)
        for i in range(n):
            PaymentFactory(claim=claim)
            DocumentFile.objects.create(
                claim=claim, doc_type="cpf-cnpj", file_name=f"f{i}.pdf", sent_at=timezone.now(),
                content_type="application/pdf", storage_key=f"k/{claim.pk}/{i}.pdf",
                status="recebido", upload_expires_at=timezone.now())

    assert queries_for(analyst, f"/admin/claims/claim/{big.pk}/change/") == \
        queries_for(analyst, f"/admin/claims/claim/{small.pk}/change/")


def test_the_claim_list_query_count_does_not_grow_with_claims(analyst, db):
    ClaimFactory()
    one = queries_for(analyst, "/admin/claims/claim/?fila=todos")
    for _ in range(20):
        history(ClaimFactory(), 3)

    assert queries_for(analyst, "/admin/claims/claim/?fila=todos") == one


def test_the_roles_come_from_a_data_migration_with_their_permissions(db):
    from django.contrib.auth.models import Group

    analyst = set(Group.objects.get(name="Analista de sinistros").permissions
                  .values_list("codename", flat=True))
    supervisor = set(Group.objects.get(name="Supervisor de sinistros").permissions
                     .values_list("codename", flat=True))

    assert {"view_claim", "work_claim", "open_claim"} <= analyst
    assert not {"deny_claim", "reopen_claim", "settle_payment",
                "register_payment_above_limit"} & analyst
    assert analyst < supervisor
    assert {"deny_claim", "reopen_claim", "settle_payment",
            "register_payment_above_limit"} <= supervisor


def test_seed_demo_keeps_what_other_apps_granted_the_roles(db, settings):
    from django.contrib.auth.models import Group
    from django.core.management import call_command

    settings.DEBUG = True
    call_command("seed_demo", stdout=open("/dev/null", "w"))

    codenames = set(Group.objects.get(name="Supervisor de sinistros").permissions
                    .values_list("codename", flat=True))
    assert {"view_subscription", "view_delivery", "deny_claim"} <= codenames
