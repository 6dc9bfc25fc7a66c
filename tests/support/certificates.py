"""Documents made in the test, as people send them: a death certificate and a
termination of employment (TRCT) written to a PDF with a text layer
(claims.documents.readings.specimens), the same page photographed (rendered, slightly
turned, noisy, blurred, JPEG quality 70), and that photo inside a PDF without text (a
scan)."""

import io
import random

import pypdfium2
from fpdf import FPDF
from PIL import Image, ImageFilter

# The documents themselves are the app's (the demo sends them too).
from claims.documents.readings.specimens import (  # noqa: F401
    death_certificate_lines,
    in_words,
    matricula_for,
    termination_lines,
    text_pdf,
)


def page_image(pdf: bytes, *, dpi: int = 200) -> Image.Image:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def photographed(image: Image.Image, *, seed: int = 1) -> bytes:
    """A phone photo of the page: turned 1.5°, sensor noise, a little blur, JPEG 70."""
    rng = random.Random(seed)
    turned = image.rotate(1.5, expand=True, fillcolor=(235, 232, 225))
    # Seeded noise (Image.effect_noise is not): the same photo on every run.
    noise = Image.frombytes("L", turned.size, rng.randbytes(turned.size[0] * turned.size[1]))
    noise = noise.convert("RGB")
    noisy = Image.blend(turned, noise, 0.12)
    blurred = noisy.filter(ImageFilter.GaussianBlur(0.8 + rng.random() * 0.2))
    out = io.BytesIO()
    blurred.save(out, format="JPEG", quality=70)
    return out.getvalue()


def scanned_pdf(jpeg: bytes) -> bytes:
    """The photo as the only content of a PDF page (no text layer)."""
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.image(io.BytesIO(jpeg), x=0, y=0, w=210)
    return bytes(pdf.output())
