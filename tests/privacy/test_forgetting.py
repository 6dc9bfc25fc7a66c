"""Forgetting: a claim past its retention clock is anonymised, unless a legal hold keeps
it (on the claim, its sale or a CPF in it); a dry run changes nothing; a second run
changes nothing either; the command speaks Portuguese and never prints a name."""

import datetime as dt
from io import StringIO
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from claims.models import Beneficiary, Claim, ClaimHistory, Payment, Sale
from privacy.forgetting import runs
from privacy.forgetting.redaction import ANONYMISED_CPF, ANONYMISED_NAME
from privacy.models import AccessRecord, Anonymisation, RetentionRun
from privacy.services.holds import confirm_release, place_hold, request_release
from tests.support.factories import (BeneficiaryFactory, ClaimFactory, CoverageFactory,
                                     PaymentFactory, SaleFactory)
from tests.support.lifecycle import staff

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 11, 28)
INSURED = "Joana Segurada Teixeira"
INSURED_CPF = "39053344705"
HEIR = "Maria Beneficiária"
HEIR_CPF = "52998224725"


@pytest.fixture(autouse=True)
def five_years(settings):
    settings.RETENTION_YEARS = 5
    settings.RETENTION_BATCH_SIZE = 2


def closed_claim(*, closed_on=dt.date(2020, 3, 1), valid_until=dt.date(2020, 1, 31),
                 insured=INSURED, cpf=INSURED_CPF, heir_cpf=HEIR_CPF) -> Claim:
    sale = SaleFactory(insured_name=insured, insured_cpf=cpf, valid_from=dt.date(2019, 2, 1),
                       valid_until=valid_until, insured_email="joana@example.com",
                       insured_phone_area_code="11", insured_phone_number="912345678")
    claim = ClaimFactory(coverage=CoverageFactory(sale=sale), status="finalizado",
                         requester_name=HEIR, requester_tax_id=heir_cpf,
                         narrative=f"{INSURED} faleceu em casa.",
                         additional_data={"endereco": "Rua das Flores, 10"})
    Claim.objects.filter(pk=claim.pk).update(closed_at=timezone.make_aware(
        dt.datetime.combine(closed_on, dt.time(12))))
    heir = BeneficiaryFactory(claim=claim, name=HEIR, tax_id=heir_cpf, email="maria@example.com",
                              phone="11987654321", postal_code="01310100")
    PaymentFactory(claim=claim, beneficiary=heir, amount=Decimal("1500.00"),
                   beneficiary_tax_id=heir_cpf, destination="pix:maria@example.com",
                   paid_on=dt.date(2020, 2, 20), status="concluido",
                   financial_transaction_id=f"341:{claim.number}",
                   note=f"Pago a {HEIR}, CPF {heir_cpf}.")
    ClaimHistory.objects.create(claim=claim, action="nota", actor="teste",
                                note=f"Falei com {HEIR} (maria@example.com).")
    AccessRecord.objects.create(claim=claim, kind="pagina")
    return Claim.objects.get(pk=claim.pk)


def run(**kwargs):
    return runs.run_retention(today=TODAY, started_by="teste", **kwargs)


