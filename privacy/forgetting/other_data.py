"""What the other apps wrote from a claim's personal data: webhook bodies, letters and
their PDFs, the hosted pages' links and downloads, SRO submissions and batches,
automatic decisions' facts, payment orders and the bank's files, ledger notes, stored
idempotent answers, the access log and released holds. Each is cleaned by value
(``Secrets``) or overwritten where the column is the person's; keys, amounts, dates,
codes and statuses stay."""

from collections import Counter

from django.core.files.storage import default_storage
from django.db import connection
from django.db.models import Q

from claims.models import Claim
from correspondence.models import Message
from decisions.models import Evaluation, SampleReview
from idempotency.models import IdempotentRequest
from ledger.models import Movement
from payouts.models import BankReturn, PaymentOrder, Remittance, RemittanceLine, ReturnLine
from privacy.forgetting import cnab
from privacy.forgetting.claim_data import scrub_texts
from privacy.forgetting.redaction import (ANONYMISED_CPF, ANONYMISED_FILE_NAME,
                                          ANONYMISED_NAME, ANONYMISED_TEXT, Secrets)
from privacy.models import AccessRecord, LegalHold
from sro.models import Batch, Submission
from webhooks.models import Delivery, DeliveryAttempt
from whitelabel.models import AccessLink, DocumentDownload

# The session setting that lets the ledger's append-only trigger accept an UPDATE of a
# movement's ``note`` and nothing else (migration privacy 0003): set with SET LOCAL,
# so it ends with the transaction that anonymises one batch.
LEDGER_NOTE_FLAG = "privacy.anonymising"


def scrub_other_apps(claim: Claim, secrets: Secrets, removed: Counter) -> None:
    _webhooks(claim, secrets, removed)
    _letters(claim, secrets, removed)
    _hosted_pages(claim, secrets, removed)
    _sro(claim, secrets, removed)
    _decisions(claim, secrets, removed)
    _payouts(claim, secrets, removed)
    _ledger(claim, secrets, removed)
    _idempotent_answers(claim, secrets, removed)
    removed["registros_de_acesso"] += AccessRecord.objects.filter(claim=claim).delete()[0]
    _released_holds(secrets, removed)


def _webhooks(claim, secrets, removed):
    deliveries = Delivery.objects.filter(event__claim=claim)
    scrub_texts(deliveries, secrets, ["body"], removed, "webhooks")
    scrub_texts(DeliveryAttempt.objects.filter(delivery__event__claim=claim), secrets,
           ["response_excerpt"], removed, "webhooks_respostas")


def _letters(claim, secrets, removed):
    """The rows stay (which letter, when, delivered or not: what the regulator may ask);
    the recipient, the bodies and the stored PDF go."""
    for message in Message.objects.filter(claim=claim):
        pdf = f"cartas/{message.pk}.pdf"  # correspondence.downloads.stored_name
        if default_storage.exists(pdf):
            default_storage.delete(pdf)
            removed["arquivos"] += 1
        message.recipient_name = ANONYMISED_NAME
        message.recipient_email = ""
        message.subject = secrets.text(message.subject)
        message.body_html = message.body_text = ANONYMISED_TEXT
        message.attachment_name = secrets.text(message.attachment_name)
        message.last_error = secrets.text(message.last_error)
        message.save(update_fields=["recipient_name", "recipient_email", "subject",
                                    "body_html", "body_text", "attachment_name",
                                    "last_error"])
        removed["cartas"] += 1


def _hosted_pages(claim, secrets, removed):
    scrub_texts(AccessLink.objects.filter(sale_id=claim.sale_id), secrets,
           ["payment_details", "user_reference"], removed, "links_de_acesso",
           json_fields=("payment_details",))
    removed["downloads_pagina"] += DocumentDownload.objects.filter(claim=claim).exclude(
        file_name=ANONYMISED_FILE_NAME).update(file_name=ANONYMISED_FILE_NAME)


