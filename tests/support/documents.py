"""Shared by the document tests: small but complete files of each allowed type (the
service checks that what arrives is whole), and a claim waiting for documents."""

import io
import struct
from urllib.parse import urlparse

from PIL import Image
from rest_framework.test import APIClient

from tests.support.api import opening_body


def pdf_bytes(pages: int = 1, padding: bytes = b"") -> bytes:
    """A well-formed PDF (objects, cross-reference table, trailer), ``padding`` inside a
    stream to make it as large as a test needs."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n" % len(padding) + padding + b"\nendstream"]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def image_bytes(fmt: str, size=(64, 48)) -> bytes:
    """A real image Pillow wrote (noise, so JPEG data is not trivially short)."""
    image = Image.frombytes("RGB", size, bytes((i * 37) % 251 for i in range(size[0] * size[1] * 3)))
    out = io.BytesIO()
    image.save(out, format=fmt)
    return out.getvalue()


def heif_bytes() -> bytes:
    """The top-level box structure of a HEIC file: ftyp, meta (with its hdlr), mdat."""
    def box(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I4s", 8 + len(payload), kind) + payload
    handler = box(b"hdlr", b"\x00" * 8 + b"pict" + b"\x00" * 13)
    return (box(b"ftyp", b"heic\x00\x00\x00\x00mif1heic")
            + box(b"meta", b"\x00\x00\x00\x00" + handler)
            + box(b"mdat", b"\x00\x00\x00\x10" + b"\x26\x01" * 8))


PDF = pdf_bytes()
PNG = image_bytes("PNG")
JPEG = image_bytes("JPEG")
HEIC = heif_bytes()

OPEN_BODY = opening_body(natureza="morte-acidental", **{"relato-do-ocorrido": None})


def upload_body(file_name="certidao.pdf", tipo="certidao-de-obito", **extra):
    body = {"nome-arquivo": file_name, "data-envio": "2026-11-21T12:00:00-03:00", **extra}
    if tipo:
        body["tipo"] = tipo
    return body


def put(url, content: bytes, content_type="application/pdf", **headers):
    """PUT to url-envio the way a caller would: anonymous, raw body, its length declared
    (the test client leaves Content-Length out of an empty body; HTTP clients do not)."""
    headers.setdefault("CONTENT_LENGTH", str(len(content)))
    return APIClient().generic("PUT", urlparse(url).path, content, content_type=content_type,
                               **headers)