def test_a_claim_past_its_clock_is_anonymised_with_evidence_and_no_personal_data():
    claim = closed_claim()
    amount = Payment.objects.get().amount

    outcome = run()

    assert outcome.claims == [claim.number]
    claim.refresh_from_db()
    assert claim.requester_name == ANONYMISED_NAME and claim.requester_tax_id == ANONYMISED_CPF
    assert claim.narrative == "" and claim.additional_data == {}
    assert INSURED.lower().split()[0] not in claim.search_text
    assert claim.number.lower().replace("-", "") in claim.search_text
    heir = Beneficiary.objects.get()
    assert (heir.name, heir.tax_id, heir.email, heir.phone, heir.payment_method) == (
        ANONYMISED_NAME, ANONYMISED_CPF, "", "", None)
    payment = Payment.objects.get()
    assert payment.amount == amount and payment.paid_on == dt.date(2020, 2, 20)
    assert HEIR not in payment.note and HEIR_CPF not in payment.note
    assert "maria@example.com" not in ClaimHistory.objects.get(action="nota").note
    assert not AccessRecord.objects.filter(claim=claim).exists()
    sale = Sale.objects.get()
    assert (sale.insured_name, sale.insured_cpf, sale.insured_email) == (
        ANONYMISED_NAME, ANONYMISED_CPF, "")
    evidence = Anonymisation.objects.get(claim=claim)
    assert evidence.clock_ended_on == dt.date(2025, 3, 1)
    assert "605/2020" in evidence.rule
    assert evidence.removed["beneficiarios"] == 1 and evidence.removed["registros_de_acesso"] == 1
    assert HEIR not in str(evidence.removed) and INSURED not in str(evidence.removed)
    done = RetentionRun.objects.get()
    assert (done.status, done.claims_anonymised, done.sales_anonymised) == ("concluida", 1, 1)


def test_every_heir_of_a_claim_gets_a_placeholder_of_their_own():
    claim = closed_claim()
    BeneficiaryFactory(claim=claim, name="Pedro Herdeiro", tax_id="39053344705", share=50)
    BeneficiaryFactory(claim=claim, name="Banco Credor S.A.", tax_id="11222333000181",
                       kind="credor", share=None)

    run()

    heirs = Beneficiary.objects.filter(claim=claim).order_by("created_at", "id")
    assert [(b.name, b.tax_id) for b in heirs] == [
        (ANONYMISED_NAME, "00000000000"), (ANONYMISED_NAME, "00000000001"),
        ("Banco Credor S.A.", "11222333000181")]  # a company is not a person
    assert Anonymisation.objects.filter(claim=claim).exists()


def test_a_running_clock_is_left_alone():
    claim = closed_claim(closed_on=dt.date(2022, 1, 10))

    assert run().claims == []

    claim.refresh_from_db()
    assert claim.requester_name == HEIR


@pytest.mark.parametrize("target", ["claim", "sale", "insured-cpf", "heir-cpf"])
def test_a_hold_keeps_the_claim(target):
    claim = closed_claim()
    boss = staff("lia", None)
    place_hold(user=boss, reason="Ação judicial", reference="0001234-56.2024.8.26.0100",
               **{"claim": {"claim": claim}, "sale": {"sale": claim.sale},
                  "insured-cpf": {"cpf": INSURED_CPF}, "heir-cpf": {"cpf": HEIR_CPF}}[target])

    outcome = run()

    assert outcome.claims == [] and outcome.held == 1
    claim.refresh_from_db()
    assert claim.requester_name == HEIR
    assert Sale.objects.get().insured_name == INSURED


def test_a_released_hold_lets_the_claim_go_and_its_cpf_goes_with_it():
    claim = closed_claim()
    hold = place_hold(user=staff("lia", None), reason="Ação", reference="Processo 1",
                      cpf=HEIR_CPF)
    request_release(hold, user=staff("rui", None), reason="Ação encerrada")
    confirm_release(hold, user=staff("bia", None))

    assert run().claims == [claim.number]

    hold.refresh_from_db()
    assert hold.cpf == ANONYMISED_CPF


def test_a_sale_with_a_claim_still_kept_keeps_its_insured():
    old = closed_claim()
    ClaimFactory(coverage=CoverageFactory(sale=old.sale, name="cobertura/invalidez"),
                 status="em-analise")

    assert run().claims == [old.number]

    assert Sale.objects.get().insured_name == INSURED


def test_a_sale_without_claims_goes_after_its_own_term():
    expired = SaleFactory(valid_from=dt.date(2018, 1, 1), valid_until=dt.date(2019, 12, 31))
    current = SaleFactory(valid_from=dt.date(2024, 1, 1), valid_until=dt.date(2025, 12, 31))
    name = current.insured_name

    outcome = run()

    assert outcome.sales == [str(expired.pk)]
    assert Sale.objects.get(pk=expired.pk).insured_name == ANONYMISED_NAME
    assert Sale.objects.get(pk=current.pk).insured_name == name


