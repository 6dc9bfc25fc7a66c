"""Claims whose files arrive through the upload service, for the reading tests."""

import datetime as dt
import os
import secrets
import shutil
import zoneinfo

import pytest

from django.core.files.base import ContentFile
from django.utils import timezone

from claims import services
from claims.models import DocumentFile
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory

# OCR needs Debian's tesseract-ocr and tesseract-ocr-por: skipped without them locally;
# under CI=true (.ci/run installs them) a missing engine fails the tests instead.
needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None and os.environ.get("CI", "").lower() != "true",
    reason="needs tesseract-ocr and tesseract-ocr-por (apt-get install; .ci/run installs them)")

SP = zoneinfo.ZoneInfo("America/Sao_Paulo")
DIED = dt.date(2026, 3, 12)
NAME, CPF = "Maria das Graças Souza", "52998224725"
CONTENT_TYPES = {"pdf": "application/pdf", "jpg": "image/jpeg", "png": "image/png"}


def death_claim(*, name: str = NAME, cpf: str = CPF, occurred: dt.date = DIED, **sale):
    coverage = CoverageFactory(sale=SaleFactory(insured_name=name, insured_cpf=cpf, **sale))
    return ClaimFactory(coverage=coverage, occurred_at=dt.datetime.combine(
        occurred, dt.time(10), tzinfo=SP))


def receive(claim, content: bytes, *, file_name: str = "certidao.pdf",
            doc_type: str = "certidao-de-obito") -> DocumentFile:
    """A file announced and uploaded as a channel does, through the services (the
    reading is then pending; its task is not run)."""
    extension = file_name.rpartition(".")[2]
    document = DocumentFile.objects.create(
        claim=claim, doc_type=doc_type, file_name=file_name, sent_at=timezone.now(),
        content_type=CONTENT_TYPES[extension],
        storage_key=f"sinistros/{secrets.token_urlsafe(12)}.{extension}",
        upload_expires_at=timezone.now() + dt.timedelta(minutes=15))
    services.store_local_upload(file_id=document.pk, content=ContentFile(content))
    document.refresh_from_db()
    return document
