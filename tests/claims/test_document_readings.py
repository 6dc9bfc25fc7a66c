"""Reading received files from PDFs with a text layer (fast, no OCR): the fields of a
death certificate and of a TRCT, the matrícula's check digits, the checks against the
claim, the facts for the rules, the repeated-file red flag, broken files."""

import datetime as dt
import io

import pytest
from celery.exceptions import Retry
from django.core.management import call_command
from django.utils import timezone

from claims import red_flags, services, tasks
from claims.documents.readings import matricula
from claims.documents.readings.compare import same_name
from claims.documents.readings.facts import reading_facts
from claims.documents.readings.parsing import first_date
from claims.models import Claim, DocumentReading
from claims.signals import documents_read
from tests.support.certificates import (
    death_certificate_lines, matricula_for, termination_lines, text_pdf)
from tests.support.documents import pdf_bytes
from tests.support.readings import CPF, DIED, NAME, death_claim, receive

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


def certificate(*, name=NAME, cpf="529.982.247-25", died=DIED, valid=True, words=False):
    return text_pdf(death_certificate_lines(name=name, cpf=cpf, died=died, date_in_words=words,
                                            matricula_text=matricula_for(valid=valid)))


def read(document) -> DocumentReading:
    assert services.read_document(file_id=document.pk) == services.ReadingOutcome.READ
    return DocumentReading.objects.get(pk=document.pk)


def facts_of(claim):
    return reading_facts(Claim.objects.select_related("sale").get(pk=claim.pk))


# --- the pieces -------------------------------------------------------------------------


def test_the_published_matricula_example_checks_and_one_wrong_digit_does_not():
    # The worked example of the module-11 rule (docs/document-readings.md).
    assert matricula.check_digits("104539015520131000120210000123") == "21"
    assert matricula.is_valid("10453901552013100012021000012321")
    assert not matricula.is_valid("10453901552013100012021000012312")
    assert not matricula.is_valid("10453901552013100012021000022321")  # a digit of the term


def test_brazilian_dates_in_numbers_and_in_words():
    assert first_date("faleceu em 12/03/2026 as 10h") == dt.date(2026, 3, 12)
    assert first_date("12 de marco de 2026") == dt.date(2026, 3, 12)
    assert first_date("1o de janeiro de 2026") == dt.date(2026, 1, 1)
    assert first_date("31/02/2026") is None


def test_names_compare_without_case_accents_or_a_middle_name():
    assert same_name("MARIA DAS GRACAS SOUZA", "Maria das Graças Souza")
    assert same_name("Maria Souza", "Maria das Graças Souza")
    assert same_name("Maria das Gracas Souze", "Maria das Graças Souza")  # one slip
    assert not same_name("Mariana Pereira", "Maria das Graças Souza")
    assert not same_name("Maria Pereira", "Maria das Graças Souza")


# --- a received file is read ------------------------------------------------------------


def test_receiving_a_file_leaves_a_pending_reading_and_queues_it_after_commit(
        django_capture_on_commit_callbacks, monkeypatch):
    sent = []
    monkeypatch.setattr("claims.services.readings.enqueue", sent.append)
    claim = death_claim()
    with django_capture_on_commit_callbacks(execute=True):
        document = receive(claim, certificate())
    assert DocumentReading.objects.get(pk=document.pk).status == DocumentReading.Status.PENDING
    assert sent == [str(document.pk)]


def test_a_born_digital_certificate_that_matches_the_claim(settings):
    claim = death_claim()
    reading = read(receive(claim, certificate(words=True)))

    assert reading.status == DocumentReading.Status.READ
    assert reading.kind == DocumentReading.Kind.DEATH_CERTIFICATE
    assert reading.fields == {"nome": NAME, "cpf": CPF, "data_obito": "2026-03-12",
                              "matricula": "10453901552026400012021000012314"}
    assert not reading.unsure and reading.confidence is None
    assert reading.engine.startswith("pdfium") and reading.pages == 1
    assert len(reading.content_sha256) == 64 and "CERTIDÃO DE ÓBITO" in reading.text
    assert [(c["fato"], c["ok"]) for c in reading.checks] == [
        ("certidão confere", True), ("nome confere", True), ("CPF confere", True),
        ("data confere", True), ("matrícula válida", True)]
    assert facts_of(claim) == {
        "documentos_lidos": True, "documentos_integros": True, "leitura_incerta": False,
        "arquivo_repetido": False, "certidao_confere": True, "certidao_cpf_confere": True,
        "certidao_nome_confere": True, "certidao_matricula_valida": True,
        "certidao_data_diverge_dias": 0, "rescisao_confere": None,
        "rescisao_data_diverge_dias": None,
        "leituras": ["certidao.pdf: certidão confere; nome confere; CPF confere; data "
                     "confere; matrícula válida"],
    }