def test_a_dry_run_lists_and_changes_nothing():
    claim = closed_claim()

    outcome = run(dry_run=True)

    assert outcome.claims == [claim.number] and outcome.sales == [str(claim.sale_id)]
    claim.refresh_from_db()
    assert claim.requester_name == HEIR
    assert not Anonymisation.objects.exists()
    assert RetentionRun.objects.get().dry_run


def test_the_second_run_changes_nothing():
    claims = [closed_claim(insured=f"Pessoa {n} Silva", cpf=cpf, heir_cpf=heir)
              for n, (cpf, heir) in enumerate([("39053344705", "52998224725"),
                                               ("11144477735", "12345678909"),
                                               ("98765432100", "27100389004")])]
    first = run()
    evidence = list(Anonymisation.objects.order_by("pk").values())
    snapshot = list(Claim.objects.order_by("pk").values())

    second = run()

    assert sorted(first.claims) == sorted(claim.number for claim in claims)
    assert second.claims == [] and second.sales == []
    assert list(Anonymisation.objects.order_by("pk").values()) == evidence
    assert list(Claim.objects.order_by("pk").values()) == snapshot


def test_the_command_prints_numbers_and_counts_never_names():
    claim = closed_claim()
    held = closed_claim(insured="Outro Segurado", cpf="11144477735", heir_cpf="12345678909")
    place_hold(user=staff("lia", None), reason="Ação", reference="Processo 2", claim=held)

    out = StringIO()
    call_command("retention_run", "--dry-run", "--today", "2026-11-28", stdout=out)
    said = out.getvalue()
    assert f"Sinistro {claim.number}: seria anonimizado." in said
    assert "1 sinistro(s) com prazo vencido mantido(s) por retenção legal" in said
    assert INSURED not in said and HEIR not in said

    out = StringIO()
    call_command("retention_run", "--today", "2026-11-28", stdout=out)
    assert f"Sinistro {claim.number}: anonimizado." in out.getvalue()
    assert held.number not in out.getvalue()


def test_the_command_never_reads_the_clocks_on_a_later_day_but_in_a_dry_run():
    claim = closed_claim()
    tomorrow = (timezone.localdate() + dt.timedelta(days=1)).isoformat()

    with pytest.raises(CommandError, match="Uma data futura só vale com --dry-run"):
        call_command("retention_run", "--today", tomorrow)
    call_command("retention_run", "--dry-run", "--today", tomorrow, stdout=StringIO())

    assert not Anonymisation.objects.filter(claim=claim).exists()


def test_a_run_that_crashes_in_its_second_batch_keeps_the_first_and_the_next_run_finishes(
        monkeypatch):
    people = [("39053344705", "52998224725"), ("11144477735", "12345678909"),
              ("98765432100", "27100389004"), ("71428793860", "86288366757"),
              ("45317828791", "24843803480")]
    claims = [closed_claim(insured=f"Pessoa {n} Souza", cpf=cpf, heir_cpf=heir)
              for n, (cpf, heir) in enumerate(people)]
    real = runs.anonymise_claim
    calls = []

    def crashing(claim, **kwargs):
        calls.append(claim.pk)
        if len(calls) == 4:  # the second claim of the second batch (batches of 2)
            raise RuntimeError("o processo caiu")
        return real(claim, **kwargs)

    monkeypatch.setattr(runs, "anonymise_claim", crashing)
    with pytest.raises(RuntimeError):
        run()

    failed = RetentionRun.objects.get()
    assert failed.status == RetentionRun.Status.FAILED and "o processo caiu" in failed.error
    assert Anonymisation.objects.filter(claim__isnull=False).count() == 2  # batch 1 only
    monkeypatch.setattr(runs, "anonymise_claim", real)

    again = run()

    assert len(again.claims) == 3
    assert Anonymisation.objects.filter(claim__in=claims).count() == 5
    assert set(Claim.objects.values_list("requester_name", flat=True)) == {ANONYMISED_NAME}


