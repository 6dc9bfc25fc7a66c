"""Every change of a claim goes through one function of this package.

Each service is keyword-only and atomic: it locks what it changes (see
``claims.services.moves`` for the lock order), checks the move against
``claims.workflow.WORKFLOW``, and writes the history row and the outbox event in the
same transaction as the change. Callers import services from this package
(``from claims import services``); the modules are split by concern.
"""

from claims.services.analysis import (
    RequestedDocument,
    approve_documents,
    request_documents,
    request_payment_data,
)
from claims.services.bank_returns import return_payment
from claims.shares import fully_paid, payee_of
from claims.services.balance import adjust_reserve, update_outstanding_balance
from claims.services.channels import create_channel
from claims.services.closing import deny, finalize, reopen
from claims.limits import reserve_amount
from claims.services.moves import actor_for
from claims.services.recording import regulatory_clock, standard_event_details
from claims.services.documents import (
    confirm_document_upload,
    confirm_uploads_by_key,
    media_type_for,
    reject_oversized_upload,
    request_document_upload,
    store_local_upload,
    sweep_pending_uploads,
    verify_pending_uploads,
)
from claims.services.corrections import correct_occurrence_date
from claims.services.readings import (
    READING_LEASE, queue_unread_files, read_document, sweep_pending_readings)
from claims.services.readings import Outcome as ReadingOutcome
from claims.services.expenses import register_expense
from claims.services.copies import record_copy_download
from claims.services.notes import add_note
from claims.services.opening import open_claim
from claims.services.beneficiaries import (
    hold_share,
    missing_payment_data,
    person_documents,
    remove_beneficiary,
    save_beneficiary,
    supply_payment_details,
)
from claims.services.payments import (
    entitlements_of,
    late_charges_for,
    payment_completed_details,
    register_payment,
    settle_payment,
    void_payment,
)
from claims.services.automatic import RulesVerdict, request_human_review
from claims.services.reconsiderations import keep_denial, request_reconsideration
from claims.services.sales import upsert_sales

__all__ = [
    "READING_LEASE",
    "ReadingOutcome",
    "actor_for",
    "queue_unread_files",
    "read_document",
    "sweep_pending_readings",
    "add_note",
    "record_copy_download",
    "register_expense",
    "RequestedDocument",
    "adjust_reserve",
    "approve_documents",
    "confirm_document_upload",
    "confirm_uploads_by_key",
    "correct_occurrence_date",
    "create_channel",
    "entitlements_of",
    "fully_paid",
    "hold_share",
    "missing_payment_data",
    "payee_of",
    "return_payment",
    "person_documents",
    "remove_beneficiary",
    "save_beneficiary",
    "deny",
    "finalize",
    "media_type_for",
    "open_claim",
    "payment_completed_details",
    "register_payment",
    "regulatory_clock",
    "reject_oversized_upload",
    "keep_denial",
    "late_charges_for",
    "reopen",
    "request_reconsideration",
    "request_document_upload",
    "request_documents",
    "request_payment_data",
    "reserve_amount",
    "settle_payment",
    "standard_event_details",
    "store_local_upload",
    "supply_payment_details",
    "sweep_pending_uploads",
    "update_outstanding_balance",
    "upsert_sales",
    "verify_pending_uploads",
    "RulesVerdict",
    "request_human_review",
    "void_payment",
]
