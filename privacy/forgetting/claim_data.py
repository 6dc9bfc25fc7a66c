"""A claim's own tables: who its people are (``secrets_of``) and their columns
overwritten (``scrub_claim``): the claim, its beneficiaries, payments, expenses paid to
people, history, events, tasks, proposals, reconsiderations, documents and readings.

What the books, the SRO and the statistics need stays: amounts, dates, coverage, ramo,
statuses, codes, the claim number and the ids. Companies (a CNPJ: a creditor bank, a
funeral home) are not people under the LGPD and stay as they are.
"""

from collections import Counter

from claims import search_text
from claims.models import (AutomaticDecision, Beneficiary, Claim, ClaimHistory,
                           DocumentFile, DocumentReading, DocumentRequest, Event, Expense,
                           Payment, Reconsideration)
from claims.documents import storage
from workbench.models import Proposal, ToDo
from privacy.forgetting.redaction import (ANONYMISED_CPF, ANONYMISED_FILE_NAME,
                                          ANONYMISED_NAME, ANONYMISED_TEXT, Secrets,
                                          anonymised_cpf, is_person_tax_id)


def secrets_of_sale(sale) -> Secrets:
    secrets = Secrets()
    secrets.add_name(sale.insured_name)
    secrets.add_tax_id(sale.insured_cpf)
    secrets.add_contact(sale.insured_email)
    secrets.add_phone(sale.insured_phone_area_code, sale.insured_phone_number)
    return secrets


def secrets_of(claim: Claim) -> Secrets:
    """Every identifier of the claim's people: the insured, the requester and contact,
    the beneficiaries and their representatives, the payees and the suppliers who are
    people, with their contacts and bank data."""
    secrets = secrets_of_sale(claim.sale)
    secrets.add_name(claim.requester_name)
    secrets.add_tax_id(claim.requester_tax_id)
    secrets.add_name(claim.contact_name)
    secrets.add_contact(claim.contact_email)
    secrets.add_phone(claim.contact_phone_area_code, claim.contact_phone_number)
    for heir in Beneficiary.objects.filter(claim=claim):
        secrets.add_name(heir.representative_name)
        secrets.add_tax_id(heir.representative_tax_id)
        if heir.tax_id and not is_person_tax_id(heir.tax_id):
            continue  # a company
        secrets.add_name(heir.name)
        secrets.add_tax_id(heir.tax_id)
        secrets.add_contact(heir.email)
        secrets.add_phone("", heir.phone)
        secrets.add_contact(heir.postal_code)
        secrets.add_json_leaves(heir.payment_method)
        secrets.add_contact(heir.destination)
    for payment in Payment.objects.filter(claim=claim):
        if not is_person_tax_id(payment.beneficiary_tax_id):
            continue
        secrets.add_name(payment.beneficiary_name)
        secrets.add_tax_id(payment.beneficiary_tax_id)
        secrets.add_json_leaves(payment.payment_method_details)
        secrets.add_contact(payment.destination)
    for name, tax_id in Expense.objects.filter(claim=claim).values_list("supplier_name",
                                                                       "supplier_tax_id"):
        if is_person_tax_id(tax_id):
            secrets.add_name(name)
            secrets.add_tax_id(tax_id)
    return secrets


def scrub_texts(rows, secrets: Secrets, fields: list[str], removed: Counter, what: str,
           json_fields: tuple[str, ...] = ()) -> None:
    """Clean ``fields`` of ``rows`` by value; saves and counts the rows that changed."""
    for row in rows:
        changed = []
        for name in fields:
            value = getattr(row, name)
            clean = secrets.json(value) if name in json_fields else secrets.text(value)
            if clean != value:
                setattr(row, name, clean)
                changed.append(name)
        if changed:
            # An UPDATE, not save(): some rows refuse save() once written (the history
            # is append-only to the application); forgetting is the one exception.
            type(row).objects.filter(pk=row.pk).update(
                **{name: getattr(row, name) for name in changed})
            removed[what] += 1