def test_free_text_elsewhere_loses_the_names_and_keeps_its_shape():
    from claims.models import DocumentFile, DocumentReading
    from decisions.models import Evaluation, RuleSet, RuleSetVersion

    claim = closed_claim()
    rule_set = RuleSet.objects.create(name="Desemprego", coverage_name="cobertura/morte")
    version = RuleSetVersion.objects.create(rule_set=rule_set, number=1,
                                            created_by=staff("rita", None))
    evaluation = Evaluation.objects.create(
        claim=claim, version=version, claim_version=1, trigger="documentos", mode="on",
        decision="aprovar", fired=[f"titular {HEIR}"],
        facts={"nome_lido": HEIR, "cpf_lido": "529.982.247-25", "valor": 1500})
    document = DocumentFile.objects.create(claim=claim, doc_type="rg", file_name=f"{HEIR}.pdf",
                                           content_type="application/pdf", storage_key="",
                                           sent_at=timezone.now(),
                                           upload_expires_at=timezone.now())
    DocumentReading.objects.create(file=document, text=f"Nome: {HEIR.upper()}",
                                   fields={"nome": HEIR})

    run()

    evaluation.refresh_from_db()
    assert evaluation.facts == {"nome_lido": ANONYMISED_NAME, "cpf_lido": "000.000.000-00",
                                "valor": 1500}
    assert evaluation.fired == [f"titular {ANONYMISED_NAME}"]
    document.refresh_from_db()
    assert document.file_name == "arquivo-anonimizado.pdf"
    reading = DocumentReading.objects.get()
    assert (reading.text, reading.fields) == ("", {})


def test_anonymising_a_claim_costs_a_flat_number_of_statements(django_assert_max_num_queries):
    from privacy.forgetting.services import anonymise_claim

    claim = closed_claim()
    # 43 on PostgreSQL and SQLite (one heir, one payment, one note): the lock, the
    # clock's reads, one read per table the person may be in, one write per row changed.
    with django_assert_max_num_queries(45):
        assert anonymise_claim(claim, today=TODAY) is not None


def test_stored_api_answers_about_the_claim_are_deleted_and_others_kept():
    from idempotency.models import IdempotentRequest

    claim = closed_claim()
    about = IdempotentRequest.objects.create(
        scope="canal", key="k1", fingerprint="f", status_code=200,
        content_type="application/json",
        body=f'{{"numero-sinistro": "{claim.number}", "nome": "{HEIR}"}}'.encode())
    heir_only = IdempotentRequest.objects.create(
        scope="canal", key="k2", fingerprint="f", status_code=200,
        content_type="application/json", body=b'{"chave-pix": "maria@example.com"}')
    other = IdempotentRequest.objects.create(
        scope="canal", key="k3", fingerprint="f", status_code=200,
        content_type="application/json", body=b'{"numero-sinistro": "SIN-OUTRO"}')

    run()

    assert set(IdempotentRequest.objects.values_list("pk", flat=True)) == {other.pk}
    assert about.pk != heir_only.pk
    assert Anonymisation.objects.get(claim=claim).removed["respostas_idempotentes"] == 2


def test_a_run_while_another_holds_the_lock_does_nothing():
    from tests.support.concurrency import run_together

    claim = closed_claim()
    with runs.exclusive() as alone:
        assert alone
        # Another process (here a thread with its own connection) finds the lock taken.
        [outcome] = run_together([lambda: runs.run_retention(today=TODAY, started_by="b")])
    assert outcome.locked_out and outcome.run is None
    claim.refresh_from_db()
    assert claim.requester_name == HEIR


def test_the_daily_job_is_on_the_beat():
    from django.conf import settings

    from config.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["retention-run"]
    assert entry["task"] == "privacy.tasks.run_retention"
    assert entry["schedule"].hour == {3}
    app.loader.import_default_modules()
    assert "privacy.tasks.run_retention" in app.tasks
