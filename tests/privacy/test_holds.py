"""Legal holds: placed in the admin or from the shell, with a reason and a reference;
released by two people (one asks, another confirms), never by the one who asked."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction
from django.utils import timezone

from claims import roles as claim_roles
from privacy import roles
from privacy.errors import HoldRefused
from privacy.models import LegalHold
from privacy.services import holds
from tests.support.factories import ClaimFactory, SaleFactory
from tests.support.lifecycle import logged_in, staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def dora():
    return staff("dora", roles.PRIVACY)


@pytest.fixture
def eli():
    return staff("eli", roles.PRIVACY)


def test_a_hold_needs_a_reason_a_reference_and_exactly_one_target(dora):
    claim = ClaimFactory()
    with pytest.raises(HoldRefused, match="motivo"):
        holds.place_hold(user=dora, claim=claim, reason=" ", reference="123")
    with pytest.raises(HoldRefused, match="referência"):
        holds.place_hold(user=dora, claim=claim, reason="Ação", reference="")
    with pytest.raises(HoldRefused, match="exatamente um"):
        holds.place_hold(user=dora, claim=claim, sale=claim.sale, reason="Ação",
                         reference="123")
    with pytest.raises(HoldRefused, match="CPF inválido"):
        holds.place_hold(user=dora, cpf="123.456.789-00", reason="Ação", reference="123")
    assert not LegalHold.objects.exists()


def test_the_release_needs_a_second_person(dora, eli):
    hold = holds.place_hold(user=dora, cpf="529.982.247-25", reason="Ação de cobrança",
                            reference="0001234-56.2030.8.26.0100")
    assert hold.cpf == "52998224725" and hold.placed_by == "usuario:dora"
    with pytest.raises(HoldRefused, match="Peça a liberação"):
        holds.confirm_release(hold, user=eli)

    holds.request_release(hold, user=dora, reason="Trânsito em julgado.")
    with pytest.raises(HoldRefused, match="segunda pessoa"):
        holds.confirm_release(hold, user=dora)
    hold.refresh_from_db()
    assert hold.is_active

    holds.confirm_release(hold, user=eli)
    hold.refresh_from_db()
    assert not hold.is_active and hold.released_by == "usuario:eli"
    assert hold.release_requested_by == "usuario:dora"
    with pytest.raises(HoldRefused, match="já foi liberada"):
        holds.request_release(hold, user=eli, reason="De novo.")


def test_the_database_refuses_a_release_by_the_one_who_asked(dora):
    hold = holds.place_hold(user=dora, claim=ClaimFactory(), reason="Ação", reference="1")
    with pytest.raises(IntegrityError), transaction.atomic():
        LegalHold.objects.filter(pk=hold.pk).update(
            release_requested_by="usuario:dora", release_requested_at=timezone.now(),
            released_by="usuario:dora", released_at=timezone.now())


def test_a_withdrawn_release_request_keeps_the_hold(dora, eli):
    hold = holds.place_hold(user=dora, claim=ClaimFactory(), reason="Ação", reference="1")
    holds.request_release(hold, user=dora, reason="Acabou.")
    holds.withdraw_release_request(hold)
    hold.refresh_from_db()
    assert hold.is_active and hold.release_requested_at is None
    with pytest.raises(HoldRefused, match="Peça a liberação"):
        holds.confirm_release(hold, user=eli)


def test_the_shell_places_a_hold_on_a_claim_a_sale_or_a_cpf(capsys):
    claim = ClaimFactory()
    sale = SaleFactory()
    call_command("legal_hold", "place", "--claim", claim.number.lower(), "--reason",
                 "Ação judicial", "--reference", "0001234-56.2030.8.26.0100")
    call_command("legal_hold", "place", "--sale", str(sale.pk), "--reason",
                 "Processo SUSEP", "--reference", "15414.000123/2030-11")
    call_command("legal_hold", "place", "--cpf", "529.982.247-25", "--reason",
                 "Ação", "--reference", "0009999-00.2031.8.26.0100")
    out = capsys.readouterr().out
    assert f"colocada (sinistro {claim.number})" in out
    assert "(CPF 529.982.247-25)" in out
    placed = LegalHold.objects.order_by("id")
    assert [hold.target for hold in placed] == ["sinistro", "venda", "cpf"]
    assert all(hold.placed_by.startswith("operacao:") for hold in placed)

    call_command("legal_hold", "list")
    listing = capsys.readouterr().out
    assert listing.count("ativa") == 3 and "15414.000123/2030-11" in listing


def test_the_shell_says_what_is_wrong():
    with pytest.raises(CommandError, match="Sinistro SIN-NADA não encontrado"):
        call_command("legal_hold", "place", "--claim", "SIN-NADA", "--reason", "x",
                     "--reference", "y")
    with pytest.raises(CommandError, match="Venda nao-e-um-id não encontrada"):
        call_command("legal_hold", "place", "--sale", "nao-e-um-id", "--reason", "x",
                     "--reference", "y")
    for bad in ("111", "111.111.111-11"):  # stdnum takes eleven equal digits
        with pytest.raises(CommandError, match="CPF inválido"):
            call_command("legal_hold", "place", "--cpf", bad, "--reason", "x",
                         "--reference", "y")


def test_the_admin_places_and_two_people_release(dora, eli):
    claim = ClaimFactory(status="finalizado",
                         closed_at=timezone.now() - dt.timedelta(days=10))
    as_dora, as_eli = logged_in(dora), logged_in(eli)

    form = as_dora.get(f"/admin/privacy/legalhold/add/?target=sinistro&claim={claim.number}")
    assert form.status_code == 200 and claim.number in form.content.decode()
    placed = as_dora.post("/admin/privacy/legalhold/add/", {
        "target": "sinistro", "claim_number": claim.number, "reason": "Ação de cobrança",
        "reference": "0001234-56.2030.8.26.0100"}, follow=True)
    hold = LegalHold.objects.get()
    assert "está suspenso" in placed.content.decode()
    analyst = logged_in(staff("ana", claim_roles.ANALYST))
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "Suspenso por retenção legal" in page and "0001234-56.2030.8.26.0100" in page

    url = f"/admin/privacy/legalhold/{hold.pk}/liberacao/"
    as_dora.post(url, {"step": "pedir", "release_reason": "Processo arquivado."})
    refused = as_dora.post(url, {"step": "confirmar"}, follow=True).content.decode()
    assert "segunda pessoa" in refused
    hold.refresh_from_db()
    assert hold.is_active

    detail = as_eli.get(f"/admin/privacy/legalhold/{hold.pk}/change/").content.decode()
    assert "Dora" in detail and "Confirmar liberação" in detail
    as_eli.post(url, {"step": "confirmar"})
    hold.refresh_from_db()
    assert hold.released_by == "usuario:eli" and not hold.is_active


def test_an_analyst_sees_the_clock_but_cannot_place_or_release(dora):
    claim = ClaimFactory()
    hold = holds.place_hold(user=dora, claim=claim, reason="Ação", reference="1")
    analyst = logged_in(staff("ana", claim_roles.ANALYST))
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "Guarda dos dados pessoais" in page and "Colocar retenção legal" not in page
    assert analyst.get("/admin/privacy/legalhold/add/").status_code == 403
    assert analyst.post(f"/admin/privacy/legalhold/{hold.pk}/liberacao/",
                        {"step": "pedir", "release_reason": "x"}).status_code == 403
    assert analyst.get("/admin/privacy/legalhold/prazos/").status_code == 403
