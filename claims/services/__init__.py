"""Every change of a claim goes through one function of this package.

Each service is keyword-only and atomic: it locks what it changes (see
``claims.services.common`` for the lock order), checks the move against
``claims.workflow.WORKFLOW``, and writes the history row and the outbox event in the
same transaction as the change. Callers import services from this package
(``from claims import services``); the modules are split by concern.
"""

from claims.services.balance import update_outstanding_balance
from claims.services.channels import create_channel
from claims.services.common import reserve_amount, standard_event_details
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
from claims.services.opening import open_claim
from claims.services.sales import upsert_sales

__all__ = [
    "confirm_document_upload",
    "confirm_uploads_by_key",
    "create_channel",
    "media_type_for",
    "open_claim",
    "reject_oversized_upload",
    "request_document_upload",
    "reserve_amount",
    "standard_event_details",
    "store_local_upload",
    "sweep_pending_uploads",
    "update_outstanding_balance",
    "upsert_sales",
    "verify_pending_uploads",
]
