"""Where claim documents are stored and how callers PUT them there.

Two storages, one chosen by ``DOCUMENT_STORAGE`` (:func:`current`):

- :class:`S3Storage` (``s3``): any S3-compatible bucket. ``url-envio`` is a boto3 pre-signed ``put_object``
  URL bound to the object key and the media type; the bytes never pass through us.
  django-storages (``default_storage``) gives analysts short-lived download links.
- :class:`LocalStorage` (``local``): files under ``MEDIA_ROOT``. ``url-envio`` points at our own upload view
  with a signed, expiring token bound to the file record and its media type.

Either way ``inspect`` reports what arrived, so the service can check it.
"""

import functools
import io
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO
from urllib.parse import quote, urlsplit

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError
from django.conf import settings
from django.core import signing
from django.core.files.storage import default_storage
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import reverse

UPLOAD_SALT = "claims.document-upload"
DOWNLOAD_SALT = "claims.document-download"
FILE_DOWNLOAD_SALT = "claims.document-download.channel"
# What the S3 reader fetches per request when a check reads a whole image.
S3_READ_BLOCK = 1024 * 1024


@dataclass(frozen=True)
class StoredObject:
    """What arrived under a key: its size, the media type the storage recorded (S3),
    and ``open(whole=False)`` -> a seekable binary file for the content checks
    (``whole``: the caller will read it all, so fetch it in large blocks)."""

    size: int
    content_type: str
    open: Callable[..., BinaryIO]


# --- S3 -------------------------------------------------------------------------------


@functools.cache
def s3_client():
    """One boto3 client per process (clients are thread-safe; creating one is slow)."""
    return boto3.client(
        "s3",
        endpoint_url=settings.AWS_S3_ENDPOINT_URL,
        region_name=settings.AWS_S3_REGION_NAME,
        aws_access_key_id=settings.AWS_ACCESS_KEY_ID,
        aws_secret_access_key=settings.AWS_SECRET_ACCESS_KEY,
        config=Config(
            signature_version="s3v4",
            s3={"addressing_style": settings.AWS_S3_ADDRESSING_STYLE},
            retries={"max_attempts": 3, "mode": "standard"},
            connect_timeout=5,
            read_timeout=10,
        ),
    )


@receiver(setting_changed)
def _forget_client(*, setting, **kwargs):
    if setting.startswith("AWS_") or setting == "DOCUMENT_STORAGE":
        s3_client.cache_clear()


def _s3_reader(key: str, *, size: int, etag: str, whole: bool) -> BinaryIO:
    reader = S3ObjectReader(key, size=size, etag=etag)
    return io.BufferedReader(reader, S3_READ_BLOCK) if whole else reader


class StoredObjectChanged(Exception):
    """The object was replaced after it was inspected: check it again later."""


class S3ObjectReader(io.RawIOBase):
    """A seekable, read-only view of one object through ranged GETs, so a check reads
    only the bytes it asks for (a PDF's head and tail, an image's boxes) and never past
    the size seen by HEAD. Each GET carries ``If-Match`` with that HEAD's ETag: an
    object replaced meanwhile (a pre-signed PUT works until it expires) fails the check
    instead of mixing two files.
    """

    def __init__(self, key: str, *, size: int, etag: str):
        super().__init__()
        self.key, self.size, self.etag, self.position = key, size, etag, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = max(0, base + offset)
        return self.position

    def readinto(self, buffer) -> int:
        end = min(self.position + len(buffer), self.size)
        if end <= self.position:
            return 0
        try:
            body = s3_client().get_object(
                Bucket=settings.AWS_STORAGE_BUCKET_NAME, Key=self.key, IfMatch=self.etag,
                Range=f"bytes={self.position}-{end - 1}",
            )["Body"].read()
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("412", "PreconditionFailed"):
                raise StoredObjectChanged(self.key) from None
            raise
        buffer[:len(body)] = body
        self.position += len(body)
        return len(body)


# --- the two storages -------------------------------------------------------------------


class DocumentStorage:
    """What the rest of the code asks of the storage, whichever it is."""

    name: str
    # The service receives the file's bytes itself (its own upload view), checking them
    # as they arrive; otherwise they go to a bucket, and the service looks for them.
    receives_files: bool

    def upload_url(self, *, file_id, key: str, content_type: str) -> str:
        raise NotImplementedError

    def inspect(self, key: str) -> StoredObject | None:
        """What is stored under ``key`` (None when nothing arrived yet)."""
        raise NotImplementedError

    def delete(self, key: str) -> None:
        raise NotImplementedError

    def download_url(self, key: str, *, file_name: str = "", content_type: str = "") -> str:
        """A short-lived link for analysts that opens in the browser; never a public URL."""
        raise NotImplementedError

    def file_download_url(self, *, file_id, key: str, file_name: str,
                          content_type: str) -> str:
        """A short-lived link for the channel to one file it sent, answered as an
        attachment with its original name."""
        raise NotImplementedError

    def browser_upload_origins(self) -> list[str]:
        """Where a browser PUTs ``url-envio`` (for a page's Content-Security-Policy)."""
        raise NotImplementedError


