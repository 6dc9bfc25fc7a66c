"""Endpoints that are not called with a channel token: the local upload URL (signed),
bucket notifications (shared secret), the channel's download link (signed) and
analysts' document downloads (staff session)."""

import hmac
import json
import logging
import tempfile
import time
from urllib.parse import unquote_plus

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.core import signing
from django.core.files import File
from django.core.files.storage import default_storage
from django.http import FileResponse, HttpResponse
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.views import View
from django.views.decorators.csrf import csrf_exempt

from api_common.http_problems import MalformedRequest, Unauthorized
from api_common.problem_types import ProblemError
from api_common.problems import problem_error_response
from claims import errors, services, tasks
from claims.documents import errors as file_errors
from claims.documents import storage
from claims.models import DocumentFile
from claims.permissions import VIEW_CLAIM
from claims.signals import ReadKind, data_read

CHUNK = 64 * 1024

logger = logging.getLogger(__name__)


# A refused upload's unread body is read and dropped after the answer is sent, up to
# this much and this long: a client that sends its whole file without waiting for
# "100 Continue" then reads the answer, instead of a reset that can destroy it.
DISCARD_MAX_BYTES = 64 * 1024 * 1024
DISCARD_MAX_SECONDS = 10


def _discard_unread_body(request, response) -> None:
    def discard():
        deadline = time.monotonic() + DISCARD_MAX_SECONDS
        left = DISCARD_MAX_BYTES
        try:
            while left > 0 and time.monotonic() < deadline:
                chunk = request.read(min(CHUNK, left))
                if not chunk:
                    return
                left -= len(chunk)
        except OSError:  # the client went away: nothing left to protect
            return

    # Run when the server closes the response, after its last byte went out (Django
    # calls these from HttpResponse.close(), which WSGI servers call).
    response._resource_closers.append(discard)


@method_decorator(csrf_exempt, name="dispatch")
class LocalUploadView(View):
    """``PUT url-envio`` in local mode: behaves like a pre-signed S3 PUT.

    The token is signed and expires; it names the file record and its media type. Only
    the first upload counts. Browsers may PUT cross-origin (the hosted pages)."""

    http_method_names = ["put", "options"]

    def dispatch(self, request, *args, **kwargs):
        response = super().dispatch(request, *args, **kwargs)
        origin = request.headers.get("Origin")
        allowed = settings.UPLOAD_CORS_ALLOWED_ORIGINS
        if origin and ("*" in allowed or origin in allowed):
            response["Access-Control-Allow-Origin"] = "*" if "*" in allowed else origin
            response["Access-Control-Allow-Methods"] = "PUT, OPTIONS"
            response["Access-Control-Allow-Headers"] = "Content-Type"
            response["Access-Control-Max-Age"] = "600"
            response["Vary"] = "Origin"
        return response

    def options(self, request, token):
        return HttpResponse(status=204)

    def put(self, request, token):
        response = self._put(request, token)
        if response.status_code >= 400:
            _discard_unread_body(request, response)
        return response

    def _put(self, request, token):
        try:
            document = self._document_for(token)
            declared = request.content_type or ""
            if declared != document.content_type:
                raise file_errors.UploadContentTypeMismatch(
                    f"Envie o arquivo com Content-Type: {document.content_type}."
                )
            length = request.META.get("CONTENT_LENGTH") or ""
            if not length.isdigit() or "HTTP_TRANSFER_ENCODING" in request.META:
                # WSGI hands Django no body without a length (a chunked PUT reads as
                # empty): refuse before the link is spent, as S3 does (411).
                raise file_errors.UploadLengthRequired()
            if int(length) > settings.UPLOAD_MAX_BYTES:
                services.reject_oversized_upload(file_id=document.pk)
                raise file_errors.UploadTooLarge(
                    f"O máximo é {settings.UPLOAD_MAX_BYTES} bytes.")
            with tempfile.SpooledTemporaryFile(max_size=1024 * 1024) as body:
                if not self._copy_body(request, body):
                    services.reject_oversized_upload(file_id=document.pk)
                    raise file_errors.UploadTooLarge(f"O máximo é {settings.UPLOAD_MAX_BYTES} bytes.")
                body.seek(0)
                document = services.store_local_upload(
                    file_id=document.pk, content=File(body)
                )
        except ProblemError as error:
            return problem_error_response(error)
        if document.status == DocumentFile.Status.REJECTED:
            if document.rejected_for_closed_claim:
                return problem_error_response(errors.ClaimNotAcceptingDocuments(document.rejection_reason))
            return problem_error_response(file_errors.UploadRejected(document.rejection_reason))
        return HttpResponse(status=200)

    @staticmethod
    def _document_for(token: str) -> DocumentFile:
        try:
            file_id, content_type = storage.read_local_upload_token(token)
        except signing.SignatureExpired:
            raise file_errors.UploadLinkExpired() from None
        except signing.BadSignature:
            raise file_errors.UploadLinkInvalid() from None
        document = DocumentFile.objects.filter(pk=file_id, content_type=content_type).first()
        if document is None:
            raise file_errors.UploadLinkInvalid()
        if document.status != DocumentFile.Status.AWAITING_UPLOAD:
            raise file_errors.UploadAlreadyReceived()
        if document.upload_expires_at < timezone.now():
            raise file_errors.UploadLinkExpired()
        return document

    @staticmethod
    def _copy_body(request, target) -> bool:
        """Copy the body, stopping past the limit. False when it was too large."""
        copied = 0
        while chunk := request.read(CHUNK):
            copied += len(chunk)
            if copied > settings.UPLOAD_MAX_BYTES:
                return False
            target.write(chunk)
        return True


