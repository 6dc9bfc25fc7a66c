"""The letter as a PDF, drawn by fpdf2 (pure Python: `make run` needs no system
library; docs/correspondence.md says why this one).

The PDF is drawn from the stored letter, so the e-mail's attachment, the API's
download and the hosted pages' copy say the same thing. Its dates are the message's,
so drawing it again gives the same document.
"""

import io

from fpdf import FPDF
from fpdf.fonts import TextStyle

from claims.formatting import local_moment
from correspondence.letters import shown
from correspondence.models import Message
from correspondence.rendering import letter_part
from whitelabel.branding import Brand

# The PDF's built-in fonts speak Latin-1 (all of Portuguese); the few typographic marks
# outside it (arrows, curly quotes, dashes) become their plain forms.
_PLAIN = str.maketrans({"\u2192": "->", "\u2264": "<=", "\u2265": ">=", "\u2009": " ",
                        "\u202f": " ", "\u00a0": " ", "\u201c": '"', "\u201d": '"',
                        "\u2018": "'", "\u2019": "'", "\u2013": "-", "\u2014": "-",
                        "\u2026": "..."})


def _printable(text: str) -> str:
    return text.translate(_PLAIN).encode("cp1252", "replace").decode("cp1252")


# Headings in near-black: the brand's colour is in the band above, where its text colour
# is chosen for contrast; a light brand colour would be unreadable on white paper.
_STYLES = {
    "h2": TextStyle(font_family="helvetica", font_style="B", font_size_pt=15, color="#1a1a1a",
                    t_margin=0, b_margin=2),
    "h3": TextStyle(font_family="helvetica", font_style="B", font_size_pt=12, color="#1a1a1a",
                    t_margin=3, b_margin=1),
}


# Where a letter's sign-off begins (correspondence/letters/_closing.html), and the room it
# needs: "Atenciosamente", the signatory, the insurer's identification.
SIGN_OFF = "<!--fecho-->"
SIGN_OFF_HEIGHT_MM = 48


def _rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


class _LetterPDF(FPDF):
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


def letter_pdf(message: Message, *, brand: Brand, logo_png: bytes | None = None) -> bytes:
    pdf = _LetterPDF(brand=brand, number=message.claim.number,
                     footer_words=f"{message.get_letter_display()} · emitida em "
                                  f"{local_moment(message.created_at)}")
    pdf.set_title(_printable(message.subject))
    pdf.set_author(_printable(brand.name))
    pdf.set_creation_date(message.created_at)
    pdf.add_page()
    if logo_png:
        pdf.image(io.BytesIO(logo_png), x=pdf.w - 20 - 30, y=20, h=12)
        pdf.set_y(36)
    pdf.set_font("helvetica", "", 10.5)
    body, _, sign_off = _printable(shown(letter_part(message.body_html))).partition(SIGN_OFF)
    pdf.write_html(body, tag_styles=_STYLES)
    if sign_off:
        # The signature and the insurer's identification stay together: never a page
        # holding only the foot of a letter.
        if pdf.get_y() > pdf.page_break_trigger - SIGN_OFF_HEIGHT_MM:
            pdf.add_page()
        pdf.write_html(sign_off, tag_styles=_STYLES)
    return bytes(pdf.output())
