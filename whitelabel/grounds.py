"""The grounds of a denial as a PDF the person keeps (Lei 15.040/2024, arts. 82-83: the
insured may have the documents and the reasons a decision rested on): the reason code,
the policy clause, the text of the decision and the documents it rested on, drawn by
fpdf2 from the claim as it stands (the denial's own fields, which only a reopening
clears), like the letters' PDFs (docs/correspondence.md says why fpdf2)."""

import datetime as dt

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from fpdf import FPDF
from fpdf.fonts import TextStyle

from claims.coverages import coverage_label
from claims.models import Claim, DocumentFile
from claims.models.reconsiderations import RECONSIDERATION_DOCUMENTS
from whitelabel.branding import Brand

# The built-in fonts speak Windows-1252 (all of Portuguese); the few marks outside it
# become their plain forms.
_PLAIN = str.maketrans({"\u2192": "->", "\u2264": "<=", "\u2265": ">=", "\u2009": " ",
                        "\u202f": " ", "\u00a0": " ", "\u201c": '"', "\u201d": '"'})
_STYLES = {
    "h2": TextStyle(font_family="helvetica", font_style="B", font_size_pt=15, color="#1a1a1a",
                    t_margin=0, b_margin=2),
    "h3": TextStyle(font_family="helvetica", font_style="B", font_size_pt=12, color="#1a1a1a",
                    t_margin=3, b_margin=1),
}


def _printable(text: str) -> str:
    return text.translate(_PLAIN).encode("cp1252", "replace").decode("cp1252")


def _rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


def file_name(claim: Claim) -> str:
    return f"fundamentos-da-recusa-{claim.number}.pdf"


def documents_considered(claim: Claim) -> list[tuple[str, DocumentFile]]:
    """(title, file) of each file received before the denial: what it could rest on.
    Files sent for a reconsideration came after and are not the denial's grounds."""
    titles = {r.doc_type: r.title for r in claim.document_requests.all()}
    files = claim.files.filter(status=DocumentFile.Status.RECEIVED,
                               received_at__lte=claim.denied_at).exclude(
        doc_type=RECONSIDERATION_DOCUMENTS).order_by("received_at", "id")
    return [(titles.get(f.doc_type, "Outros documentos"), f) for f in files]


class _GroundsPDF(FPDF):
    def __init__(self, *, brand: Brand, number: str, footer_words: str):
        super().__init__(format="A4")
        self.brand, self.number, self.footer_words = brand, number, footer_words
        self.set_auto_page_break(auto=True, margin=20)
        self.set_margins(20, 20, 20)

    def header(self):
        self.set_fill_color(*_rgb(self.brand.color))
        self.rect(0, 0, self.w, 16, style="F")
        self.set_text_color(*_rgb(self.brand.text_color))
        self.set_font("helvetica", "B", 12)
        self.set_xy(20, 4)
        self.cell(0, 8, _printable(self.brand.name))
        self.set_font("helvetica", "", 9)
        self.set_xy(20, 4)
        self.cell(0, 8, _printable(f"Sinistro {self.number}"), align="R")
        self.set_text_color(0, 0, 0)
        self.set_y(24)

    def footer(self):
        self.set_y(-14)
        self.set_font("helvetica", "", 7)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, _printable(f"{self.footer_words} · página {self.page_no()}/{{nb}}"),
                  align="C")


def denial_grounds_pdf(claim: Claim, *, brand: Brand, now: dt.datetime | None = None) -> bytes:
    now = now or timezone.now()
    html = render_to_string("whitelabel/pdf/denial_grounds.html", {
        "claim": claim, "brand": brand, "coverage": coverage_label(claim.coverage.name),
        "denied_on": timezone.localdate(claim.denied_at) if claim.denied_at else None,
        "documents": documents_considered(claim),
        "ombudsman": settings.INSURER_OMBUDSMAN_TEXT, "susep": settings.SUSEP_CONSUMER_TEXT,
    })
    pdf = _GroundsPDF(brand=brand, number=claim.number,
                      footer_words=f"Fundamentos da recusa · cópia emitida em "
                                   f"{timezone.localtime(now):%d/%m/%Y %H:%M}")
    pdf.set_title(_printable(f"Sinistro {claim.number}: fundamentos da recusa"))
    pdf.set_author(_printable(brand.name))
    pdf.set_creation_date(now)
    pdf.add_page()
    pdf.set_font("helvetica", "", 10.5)
    pdf.write_html(_printable(html), tag_styles=_STYLES)
    return bytes(pdf.output())
