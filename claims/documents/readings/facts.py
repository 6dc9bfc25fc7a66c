"""What the readings of a claim's files tell the decision rules, as plain facts
(docs/document-readings.md has the table). None: not applicable, or not known.

Nothing is decided from a reading the engine marks unsure: its facts are None. The
comparisons are made now, against the claim as it is (an occurrence date corrected
after the reading counts), from the fields stored when the file was read.
"""

from django.utils import timezone

from claims.documents.readings import kinds
from claims.documents.readings.compare import DEATH_CERTIFICATE, TERMINATION, compare
from claims.models import DocumentFile, DocumentReading
from claims.red_flags import REPEATED_FILE

FINISHED = (DocumentReading.Status.READ, DocumentReading.Status.UNREADABLE,
            DocumentReading.Status.ERROR)


def received_with_readings(claim) -> list[DocumentFile]:
    """The claim's received files, oldest first, each with its reading (or None), in
    one query."""
    files = list(DocumentFile.objects.filter(claim_id=claim.pk,
                                             status=DocumentFile.Status.RECEIVED)
                 .select_related("reading").order_by("received_at", "id"))
    for document in files:
        try:
            document.reading_or_none = document.reading  # cached by select_related
        except DocumentReading.DoesNotExist:  # received before readings existed
            document.reading_or_none = None
    return files


def comparison_of(reading: DocumentReading, claim):
    """The reading's fields against the claim now (claims.documents.readings.compare)."""
    return compare(reading.kind, reading.fields, insured_name=claim.sale.insured_name,
                   insured_cpf=claim.sale.insured_cpf,
                   occurred_on=timezone.localdate(claim.occurred_at),
                   matricula_valid=kinds.matricula_valid(reading.fields))


def reading_facts(claim, files: list[DocumentFile] | None = None) -> dict:
    """The facts (a fixed set of keys) of ``claim``'s readings: two queries whatever the
    number of files (the files with their readings; the claim's sale when not loaded).
    ``files``: :func:`received_with_readings` when the caller has it."""
    files = received_with_readings(claim) if files is None else files
    readings = [f.reading_or_none for f in files if f.reading_or_none is not None]
    finished = len(readings) == len(files) and all(r.status in FINISHED for r in readings)
    whole = len(readings) == len(files) and all(r.status == DocumentReading.Status.READ
                                                for r in readings)
    facts = {
        "documentos_lidos": finished,
        "documentos_integros": whole,
        "leitura_incerta": any(r.unsure for r in readings),
        "arquivo_repetido": any(a.get("codigo") == REPEATED_FILE for a in claim.alerts or []),
        "certidao_confere": None,
        "certidao_cpf_confere": None,
        "certidao_nome_confere": None,
        "certidao_matricula_valida": None,
        "certidao_data_diverge_dias": None,
        "rescisao_confere": None,
        "rescisao_data_diverge_dias": None,
        "leituras": [],
    }
    # The latest read document of each kind speaks for it (a certificate sent again
    # replaces the first).
    latest = {}
    for document, reading in ((f, f.reading_or_none) for f in files):
        if reading is not None and reading.status == DocumentReading.Status.READ:
            latest[reading.kind] = (document, reading)
        if reading is not None and reading.status != DocumentReading.Status.PENDING:
            facts["leituras"] += sentences(document, reading, claim)
    death = latest.get(DEATH_CERTIFICATE)
    if death and not death[1].unsure:
        result = comparison_of(death[1], claim)
        facts.update(certidao_confere=result.all_match, certidao_cpf_confere=result.cpf_ok,
                     certidao_nome_confere=result.name_ok,
                     certidao_matricula_valida=result.matricula_ok,
                     certidao_data_diverge_dias=result.days_apart)
    termination = latest.get(TERMINATION)
    if termination and not termination[1].unsure:
        result = comparison_of(termination[1], claim)
        facts.update(rescisao_confere=result.all_match,
                     rescisao_data_diverge_dias=result.days_apart)
    return facts


def sentences(document: DocumentFile, reading: DocumentReading, claim) -> list[str]:
    """Short sentences for the claim page: ``"obito.pdf: certidão confere"``."""
    name = document.file_name
    if reading.status != DocumentReading.Status.READ:
        return [f"{name}: {reading.get_status_display().lower()}"
                + (f" ({reading.detail.rstrip('.')})" if reading.detail else "")]
    if reading.kind == kinds.OTHER:
        return [f"{name}: lido (documento sem conferência automática)"]
    words = [check["fato"] for check in comparison_of(reading, claim).checks]
    if reading.unsure:
        words.insert(0, "leitura incerta")
    return [f"{name}: " + "; ".join(words)]