def test_another_persons_cpf_a_date_three_days_off_and_a_bad_matricula():
    claim = death_claim(occurred=DIED + dt.timedelta(days=3))
    reading = read(receive(claim, certificate(cpf="111.444.777-35", valid=False)))

    words = {c["fato"]: c["ok"] for c in reading.checks}
    assert words == {"certidão diverge": False, "nome confere": True, "CPF diverge": False,
                     "data diverge em 3 dias": False, "matrícula inválida": False}
    facts = facts_of(claim)
    assert facts["certidao_confere"] is False
    assert facts["certidao_cpf_confere"] is False and facts["certidao_nome_confere"] is True
    assert facts["certidao_matricula_valida"] is False
    assert facts["certidao_data_diverge_dias"] == 3


def test_a_corrected_occurrence_date_counts_in_the_facts():
    claim = death_claim(occurred=DIED - dt.timedelta(days=1))
    read(receive(claim, certificate()))
    assert facts_of(claim)["certidao_data_diverge_dias"] == 1
    Claim.objects.filter(pk=claim.pk).update(occurred_at=claim.occurred_at + dt.timedelta(days=1))
    assert facts_of(claim)["certidao_data_diverge_dias"] == 0
    assert facts_of(claim)["certidao_confere"] is True


def test_a_certificate_without_a_cpf_is_unsure_and_decides_nothing():
    claim = death_claim()
    reading = read(receive(claim, certificate(cpf="não informado")))
    assert reading.unsure and "cpf" not in reading.fields
    assert ("CPF não encontrado", None) in [(c["fato"], c["ok"]) for c in reading.checks]
    facts = facts_of(claim)
    assert facts["leitura_incerta"] is True
    assert facts["certidao_confere"] is None and facts["certidao_nome_confere"] is None
    assert facts["certidao_data_diverge_dias"] is None
    assert facts["documentos_lidos"] is True and facts["documentos_integros"] is True


def test_a_termination_with_its_dates():
    claim = death_claim(occurred=dt.date(2026, 3, 1))
    reading = read(receive(claim, text_pdf(termination_lines(
        name=NAME, cpf="529.982.247-25", admitted=dt.date(2020, 1, 2),
        left=dt.date(2026, 3, 3))), file_name="trct.pdf", doc_type="termo-de-rescisao"))
    assert reading.kind == DocumentReading.Kind.TERMINATION
    assert reading.fields == {"nome": NAME, "cpf": CPF, "data_admissao": "2020-01-02",
                              "data_afastamento": "2026-03-03"}
    facts = facts_of(claim)
    assert facts["rescisao_confere"] is False and facts["rescisao_data_diverge_dias"] == 2
    assert facts["certidao_confere"] is None
    assert facts["leituras"] == ["trct.pdf: rescisão diverge; nome confere; CPF confere; "
                                 "data diverge em 2 dias"]


def test_the_kind_is_told_from_the_text_when_the_type_says_nothing():
    claim = death_claim()
    reading = read(receive(claim, certificate(), file_name="doc.pdf", doc_type="outros"))
    assert reading.kind == DocumentReading.Kind.DEATH_CERTIFICATE
    other = read(receive(claim, text_pdf([("", "Comprovante de residência: Rua A, 10, "
                                               "São Paulo - SP, conta de luz de março")]),
                         file_name="conta.pdf", doc_type="outros"))
    assert other.kind == DocumentReading.Kind.OTHER and other.checks == [] and not other.unsure


# --- broken files, twice, the signal -----------------------------------------------------


def test_a_pdf_that_passes_the_upload_checks_but_does_not_open_is_unreadable():
    claim = death_claim()
    # A whole file (header, trailer) whose catalog points at a missing object.
    document = receive(claim, pdf_bytes().replace(b"/Pages 2 0 R", b"/Pages 9 0 R"))
    reading = read(document)
    assert reading.status == DocumentReading.Status.UNREADABLE
    assert reading.detail == "PDF ilegível ou protegido por senha"
    assert len(reading.content_sha256) == 64 and not reading.unsure
    facts = facts_of(claim)
    assert facts["documentos_lidos"] is True and facts["documentos_integros"] is False
    assert facts["certidao_confere"] is None
    assert facts["leituras"][0].startswith("certidao.pdf: ilegível")


def test_a_file_gone_from_storage_ends_in_error(settings):
    claim = death_claim()
    document = receive(claim, certificate())
    (settings.MEDIA_ROOT / document.storage_key).unlink()
    reading = read(document)
    assert reading.status == DocumentReading.Status.ERROR
    assert reading.detail == "Arquivo não encontrado no armazenamento."


def test_a_second_run_does_nothing_and_the_signal_goes_once_the_last_reading_ends(
        django_capture_on_commit_callbacks):
    claim = death_claim()
    first = receive(claim, certificate())
    second = receive(claim, certificate(words=True))
    received = []

    def receiver(sender, claim_id, **kwargs):
        received.append(claim_id)

    documents_read.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert services.read_document(file_id=first.pk) == services.ReadingOutcome.READ
        assert received == []  # the second file is still pending
        with django_capture_on_commit_callbacks(execute=True):
            assert services.read_document(file_id=second.pk) == services.ReadingOutcome.READ
        assert received == [claim.pk]
        with django_capture_on_commit_callbacks(execute=True):
            assert services.read_document(file_id=second.pk) == services.ReadingOutcome.ALREADY
        assert received == [claim.pk]
    finally:
        documents_read.disconnect(receiver)


