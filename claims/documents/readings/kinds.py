"""Which document a file is, and what its reading found: the kind (from the type the
file was sent as, else from its text), the fields, and whether the reader is unsure."""

from claims.documents.readings import death_certificate, matricula, termination
from claims.documents.readings.compare import DEATH_CERTIFICATE, TERMINATION
from claims.documents.readings.parsing import plain

OTHER = "outro"
# The types of the default requirements (claims/data/requirements.csv).
KIND_OF_DOC_TYPE = {"certidao-de-obito": DEATH_CERTIFICATE, "termo-de-rescisao": TERMINATION}
_EXTRACTORS = {DEATH_CERTIFICATE: death_certificate, TERMINATION: termination}
# Kept of what was read: enough for an analyst to see what the reader saw.
MAX_TEXT = 20_000


def detect(doc_type: str, text: str) -> str:
    if doc_type in KIND_OF_DOC_TYPE:
        return KIND_OF_DOC_TYPE[doc_type]
    words = plain(text)
    if "certidao de obito" in words or "registro de obito" in words:
        return DEATH_CERTIFICATE
    if "rescisao do contrato de trabalho" in words or "trct" in words:
        return TERMINATION
    return OTHER


def extract(kind: str, text: str) -> dict:
    extractor = _EXTRACTORS.get(kind)
    return extractor.extract(text) if extractor else {}


def missing(kind: str, fields: dict) -> list[str]:
    extractor = _EXTRACTORS.get(kind)
    return [name for name in extractor.FIELDS if name not in fields] if extractor else []


def matricula_valid(fields: dict) -> bool | None:
    return matricula.is_valid(fields["matricula"]) if "matricula" in fields else None


def unsure(kind: str, fields: dict, confidence: float | None, min_confidence: float) -> bool:
    """Low OCR confidence, or a field the document should have was not found."""
    return (confidence is not None and confidence < min_confidence) or bool(missing(kind, fields))
