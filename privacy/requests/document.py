"""The export as a readable PDF in Portuguese (fpdf2, like the letters): the same
facts as the JSON (privacy.requests.export), in sections a person can read."""

import datetime as dt
from decimal import Decimal

from fpdf import FPDF

from claims.coverages import coverage_label
from claims.formatting import brl, percent
from correspondence.pdf import _printable as printable  # the letters' Latin-1 rule

ROLE_WORDS = {"segurado": "segurado(a)", "solicitante": "solicitante",
              "contato": "pessoa para contato", "beneficiario": "beneficiário(a)",
              "representante-legal": "representante legal", "favorecido": "favorecido(a)"}


def _date(value: str | None) -> str:
    """ISO date or moment -> dd/mm/aaaa (and the hour, for a moment)."""
    if not value:
        return "-"
    if "T" in value:
        moment = dt.datetime.fromisoformat(value)
        return f"{moment:%d/%m/%Y %H:%M}"
    return f"{dt.date.fromisoformat(value):%d/%m/%Y}"


def _money(value: str | None) -> str:
    return brl(value) if value is not None else "-"


class _ExportPDF(FPDF):
    def __init__(self, title: str):
        super().__init__(format="A4")
        self.title_words = title
        self.set_auto_page_break(auto=True, margin=18)
        self.set_margins(18, 18, 18)

    def footer(self):
        self.set_y(-12)
        self.set_font("helvetica", "", 7)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, printable(f"{self.title_words} - página {self.page_no()}/{{nb}}"),
                  align="C")
        self.set_text_color(0, 0, 0)

    def heading(self, text: str, size: float = 12):
        self.ln(2)
        self.set_font("helvetica", "B", size)
        self.multi_cell(0, 6, printable(text), new_x="LMARGIN", new_y="NEXT")
        self.set_font("helvetica", "", 9.5)

    def line(self, label: str, value) -> None:
        self.set_font("helvetica", "B", 9.5)
        self.write(5, printable(f"{label}: "))
        self.set_font("helvetica", "", 9.5)
        self.write(5, printable(str(value if value not in (None, "") else "-")))
        self.ln(5)

    def text(self, value: str) -> None:
        self.multi_cell(0, 5, printable(value), new_x="LMARGIN", new_y="NEXT")


def _person(data: dict | None) -> str:
    if not data:
        return "-"
    if "descricao" in data:
        return data["descricao"]
    return ", ".join(str(v) for k, v in data.items() if v and k in ("nome", "cpf"))


def _payment_data(value) -> str:
    """The person's own payment data, in words (a PIX key, a bank account)."""
    if not isinstance(value, dict):
        return "-"
    parts = []
    for key, item in value.items():
        if isinstance(item, dict):
            parts.append(f"{key}: " + ", ".join(f"{k} {v}" for k, v in item.items()))
        else:
            parts.append(f"{key}: {item}")
    return "; ".join(parts)


def export_pdf(data: dict, *, insurer: str) -> bytes:
    title = f"Seus dados pessoais em {insurer}"
    pdf = _ExportPDF(title)
    pdf.set_title(printable(title))
    pdf.set_author(printable(insurer))
    pdf.add_page()
    pdf.heading(title, 15)
    holder = data["titular"]
    pdf.text("Resposta à sua requisição de acesso aos dados pessoais (Lei 13.709/2018, "
             "LGPD, art. 18, II e V). Este documento reúne tudo o que guardamos sobre o "
             "seu CPF, em cada papel em que ele aparece. Dados de outras pessoas não são "
             "mostrados: aparecem apenas como o papel e o CPF mascarado.")
    pdf.line("CPF", holder["cpf"])
    pdf.line("Nomes registrados", ", ".join(holder["nomes"]) or "-")
    pdf.line("Gerado em", _date(data["gerado-em"]))
    if data.get("requisicao"):
        pdf.line("Requisição", f"nº {data['requisicao']['numero']}, recebida em "
                 f"{_date(data['requisicao']['recebida-em'])}")
    pdf.heading(f"Vendas (seguros) - {len(data['vendas'])}")
    for sale in data["vendas"]:
        pdf.line("Venda", f"{sale['id-venda']} ({sale['canal']})")
        pdf.line("Apólice / certificado", f"{sale['apolice'] or '-'} / "
                 f"{sale['certificado'] or '-'}")
        pdf.line("Vigência", f"{_date(sale['inicio-vigencia'])} a "
                 f"{_date(sale['fim-vigencia'])}, {sale['situacao']}")
        insured = sale["segurado"]
        pdf.line("Segurado", _person(insured))
        if "email" in insured:
            pdf.line("E-mail / telefone", f"{insured['email'] or '-'} / "
                     f"{insured['telefone'] or '-'}")
        pdf.ln(1)
    pdf.heading(f"Sinistros - {len(data['sinistros'])}")
    for claim in data["sinistros"]:
        _claim(pdf, claim)
    pdf.heading("Com quem os dados foram compartilhados")
    if not data["compartilhamentos"]:
        pdf.text("Com ninguém.")
    for row in data["compartilhamentos"]:
        pdf.text(f"- {_date(row['em'])}: {row['com']} ({row['tipo']}), {row['evento']}, "
                 f"sinistro {row['sinistro']}")
    return bytes(pdf.output())


