"""Documents as the readers expect them, made here: a death certificate (the national
model's fields) and a termination of employment (TRCT), written to a PDF with a text
layer, as registries and employers now issue them. The demo (localdev.demo.decisions) sends them
so its claims have something real to read; the tests and benchmarks photograph and scan
them (tests/support/certificates.py)."""

import datetime as dt

from fpdf import FPDF

from claims.documents.readings import matricula

MONTHS = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
          "setembro", "outubro", "novembro", "dezembro"]


def matricula_for(term: int = 123, *, valid: bool = True) -> str:
    """A death registry's matrícula (book type 4), printed as certificates print it;
    ``valid`` False: its first check digit is wrong."""
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


def identity_lines(*, name: str, cpf: str) -> list[tuple[str, str]]:
    return [("", "REPÚBLICA FEDERATIVA DO BRASIL"), ("", "CARTEIRA DE IDENTIDADE"),
            ("NOME", name), ("CPF", cpf)]


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
