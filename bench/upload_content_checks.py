"""Benchmark (not a test): what checking that an upload is complete costs, on files of
about 20 MB (``UPLOAD_MAX_BYTES``), next to reading the same file once from disk.

    python bench/upload_content_checks.py [--megabytes 20]

Files are made here: a PDF padded with a stream, a JPEG and a PNG of random pixels
(the worst case: noise does not compress), and a HEIF box structure with a large
``mdat``. Each is written to a temporary folder and checked through
``claims.documents.checks.problem_with`` as the service does for local uploads; the bytes
the check read are counted. The S3 path uses ranged GETs for the same reads.
"""

import argparse
import io
import os
import struct
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Production settings (DEBUG off) start only with a real key; any will do here.
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)

import django  # noqa: E402

django.setup()

from PIL import Image  # noqa: E402

from claims.documents import checks  # noqa: E402
from claims.documents.storage import StoredObject  # noqa: E402


class CountingFile(io.FileIO):
    read_bytes = 0

    def read(self, size=-1):
        data = super().read(size)
        CountingFile.read_bytes += len(data)
        return data

    def readinto(self, buffer):
        count = super().readinto(buffer)
        CountingFile.read_bytes += count or 0
        return count


def noise_image(fmt: str, target: int) -> bytes:
    # Bytes per pixel of random RGB: about 3 as PNG, about 1.2 as a quality-95 JPEG.
    side = int((target / (3 if fmt == "PNG" else 1.2)) ** 0.5)
    image = Image.frombytes("RGB", (side, side), os.urandom(side * side * 3))
    out = io.BytesIO()
    image.save(out, format=fmt, **({"quality": 95} if fmt == "JPEG" else {"compress_level": 1}))
    return out.getvalue()


def pdf(target: int) -> bytes:
    padding = b"0" * target
    head = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"
    stream = b"2 0 obj\n<< /Length %d >>\nstream\n" % len(padding) + padding + b"\nendstream\nendobj\n"
    xref = len(head) + len(stream)
    return (head + stream + b"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n"
            + b"%010d 00000 n \n" % len(head)
            + b"trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref)


def heif(target: int) -> bytes:
    def box(kind, payload):
        return struct.pack(">I4s", 8 + len(payload), kind) + payload
    return (box(b"ftyp", b"heic\0\0\0\0mif1heic") + box(b"meta", b"\0" * 40)
            + box(b"mdat", b"\x26" * target))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=float, default=20)
    target = int(parser.parse_args().megabytes * 1024 * 1024)
    files = {"application/pdf": pdf(target), "image/jpeg": noise_image("JPEG", target),
             "image/png": noise_image("PNG", target), "image/heic": heif(target)}
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'type':<16}{'size MB':>9}{'check ms':>10}{'read ms':>9}{'ratio':>7}{'KiB read':>10}")
        for content_type, content in files.items():
            path = Path(folder) / "file"
            path.write_bytes(content)
            started = time.perf_counter()
            path.read_bytes()
            read_once = time.perf_counter() - started
            CountingFile.read_bytes = 0
            stored = StoredObject(size=len(content), content_type="",
                                  open=lambda whole=False, p=path: CountingFile(p))
            started = time.perf_counter()
            problem = checks.problem_with(content_type, stored)
            check = time.perf_counter() - started
            assert problem == "", problem
            print(f"{content_type:<16}{len(content) / 1e6:>9.1f}{check * 1000:>10.1f}"
                  f"{read_once * 1000:>9.1f}{check / read_once:>7.1f}"
                  f"{CountingFile.read_bytes / 1024:>10.1f}")


if __name__ == "__main__":
    main()
