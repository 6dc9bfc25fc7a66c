"""OCR of what people photograph and scan (tesseract por; ~1-2 s a page, so few tests):
a death certificate photographed (turned, noisy, blurred, JPEG 70) and the same photo as
an image-only PDF; the page limit; low confidence marks the reading unsure."""

import pytest

from claims import services
from claims.documents.readings.facts import reading_facts
from claims.models import Claim, DocumentReading
from tests.support.certificates import (
    death_certificate_lines, matricula_for, page_image, photographed, scanned_pdf, text_pdf)
from tests.support.readings import CPF, DIED, NAME, death_claim, needs_tesseract, receive

pytestmark = [
    pytest.mark.django_db,
    needs_tesseract,
]


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


@pytest.fixture(scope="module")
def photo() -> bytes:
    page = text_pdf(death_certificate_lines(name=NAME, cpf="529.982.247-25", died=DIED,
                                            matricula_text=matricula_for()))
    return photographed(page_image(page))


def read(document) -> DocumentReading:
    assert services.read_document(file_id=document.pk) == services.ReadingOutcome.READ
    return DocumentReading.objects.get(pk=document.pk)


def test_a_photographed_certificate_is_read_by_ocr_and_matches(photo):
    claim = death_claim()
    reading = read(receive(claim, photo, file_name="foto.jpg"))
    assert reading.engine == "tesseract 5.3 por"
    assert reading.confidence > 80 and not reading.unsure
    assert reading.fields == {"nome": NAME, "cpf": CPF, "data_obito": "2026-03-12",
                              "matricula": "10453901552026400012021000012314"}
    facts = reading_facts(Claim.objects.select_related("sale").get(pk=claim.pk))
    assert facts["certidao_confere"] is True and facts["certidao_matricula_valida"] is True


def test_a_scanned_pdf_has_no_text_layer_and_is_read_by_ocr_page_by_page(photo, settings):
    claim = death_claim(cpf="11144477735")  # the certificate names someone else's CPF
    settings.DOCUMENT_READING_MAX_PAGES = 1
    reading = read(receive(claim, scanned_pdf(photo), file_name="scan.pdf"))
    assert reading.engine.startswith("tesseract") and reading.pages == 1
    assert reading.fields["cpf"] == CPF
    assert ("CPF diverge", False) in [(c["fato"], c["ok"]) for c in reading.checks]
    facts = reading_facts(Claim.objects.select_related("sale").get(pk=claim.pk))
    assert facts["certidao_cpf_confere"] is False and facts["certidao_confere"] is False


def test_below_the_minimum_confidence_the_reading_is_unsure_and_decides_nothing(
        photo, settings):
    settings.DOCUMENT_READING_MIN_CONFIDENCE = 99.5
    claim = death_claim()
    reading = read(receive(claim, photo, file_name="foto.jpg"))
    assert reading.unsure and reading.confidence < 99.5
    facts = reading_facts(Claim.objects.select_related("sale").get(pk=claim.pk))
    assert facts["leitura_incerta"] is True and facts["certidao_confere"] is None
    assert facts["leituras"][0].startswith("foto.jpg: leitura incerta; certidão confere")