def test_until_every_file_is_read_the_documents_are_not_read():
    claim = death_claim()
    read(receive(claim, certificate()))
    receive(claim, certificate(words=True), file_name="segunda.pdf")
    facts = facts_of(claim)
    assert facts["documentos_lidos"] is False and facts["documentos_integros"] is False
    assert facts["certidao_confere"] is True  # what was read already counts


# --- the repeated file --------------------------------------------------------------------


def test_the_same_file_for_another_person_flags_both_claims_and_the_same_person_not():
    content = certificate()
    first = death_claim()
    read(receive(first, content))
    same_person = death_claim()  # another claim of the same insured person
    read(receive(same_person, content))
    assert facts_of(same_person)["arquivo_repetido"] is False

    other = death_claim(name="Joana Pereira", cpf="11144477735")
    read(receive(other, content))
    for claim in (other, first):
        claim.refresh_from_db()
        flags = [a for a in claim.alerts if a["codigo"] == red_flags.REPEATED_FILE]
        assert len(flags) == 1 and "certidao.pdf no sinistro" in flags[0]["texto"]
        assert claim.has_alerts and facts_of(claim)["arquivo_repetido"] is True
    # The same person's other claim has it too now: Joana's claim has the same file.
    same_person.refresh_from_db()
    assert any(a["codigo"] == red_flags.REPEATED_FILE for a in same_person.alerts)

    # Other refreshes keep the flag without reading files again.
    red_flags.refresh(Claim.objects.select_related("sale").get(pk=other.pk))
    other.refresh_from_db()
    assert any(a["codigo"] == red_flags.REPEATED_FILE for a in other.alerts)


# --- queries -------------------------------------------------------------------------------


def test_the_facts_cost_the_same_queries_for_one_file_or_six(django_assert_num_queries):
    claim = death_claim()
    read(receive(claim, certificate()))
    fresh = Claim.objects.get(pk=claim.pk)
    with django_assert_num_queries(2):  # the files with their readings; the sale
        reading_facts(fresh)
    for index in range(5):
        read(receive(claim, certificate(words=bool(index % 2)), file_name=f"c{index}.pdf"))
    fresh = Claim.objects.get(pk=claim.pk)
    with django_assert_num_queries(2):
        facts = reading_facts(fresh)
    assert len(facts["leituras"]) == 6


def test_the_sweep_sends_again_readings_no_worker_took_or_whose_worker_died(monkeypatch):
    sent = []
    monkeypatch.setattr("claims.services.readings.enqueue", sent.append)
    claim = death_claim()
    lost, held, fresh = (receive(claim, certificate(), file_name=f"{n}.pdf") for n in "abc")
    old = timezone.now() - dt.timedelta(minutes=30)
    DocumentReading.objects.filter(pk__in=[lost.pk, held.pk]).update(created_at=old)
    DocumentReading.objects.filter(pk=held.pk).update(started_at=timezone.now())  # a worker on it
    assert services.sweep_pending_readings() == 1 and sent == [str(lost.pk)]
    DocumentReading.objects.filter(pk=held.pk).update(started_at=old)  # its worker died
    sent.clear()
    assert services.sweep_pending_readings() == 2 and set(sent) == {str(lost.pk), str(held.pk)}
    assert str(fresh.pk) not in sent


def test_the_task_looks_again_after_the_lease_when_another_worker_holds_the_reading(
        monkeypatch):
    claim = death_claim()
    document = receive(claim, certificate())
    DocumentReading.objects.filter(pk=document.pk).update(started_at=timezone.now())
    asked = []

    def retry(**options):
        asked.append(options)
        return Retry()

    monkeypatch.setattr(tasks.read_document, "retry", retry)
    with pytest.raises(Retry):
        tasks.read_document.run(str(document.pk))
    assert asked == [{"countdown": services.READING_LEASE.total_seconds(), "max_retries": 3}]
    assert DocumentReading.objects.get(pk=document.pk).status == DocumentReading.Status.PENDING
    DocumentReading.objects.filter(pk=document.pk).update(started_at=None)
    tasks.read_document.run(str(document.pk))  # free again: read, no retry
    assert len(asked) == 1
    assert DocumentReading.objects.get(pk=document.pk).status == DocumentReading.Status.READ


def test_files_received_before_readings_existed_are_queued_by_the_command(monkeypatch):
    sent = []
    monkeypatch.setattr("claims.services.readings.enqueue", sent.append)
    claim = death_claim()
    old = receive(claim, certificate())
    DocumentReading.objects.filter(pk=old.pk).delete()  # as before migration 0038
    read(receive(claim, certificate(), file_name="lida.pdf"))
    assert facts_of(claim)["documentos_lidos"] is False

    out = io.StringIO()
    call_command("read_received_files", batch=1, stdout=out)
    assert out.getvalue() == "1 arquivo(s) na fila de leitura.\n" and sent == [str(old.pk)]
    read(old)
    assert facts_of(claim)["documentos_lidos"] is True
