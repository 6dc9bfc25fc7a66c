"""Documents made in the test, as people send them: a death certificate and a
termination of employment (TRCT) written to a PDF with a text layer (fpdf2), the same
page photographed (rendered, slightly turned, noisy, blurred, JPEG quality 70), and that
photo inside a PDF without text (a scan)."""

import datetime as dt
import io
import random

import pypdfium2
from fpdf import FPDF
from PIL import Image, ImageFilter

from claims.documents.readings import matricula

MONTHS = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
          "setembro", "outubro", "novembro", "dezembro"]


def matricula_for(term: int = 123, *, valid: bool = True) -> str:
    """A death registry's matrícula (book type 4), printed as certificates print it."""
    first30 = f"10453901552026400012021{term:07d}"
    digits = matricula.check_digits(first30)
    if not valid:
        digits = f"{(int(digits[0]) + 1) % 10}{digits[1]}"
    return matricula.formatted(first30 + digits)


def in_words(date: dt.date) -> str:
    return f"{date.day} de {MONTHS[date.month - 1]} de {date.year}"


def death_certificate_lines(*, name: str, cpf: str, died: dt.date, matricula_text: str,
                            date_in_words: bool = False) -> list[tuple[str, str]]:
    """(label, value) pairs as the national model prints them, label above value."""
    return [
        ("", "REPÚBLICA FEDERATIVA DO BRASIL"),
        ("", "REGISTRO CIVIL DAS PESSOAS NATURAIS"),
        ("", "CERTIDÃO DE ÓBITO"),
        ("NOME", name),
        ("CPF", cpf),
        ("MATRÍCULA", matricula_text),
        ("DATA DO FALECIMENTO", in_words(died) if date_in_words else f"{died:%d/%m/%Y}"),
        ("LOCAL DO FALECIMENTO", "Hospital Municipal, São Paulo - SP"),
        ("NOME DO PAI", "José Antônio Souza"),
        ("NOME DA MÃE", "Ana Maria Souza"),
        ("DECLARANTE", "Pedro Souza, CPF 111.444.777-35"),
    ]


def termination_lines(*, name: str, cpf: str, admitted: dt.date, left: dt.date):
    return [
        ("", "TERMO DE RESCISÃO DO CONTRATO DE TRABALHO"),
        ("01 CNPJ/CEI", "11.222.333/0001-81"),
        ("02 Razão Social/Nome", "Empresa Exemplo Ltda"),
        ("10 PIS/PASEP", "120.54564.56-1"),
        ("11 Nome", name),
        ("17 CPF", cpf),
        ("24 Data de Admissão", f"{admitted:%d/%m/%Y}"),
        ("26 Data de Afastamento", f"{left:%d/%m/%Y}"),
        ("27 Código Afastamento", "SJ2"),
    ]


def text_pdf(lines: list[tuple[str, str]]) -> bytes:
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.set_margins(20, 20)
    for label, value in lines:
        if label:
            pdf.set_font("Helvetica", size=10)
            pdf.cell(0, 6, label, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", style="B", size=14)
        pdf.cell(0, 9, value, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    return bytes(pdf.output())


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