def _claim(pdf: _ExportPDF, claim: dict) -> None:
    pdf.heading(f"Sinistro {claim['numero']}", 11)
    pdf.line("Seu papel", ", ".join(ROLE_WORDS.get(r, r) for r in claim["papeis"]))
    pdf.line("Canal", claim["canal"])
    pdf.line("Cobertura / natureza", f"{coverage_label(claim['cobertura'])} / "
             f"{claim['natureza'] or '-'}")
    pdf.line("Situação", claim["situacao"])
    pdf.line("Valor", _money(claim["valor"]))
    pdf.line("Ocorrido em / avisado em", f"{_date(claim['ocorrido-em'])} / "
             f"{_date(claim['avisado-em'])}")
    pdf.line("Encerrado em", _date(claim["encerrado-em"]))
    pdf.line("Segurado", _person(claim["segurado"]))
    pdf.line("Solicitante", _person(claim["solicitante"]))
    if claim["contato"]:
        contact = claim["contato"]
        pdf.line("Contato", f"{contact['nome']}, {contact['email'] or '-'}, "
                 f"{contact['telefone'] or '-'}")
        if contact["relato"]:
            pdf.line("Relato", contact["relato"])
    for b in claim["beneficiarios"]:
        if b["proprio"]:
            pdf.line("Beneficiário (você)", f"{b['nome']}, {b['cpf']}, {b['tipo']}, "
                     f"{b['parentesco'] or '-'}, participação {percent(Decimal(b['participacao']))}")
            pdf.line("Seus contatos", f"{b['email'] or '-'}, {b['telefone'] or '-'}, CEP "
                     f"{b['cep'] or '-'} {b['uf'] or ''}")
            pdf.line("Seus dados de pagamento", _payment_data(b["dados-de-pagamento"]))
        else:
            pdf.line("Beneficiário", b["descricao"])
        if b.get("representante-legal"):
            pdf.line("Representante legal", _person(b["representante-legal"]))
    for p in claim["pagamentos"]:
        if not p["proprio"]:
            pdf.line("Pagamento", p["descricao"])
            continue
        pdf.line("Pagamento a você", f"{_money(p['valor'])} ({p['forma']}), {p['situacao']}, "
                 f"pago em {_date(p['pago-em'])}")
        pdf.line("Destino", _payment_data(p["dados-de-pagamento"]))
        order = p["ordem-de-pagamento"]
        if order:
            pdf.line("Ordem de pagamento", f"{order['referencia'] or '-'}, "
                     f"{order['situacao']}, banco pagador {order['banco-pagador'] or '-'}")
    for d in claim["documentos"]:
        pdf.line("Documento", f"{d['tipo']}: {d['arquivo']}, {_date(d['enviado-em'])}, "
                 f"{d['situacao']}")
    for letter in claim["cartas"]:
        pdf.line("Carta", f"{letter['carta']} para {letter['destinatario']} "
                 f"({letter['email'] or 'sem e-mail'}), escrita em "
                 f"{_date(letter['escrita-em'])}, {letter['situacao']}")
    decision = claim["decisao-automatica"]
    if decision:
        pdf.line("Decisão automática", f"regras {decision['regras']} v{decision['versao']}, "
                 f"em {_date(decision['decidida-em'])}")
        for reason in decision["motivos"]:
            pdf.text(f"  - {reason}")
    for evaluation in claim["avaliacoes-das-regras"]:
        pdf.line("Avaliação das regras", f"{_date(evaluation['avaliada-em'])}: "
                 f"{evaluation['decisao']} ({evaluation['efeito']})")
        for reason in evaluation["motivos"]:
            pdf.text(f"  - {reason}")
    pdf.ln(1)