def _sro(claim, secrets, removed):
    """The SUSEP codes, amounts and dates stay (the registration is the regulator's
    evidence); the names and CPFs inside are replaced by the placeholders."""
    submissions = list(Submission.objects.filter(registration__claim=claim))
    scrub_texts(submissions, secrets, ["body", "missing", "errors", "last_error"], removed,
           "sro_envios", json_fields=("body", "missing", "errors"))
    batch_ids = {item.batch_id for item in submissions if item.batch_id}
    if batch_ids:
        scrub_texts(Batch.objects.filter(batch_id__in=batch_ids), secrets,
               ["body", "answer", "error"], removed, "sro_lotes",
               json_fields=("body", "answer"))


def _decisions(claim, secrets, removed):
    scrub_texts(Evaluation.objects.filter(claim=claim), secrets, ["facts", "fired", "effect_note"],
           removed, "avaliacoes", json_fields=("facts", "fired"))
    scrub_texts(SampleReview.objects.filter(evaluation__claim=claim), secrets, ["note"], removed,
           "revisoes_amostrais")


def _payouts(claim, secrets, removed):
    orders = list(PaymentOrder.objects.filter(payment__claim=claim))
    if not orders:
        return
    scrub_texts(orders, secrets, ["bank_reason", "hold_reason"], removed, "ordens_de_pagamento")
    scrub_texts(ReturnLine.objects.filter(order__in=orders), secrets, ["note"], removed,
           "retorno_linhas")
    references = {order.reference for order in orders if order.reference}
    remittance_ids = set(RemittanceLine.objects.filter(order__in=orders)
                         .values_list("remittance_id", flat=True))
    return_ids = set(ReturnLine.objects.filter(order__in=orders)
                     .values_list("bank_return_id", flat=True))
    files = [*Remittance.objects.filter(pk__in=remittance_ids),
             *BankReturn.objects.filter(Q(pk__in=return_ids)
                                        | Q(remittance_id__in=remittance_ids))]
    for bank_file in files:
        content, changed = cnab.mask_orders(bank_file.content, references)
        if changed:
            bank_file.content = content
            bank_file.save(update_fields=["content"])
            removed["arquivos_cnab_linhas"] += changed


def _ledger(claim, secrets, removed):
    movements = [movement for movement in Movement.objects.filter(claim=claim)
                 if secrets.found_in(movement.note)]
    if not movements:
        return
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config(%s, 'on', true)", [LEDGER_NOTE_FLAG])
    for movement in movements:
        Movement.objects.filter(pk=movement.pk).update(note=secrets.text(movement.note))
    removed["lancamentos_contabeis"] += len(movements)


def _idempotent_answers(claim, secrets, removed):
    """Stored answers to repeated POSTs (kept IDEMPOTENCY_KEY_HOURS): the ones that
    mention this claim or its people are deleted, they answer nothing any more. The
    database finds the candidates (a byte search for the claim's number, id and its
    people's identifiers); the secrets' own check confirms each."""
    marks = Secrets(dict(secrets.replacements))
    marks.add_contact(claim.number)
    marks.add_contact(str(claim.pk))
    needles = [key.encode() for key in marks.replacements if key.isascii()]
    table = IdempotentRequest._meta.db_table
    search = ("position(%s::bytea in body) > 0" if connection.vendor == "postgresql"
              else "instr(body, %s) > 0")
    found = []
    for start in range(0, len(needles), 50):
        chunk = needles[start:start + 50]
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT id, body FROM {table} WHERE "  # noqa: S608
                           + " OR ".join([search] * len(chunk)), chunk)
            found += [pk for pk, body in cursor.fetchall() if marks.found_in(body)]
    if found:
        removed["respostas_idempotentes"] += IdempotentRequest.objects.filter(
            pk__in=set(found)).delete()[0]


def _released_holds(secrets, removed):
    """A released hold on one of these CPFs no longer keeps anything: its CPF ends with
    the records it held (an active hold would have kept the claim)."""
    cpfs = [key for key, value in secrets.replacements.items()
            if value == ANONYMISED_CPF and key.isdigit()]
    if cpfs:
        removed["retencoes_liberadas"] += LegalHold.objects.filter(
            cpf__in=cpfs, released_at__isnull=False).update(cpf=ANONYMISED_CPF)