@method_decorator(csrf_exempt, name="dispatch")
class StorageNotificationView(View):
    """S3-compatible bucket notifications (e.g. MinIO's webhook target) for created
    objects: ``Authorization: Bearer <STORAGE_NOTIFICATION_TOKEN>``."""

    http_method_names = ["post"]

    def post(self, request):
        expected = settings.STORAGE_NOTIFICATION_TOKEN
        given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
            return problem_error_response(
                Unauthorized("Token de notificação ausente ou inválido."),
                headers={"WWW-Authenticate": 'Bearer realm="storage"'},
            )
        try:
            records = json.loads(request.body or b"{}").get("Records", [])
            keys = [unquote_plus(r["s3"]["object"]["key"]) for r in records
                    if str(r.get("eventName", "")).startswith(("s3:ObjectCreated", "ObjectCreated"))]
        except (ValueError, AttributeError, KeyError, TypeError, RecursionError):
            return problem_error_response(MalformedRequest(
                "Esperado um evento de notificação S3 (Records[].s3.object.key)."))
        if keys:
            # Answer the bucket at once; the check (HEAD + first bytes) runs in a worker.
            try:
                tasks.confirm_uploads.apply_async((keys,), retry=False)
            except Exception:  # the broker is down: a non-2xx makes the bucket resend
                logger.warning("Storage notification for %d file(s) not queued: the "
                               "broker did not answer", len(keys), exc_info=True)
                return problem_error_response(file_errors.UploadNotificationNotQueued(),
                                              headers={"Retry-After": "30"})
        return HttpResponse(status=204)


@method_decorator(staff_member_required, name="dispatch")
class DocumentDownloadView(View):
    """Local mode: an analyst's short-lived, signed link to one stored file. It opens in
    the browser (PDFs and images), sandboxed so a hostile file cannot run script."""

    def get(self, request, token):
        if not request.user.has_perm(VIEW_CLAIM):
            return HttpResponse("Acesso negado.", status=403)
        try:
            key = storage.read_download_token(token)
        except signing.BadSignature:  # includes SignatureExpired
            return HttpResponse("Link expirado ou inválido.", status=403)
        document = DocumentFile.objects.filter(storage_key=key).first()
        if document is None or not default_storage.exists(key):
            return HttpResponse("Arquivo não encontrado.", status=404)
        data_read([document.claim_id], kind=ReadKind.DOCUMENT, user=request.user)
        response = FileResponse(
            default_storage.open(key, "rb"), as_attachment=False, filename=document.file_name,
            content_type=document.content_type,
        )
        response["Cache-Control"] = "private, no-store"
        response["Content-Security-Policy"] = "sandbox"
        return response


class FileDownloadView(View):
    """Local mode: where ``GET /api/v1/sinistros/{numero}/documentos/{id}`` redirects the
    channel. The signed, expiring token is the credential (like S3's pre-signed GET);
    the file is an attachment under its original name, never rendered here."""

    def get(self, request, token):
        try:
            file_id = storage.read_file_download_token(token)
        except signing.BadSignature:  # includes SignatureExpired
            return problem_error_response(file_errors.DownloadLinkInvalid())
        document = DocumentFile.objects.filter(
            pk=file_id, status=DocumentFile.Status.RECEIVED).first()
        if document is None or not default_storage.exists(document.storage_key):
            return problem_error_response(file_errors.DownloadLinkInvalid())
        response = FileResponse(
            default_storage.open(document.storage_key, "rb"), content_type=document.content_type,
        )
        response["Content-Disposition"] = storage.content_disposition(
            document.file_name, attachment=True)
        response["Cache-Control"] = "private, no-store"
        response["X-Content-Type-Options"] = "nosniff"
        response["Content-Security-Policy"] = "sandbox"
        return response