class LocalStorage(DocumentStorage):
    name, receives_files = "local", True

    def upload_url(self, *, file_id, key: str, content_type: str) -> str:
        path = reverse("document-upload",
                       kwargs={"token": local_upload_token(file_id, content_type)})
        return f"{settings.BASE_URL}{path}"

    def inspect(self, key: str) -> StoredObject | None:
        if not default_storage.exists(key):
            return None
        return StoredObject(
            size=default_storage.size(key), content_type="",
            open=lambda whole=False: default_storage.open(key, "rb"),
        )

    def save(self, key: str, content) -> None:
        """A file the upload view received (this storage only)."""
        stored_as = default_storage.save(key, content)
        if stored_as != key:
            # Keys are random and unique: a renamed save means something else wrote there.
            default_storage.delete(stored_as)
            raise RuntimeError(f"storage key already in use: {key}")

    def delete(self, key: str) -> None:
        default_storage.delete(key)

    def download_url(self, key: str, *, file_name: str = "", content_type: str = "") -> str:
        return reverse("document-download",
                       kwargs={"token": signing.dumps(key, salt=DOWNLOAD_SALT)})

    def file_download_url(self, *, file_id, key: str, file_name: str,
                          content_type: str) -> str:
        # Our own view with a signed, expiring token naming the file (no session: the
        # link is the credential, as a pre-signed URL is).
        token = signing.dumps(str(file_id), salt=FILE_DOWNLOAD_SALT)
        return f"{settings.BASE_URL}{reverse('document-file', kwargs={'token': token})}"

    def browser_upload_origins(self) -> list[str]:
        return [_origin(settings.BASE_URL)]


class S3Storage(DocumentStorage):
    name, receives_files = "s3", False

    def upload_url(self, *, file_id, key: str, content_type: str) -> str:
        return s3_client().generate_presigned_url(
            "put_object",
            Params={
                "Bucket": settings.AWS_STORAGE_BUCKET_NAME,
                "Key": key,
                "ContentType": content_type,
            },
            ExpiresIn=settings.UPLOAD_URL_EXPIRE_SECONDS,
            HttpMethod="PUT",
        )

    def inspect(self, key: str) -> StoredObject | None:
        bucket = settings.AWS_STORAGE_BUCKET_NAME
        try:
            head = s3_client().head_object(Bucket=bucket, Key=key)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return None
            raise
        size = head["ContentLength"]
        return StoredObject(
            size=size, content_type=head.get("ContentType", ""),
            open=lambda whole=False: _s3_reader(key, size=size, etag=head["ETag"], whole=whole),
        )

    def delete(self, key: str) -> None:
        s3_client().delete_object(Bucket=settings.AWS_STORAGE_BUCKET_NAME, Key=key)

    def download_url(self, key: str, *, file_name: str = "", content_type: str = "") -> str:
        return self._presigned_get(key, content_disposition(file_name, attachment=False),
                                   content_type)

    def file_download_url(self, *, file_id, key: str, file_name: str,
                          content_type: str) -> str:
        return self._presigned_get(key, content_disposition(file_name, attachment=True),
                                   content_type)

    def browser_upload_origins(self) -> list[str]:
        if settings.AWS_S3_ENDPOINT_URL:
            return [_origin(settings.AWS_S3_ENDPOINT_URL)]
        region = settings.AWS_S3_REGION_NAME
        return [f"https://s3.{region}.amazonaws.com",
                f"https://{settings.AWS_STORAGE_BUCKET_NAME}.s3.{region}.amazonaws.com"]

    @staticmethod
    def _presigned_get(key: str, disposition: str, content_type: str) -> str:
        # django-storages: a pre-signed GET (AWS_QUERYSTRING_EXPIRE) that asks the bucket
        # to answer with the file's own name and type.
        parameters = {"ResponseContentDisposition": disposition}
        if content_type:
            parameters["ResponseContentType"] = content_type
        return default_storage.url(key, parameters=parameters)


_STORAGES = {storage.name: storage for storage in (LocalStorage(), S3Storage())}


def current() -> DocumentStorage:
    """The storage ``DOCUMENT_STORAGE`` names (read at each call: tests switch it)."""
    return _STORAGES[settings.DOCUMENT_STORAGE]


# --- signed links and their names ---------------------------------------------------------


def local_upload_token(file_id, content_type: str) -> str:
    return signing.dumps({"id": str(file_id), "ct": content_type}, salt=UPLOAD_SALT, compress=True)


def read_local_upload_token(token: str) -> tuple[str, str]:
    """-> (file id, media type). Raises ``signing.SignatureExpired`` or
    ``signing.BadSignature``."""
    data = signing.loads(token, salt=UPLOAD_SALT, max_age=settings.UPLOAD_URL_EXPIRE_SECONDS)
    return data["id"], data["ct"]


def read_download_token(token: str) -> str:
    """-> storage key. Raises like :func:`read_local_upload_token`."""
    return signing.loads(token, salt=DOWNLOAD_SALT, max_age=settings.DOWNLOAD_URL_EXPIRE_SECONDS)


def read_file_download_token(token: str) -> str:
    """-> file id. Raises ``signing.BadSignature`` (``SignatureExpired`` included)."""
    return signing.loads(token, salt=FILE_DOWNLOAD_SALT,
                         max_age=settings.DOWNLOAD_URL_EXPIRE_SECONDS)


def content_disposition(file_name: str, *, attachment: bool) -> str:
    """RFC 6266: an ASCII ``filename`` for every client and, when the name is not plain
    ASCII, the exact name in ``filename*`` (RFC 5987, UTF-8). Control characters never
    reach the header; the fallback turns quotes and backslashes into ``_`` (and then
    ``filename*`` carries the exact name)."""
    kind = "attachment" if attachment else "inline"
    name = "".join("_" if unicodedata.category(c).startswith("C") else c for c in file_name)
    if not name:
        return kind
    fallback = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    fallback = fallback.replace("\\", "_").replace('"', "_") or "arquivo"
    value = f'{kind}; filename="{fallback}"'
    if fallback != name:
        value += f"; filename*=UTF-8''{quote(name, safe='')}"
    return value


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
