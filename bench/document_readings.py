"""Benchmark (not a test): what reading a received file costs per page on this machine,
through ``claims.documents.readings.text.read`` as the worker calls it: a PDF with a
text layer (born digital) against the same page photographed (JPEG) and scanned (a PDF
of that photo, no text), one page and three.

    python bench/document_readings.py [--rounds 5]

The documents are the tests' own (tests/support/certificates.py): a death certificate
written with fpdf2, rendered at 200 dpi, turned 1.5°, noisy, blurred, JPEG quality 70.
Variants alternate within each round, so load from elsewhere slows them alike; the
figure is the median seconds per page, with the fields read as a check that the reading
worked (an OCR that reads nothing is fast).
"""

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Production settings (DEBUG off) start only with a real key; any will do here.
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)

import django  # noqa: E402

django.setup()

from fpdf import FPDF  # noqa: E402

from claims.documents.readings import kinds, text  # noqa: E402
from tests.support.certificates import (  # noqa: E402
    death_certificate_lines, matricula_for, page_image, photographed, scanned_pdf, text_pdf)


def scanned_pages(jpeg: bytes, pages: int) -> bytes:
    import io

    pdf = FPDF(format="A4")
    for _ in range(pages):
        pdf.add_page()
        pdf.image(io.BytesIO(jpeg), x=0, y=0, w=210)
    return bytes(pdf.output())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    born_digital = text_pdf(death_certificate_lines(
        name="Maria das Graças Souza", cpf="529.982.247-25", died=dt.date(2026, 3, 12),
        matricula_text=matricula_for()))
    photo = photographed(page_image(born_digital))
    variants = {
        "PDF com texto (1 pág.)": (born_digital, "application/pdf", 1),
        "foto JPEG (1 pág.)": (photo, "image/jpeg", 1),
        "PDF escaneado (1 pág.)": (scanned_pdf(photo), "application/pdf", 1),
        "PDF escaneado (3 pág.)": (scanned_pages(photo, 3), "application/pdf", 3),
    }
    times = {name: [] for name in variants}
    found = {}
    for _ in range(args.rounds):
        for name, (content, content_type, pages) in variants.items():
            started = time.perf_counter()
            read = text.read(content, content_type, max_pages=5, language="por")
            times[name].append((time.perf_counter() - started) / pages)
            found[name] = (read.engine, read.confidence,
                           len(kinds.extract("certidao-de-obito", read.text)))
    print(f"{os.cpu_count()} CPUs; {args.rounds} rounds; median seconds per page")
    base = statistics.median(times["PDF com texto (1 pág.)"])
    for name, values in times.items():
        engine, confidence, fields = found[name]
        median = statistics.median(values)
        print(f"{name:26} {median:8.4f} s/pág.  x{median / base:7.0f}  {engine}"
              f"{'' if confidence is None else f', confiança {confidence}'}; {fields}/4 campos")


if __name__ == "__main__":
    main()