def scrub_claim(claim: Claim, secrets: Secrets, removed: Counter) -> None:
    claim.requester_name = ANONYMISED_NAME
    claim.requester_tax_id = ANONYMISED_CPF if claim.requester_tax_id else ""
    claim.contact_name = ANONYMISED_NAME if claim.contact_name else ""
    claim.contact_email = ""
    claim.contact_phone_area_code = ""
    claim.contact_phone_number = ""
    # The requester's own account of the facts, and the channel's free-form data: both
    # may hold anything (addresses, relatives, health); nothing in them is kept.
    claim.narrative = ""
    claim.additional_data = {}
    claim.denial_reason = secrets.text(claim.denial_reason)
    claim.denial_late_justification = secrets.text(claim.denial_late_justification)
    claim.alerts = secrets.json(claim.alerts)
    # The list's search keeps the number and the sale id, never a name or a CPF.
    claim.search_text = search_text.search_text(
        number=claim.number, sale_id=claim.sale_id, insured_name="", insured_cpf="",
        requester_name="", contact_name="")
    claim.save(update_fields=[
        "requester_name", "requester_tax_id", "contact_name", "contact_email",
        "contact_phone_area_code", "contact_phone_number", "narrative", "additional_data",
        "denial_reason", "denial_late_justification", "alerts", "search_text"])
    removed["sinistro"] += 1

    people = 0
    for heir in Beneficiary.objects.filter(claim=claim).order_by("created_at", "id"):
        heir.representative_name = ANONYMISED_NAME if heir.representative_name else ""
        heir.representative_tax_id = ANONYMISED_CPF if heir.representative_tax_id else ""
        heir.hold_reason = secrets.text(heir.hold_reason)
        heir.informed_by = secrets.text(heir.informed_by)
        if not heir.tax_id or is_person_tax_id(heir.tax_id):
            heir.name = ANONYMISED_NAME
            # Each its own: the claim names each beneficiary once.
            heir.tax_id = anonymised_cpf(people) if heir.tax_id else ""
            people += 1
            heir.email = heir.phone = heir.postal_code = heir.destination = ""
            heir.payment_method = None
            heir.birth_date = None
        heir.save()
        removed["beneficiarios"] += 1

    for payment in Payment.objects.filter(claim=claim):
        if is_person_tax_id(payment.beneficiary_tax_id):
            payment.beneficiary_name = ANONYMISED_NAME
            payment.beneficiary_tax_id = ANONYMISED_CPF
            payment.payment_method_details = {}
            payment.destination = ""
        payment.note = secrets.text(payment.note)
        payment.return_reason = secrets.text(payment.return_reason)
        payment.late_charges_basis = secrets.text(payment.late_charges_basis)
        payment.save(update_fields=["beneficiary_name", "beneficiary_tax_id",
                                    "payment_method_details", "destination", "note",
                                    "return_reason", "late_charges_basis"])
        removed["pagamentos"] += 1

    for expense in Expense.objects.filter(claim=claim):
        if is_person_tax_id(expense.supplier_tax_id):
            expense.supplier_name = ANONYMISED_NAME
            expense.supplier_tax_id = ANONYMISED_CPF
        expense.note = secrets.text(expense.note)
        expense.save(update_fields=["supplier_name", "supplier_tax_id", "note"])
        removed["despesas"] += 1

    scrub_texts(ClaimHistory.objects.filter(claim=claim), secrets, ["note"], removed, "historico")
    scrub_texts(Event.objects.filter(claim=claim), secrets, ["details"], removed, "eventos",
           json_fields=("details",))
    scrub_texts(ToDo.objects.filter(claim=claim), secrets, ["subject", "note"], removed, "tarefas")
    scrub_texts(Proposal.objects.filter(claim=claim), secrets,
           ["arguments", "summary", "decision_note"], removed, "propostas",
           json_fields=("arguments",))
    scrub_texts(Reconsideration.objects.filter(claim=claim), secrets, ["text", "decision_note"],
           removed, "reconsideracoes")
    scrub_texts(DocumentRequest.objects.filter(claim=claim), secrets, ["title", "note"], removed,
           "pedidos_de_documento")
    scrub_texts(AutomaticDecision.objects.filter(claim=claim), secrets,
           ["reasons", "reversed_note"], removed, "decisao_automatica",
           json_fields=("reasons",))
    scrub_documents(claim, removed)


def scrub_documents(claim: Claim, removed: Counter) -> None:
    """The files leave the storage; the rows stay (type, dates, size, status: what the
    regulation's statistics count) with a neutral file name. Deleting a file that is
    already gone is harmless, so a batch that failed after deleting does it again."""
    files = list(DocumentFile.objects.filter(claim=claim))
    documents = storage.current()
    for document in files:
        if document.storage_key:
            documents.delete(document.storage_key)
            removed["arquivos"] += 1
        extension = document.file_name.rsplit(".", 1)[-1] if "." in document.file_name else ""
        document.file_name = (ANONYMISED_FILE_NAME + (f".{extension}" if extension else ""))[:255]
        document.rejection_reason = ANONYMISED_TEXT if document.rejection_reason else ""
        document.save(update_fields=["file_name", "rejection_reason"])
    readings = DocumentReading.objects.filter(file__claim=claim)
    removed["leituras"] += readings.update(text="", fields={}, checks=[], detail="")
