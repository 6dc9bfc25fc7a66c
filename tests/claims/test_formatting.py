"""How people read claims (claims.formatting): media types, file sizes, and the upload
refusals built from them, in words; phone numbers and date-only moments."""

import io
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from claims.formatting import (
    file_size,
    local_moment,
    media_type_label,
    media_types_in_words,
    phone,
)
from claims.models import DocumentFile
from claims.services.documents import _rejection_reason
from claims.documents.storage import StoredObject


@pytest.mark.parametrize(("content_type", "words"), [
    ("application/pdf", "PDF"), ("image/jpeg", "JPEG"), ("image/png", "PNG"),
    ("image/heic", "HEIC"), ("image/heif", "HEIF"), ("IMAGE/PNG; charset=binary", "PNG"),
    ("text/plain", "text/plain"),  # no common name: as it came
])
def test_media_types_read_as_people_name_them(content_type, words):
    assert media_type_label(content_type) == words


def test_a_list_of_media_types_reads_as_a_sentence():
    allowed = ["application/pdf", "image/jpeg", "image/jpeg", "image/png", "image/heic"]

    assert media_types_in_words(allowed) == "PDF, JPEG, PNG ou HEIC"
    assert media_types_in_words(["application/pdf"]) == "PDF"


@pytest.mark.parametrize(("size", "words"), [
    (1, "1 byte"), (900, "900 bytes"), (1536, "1,5 KB"), (20 * 1024 ** 2, "20 MB"),
    (int(25.3 * 1024 ** 2), "25,3 MB"),
])
def test_file_sizes_read_in_kb_and_mb(size, words):
    assert file_size(size) == words


def stored(content: bytes, content_type: str = "") -> StoredObject:
    return StoredObject(size=len(content), content_type=content_type,
                        open=lambda whole=False: io.BytesIO(content))


def test_upload_refusals_name_types_and_sizes_in_words(settings):
    settings.UPLOAD_MAX_BYTES = 20 * 1024 ** 2
    pdf = DocumentFile(content_type="application/pdf")
    exe = DocumentFile(content_type="application/x-msdownload")

    assert _rejection_reason(pdf, stored(b"%PDF-1.7", "image/png")) == (
        "O arquivo foi enviado como PNG, mas o nome do arquivo indica PDF.")
    assert _rejection_reason(exe, stored(b"MZ")) == (
        "Arquivos application/x-msdownload não são aceitos: envie PDF, JPEG, PNG, HEIC ou HEIF.")
    assert _rejection_reason(pdf, StoredObject(size=21 * 1024 ** 2, content_type="",
                                               open=io.BytesIO)) == (
        "Arquivo de 21 MB excede o máximo de 20 MB.")


@pytest.mark.parametrize(("number", "area_code", "words"), [
    ("912345678", "11", "(11) 91234-5678"),  # mobile: 9 digits
    ("34567890", "11", "(11) 3456-7890"),  # landline: 8 digits
    ("91234-5678", "(11)", "(11) 91234-5678"),  # already punctuated
    ("11912345678", "", "(11) 91234-5678"),  # stored with its area code
    ("34567890", "", "3456-7890"),
    ("12345", "11", "(11) 12345"),  # no known shape: as it came
    ("", "11", ""),
])
def test_phone_numbers_read_as_people_write_them(number, area_code, words):
    assert phone(number, area_code) == words


SP = ZoneInfo("America/Sao_Paulo")


@pytest.mark.parametrize(("moment", "words"), [
    (datetime(2026, 11, 5, 0, 0, tzinfo=SP), "05/11/2026"),  # a date-only field
    (datetime(2026, 11, 5, 3, 0, tzinfo=ZoneInfo("UTC")), "05/11/2026"),  # the same moment
    (datetime(2026, 11, 5, 0, 0, 30, tzinfo=SP), "05/11/2026 00:00"),  # a real time
    (datetime(2026, 11, 5, 14, 30, tzinfo=SP), "05/11/2026 14:30"),
    (datetime(2026, 11, 5, 0, 0, tzinfo=ZoneInfo("UTC")), "04/11/2026 21:00"),  # UTC midnight
    (None, "—"),
])
def test_a_moment_at_local_midnight_reads_as_a_date(settings, moment, words):
    settings.TIME_ZONE = "America/Sao_Paulo"

    assert local_moment(moment) == words


def test_every_move_and_timeline_entry_reads_in_words_never_as_its_code():
    from claims.formatting import history_label
    from claims.workflow import Action, TimelineEntry

    for action in [*Action.values, *TimelineEntry.values]:
        assert history_label(action) != action, action


def test_percent_and_masked_destinations_read_as_people_write_them():
    from decimal import Decimal

    from claims.formatting import percent
    from claims.payment_words import masked_destination

    assert (percent(Decimal("50.00")), percent(Decimal("33.33")), percent(None)) == (
        "50%", "33,33%", "—")
    assert masked_destination("pix:maria@example.com") == "A chave PIX ma***@example.com"
    assert masked_destination("pix:+5511912345678") == "A chave PIX +55 (11) 9****-5678"
