"""Everything the service holds about one CPF (LGPD art. 18, II and V), in every role
it appears, as one JSON-ready dict with stable Portuguese kebab-case keys (the API's
style). docs/privacy-requests.md lists every key and the masking rules.

Nothing of another person is shown: other people in the person's claims appear only as
their role and a masked CPF ("Outro beneficiário (CPF ***.***.**9-00)"); their shares,
payments, documents, contact and bank data are left out. The whole export is read in a
fixed number of queries, whatever the number of claims (tests assert it)."""

import datetime as dt

from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils import timezone

from claims.coverages import pays_on_death
from claims.models import Beneficiary, Claim, DocumentFile, Event, Payment, Sale
from correspondence.models import Message, Role
from webhooks.models import Delivery

FORMAT = "lgpd-exportacao/1"
SRO_NAME = "Registradora do SRO (Sistema de Registro de Operações, SUSEP)"


class Papel:
    INSURED = "segurado"
    REQUESTER = "solicitante"
    CONTACT = "contato"
    BENEFICIARY = "beneficiario"
    REPRESENTATIVE = "representante-legal"
    PAYEE = "favorecido"


ROLE_WORDS = {Papel.INSURED: "Segurado", Papel.REQUESTER: "Solicitante",
              Papel.CONTACT: "Pessoa para contato", Papel.BENEFICIARY: "Beneficiário",
              Papel.REPRESENTATIVE: "Representante legal", Papel.PAYEE: "Favorecido"}


def mask_tax_id(value: str) -> str:
    """A CPF with only its last three digits, a CNPJ with only its last two."""
    digits = "".join(ch for ch in value or "" if ch.isdigit())
    if len(digits) == 11:
        return f"***.***.**{digits[8]}-{digits[9:]}"
    if len(digits) == 14:
        return f"**.***.***/****-{digits[12:]}"
    return "não informado"


def format_cpf(digits: str) -> str:
    return f"{digits[:3]}.{digits[3:6]}.{digits[6:9]}-{digits[9:]}"


def other(role_words: str, tax_id: str) -> str:
    return f"{role_words} (CPF {mask_tax_id(tax_id)})" if tax_id else role_words


def _day(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return timezone.localtime(value).isoformat(timespec="seconds")
    return value.isoformat()


def _money(value) -> str | None:
    return None if value is None else f"{value:.2f}"


def claims_of(cpf: str):
    """Every claim where ``cpf`` appears, in any role (one query)."""
    return Claim.objects.filter(
        Q(sale__insured_cpf=cpf) | Q(requester_tax_id=cpf)
        | Q(Exists(Beneficiary.objects.filter(claim=OuterRef("pk")).filter(
            Q(tax_id=cpf) | Q(representative_tax_id=cpf))))
        | Q(Exists(Payment.objects.filter(claim=OuterRef("pk"), beneficiary_tax_id=cpf))))


def _loaded_claims(cpf: str) -> list[Claim]:
    """The claims with everything the export reads: one query per relation."""
    return list(
        claims_of(cpf)
        .select_related("sale", "sale__channel", "coverage", "channel", "automatic_decision",
                        "sro_registration")
        .prefetch_related(
            "beneficiaries",
            Prefetch("payments", queryset=Payment.objects.select_related(
                "order", "order__account").order_by("created_at")),
            Prefetch("files", queryset=DocumentFile.objects.select_related("request")
                     .order_by("created_at")),
            Prefetch("messages", queryset=Message.objects.defer("body_html", "body_text")
                     .order_by("created_at")),
            Prefetch("events", queryset=Event.objects.select_related("channel")
                     .defer("details").order_by("created_at")),
            Prefetch("events__deliveries", queryset=Delivery.objects.select_related(
                "subscription__channel").defer("body").order_by("created_at")),
            "rule_evaluations",
            "sro_registration__submissions",
        )
        .order_by("-notified_at", "number"))


def roles_in(claim: Claim, cpf: str) -> list[str]:
    roles = []
    if claim.sale.insured_cpf == cpf:
        roles.append(Papel.INSURED)
    if claim.requester_tax_id == cpf:
        roles.append(Papel.REQUESTER)
    if owns_contact(claim, cpf):
        roles.append(Papel.CONTACT)
    beneficiaries = claim.beneficiaries.all()
    if any(b.tax_id == cpf for b in beneficiaries):
        roles.append(Papel.BENEFICIARY)
    if any(b.representative_tax_id == cpf for b in beneficiaries):
        roles.append(Papel.REPRESENTATIVE)
    if any(p.beneficiary_tax_id == cpf for p in claim.payments.all()):
        roles.append(Papel.PAYEE)
    return roles


def owns_contact(claim: Claim, cpf: str) -> bool:
    """The claim's contact fields (and its narrative, and the letters to its contact)
    are the person's when they are the requester, or the insured of a living claim
    whose requester has no CPF of their own (the insured reported it). After a death,
    whoever reported it is someone else: their name, e-mail and letters are theirs."""
    if claim.requester_tax_id:
        return claim.requester_tax_id == cpf
    return claim.sale.insured_cpf == cpf and not pays_on_death(claim.coverage.name)


def _sale(sale: Sale, cpf: str) -> dict:
    own = sale.insured_cpf == cpf
    return {
        "id-venda": str(sale.pk),
        "canal": sale.channel.name,
        "apolice": sale.policy_number,
        "certificado": sale.certificate_number,
        "inicio-vigencia": _day(sale.valid_from),
        "fim-vigencia": _day(sale.valid_until),
        "situacao": sale.get_status_display(),
        "segurado": ({"nome": sale.insured_name, "cpf": format_cpf(sale.insured_cpf),
                      "email": sale.insured_email,
                      "telefone": _phone(sale.insured_phone_area_code,
                                         sale.insured_phone_number)}
                     if own else {"descricao": other("Segurado", sale.insured_cpf)}),
    }


def _phone(area: str, number: str) -> str:
    return f"({area}) {number}" if area and number else number or ""


def _beneficiary(b: Beneficiary, cpf: str) -> dict:
    if b.tax_id == cpf:
        row = {"proprio": True, "nome": b.name, "cpf": format_cpf(cpf),
               "tipo": b.get_kind_display(), "parentesco": b.get_relationship_display(),
               "participacao": _money(b.share), "nascimento": _day(b.birth_date),
               "email": b.email, "telefone": b.phone, "cep": b.postal_code, "uf": b.state,
               "dados-de-pagamento": b.payment_method, "retido": bool(b.held_at)}
        if b.representative_tax_id:
            row["representante-legal"] = (
                {"nome": b.representative_name, "cpf": format_cpf(cpf)}
                if b.representative_tax_id == cpf
                else {"descricao": other("Representante legal", b.representative_tax_id)})
        return row
    if b.representative_tax_id == cpf:
        # They act for someone else (a minor heir): their own name and CPF, not the heir's.
        return {"proprio": False, "descricao": other("Beneficiário representado", b.tax_id),
                "representante-legal": {"nome": b.representative_name,
                                        "cpf": format_cpf(cpf)}}
    return {"proprio": False, "descricao": other("Outro beneficiário", b.tax_id)}


def _payment(p: Payment, cpf: str) -> dict:
    if p.beneficiary_tax_id != cpf:
        return {"proprio": False, "descricao": other("Pagamento a outro favorecido",
                                                     p.beneficiary_tax_id)}
    order = getattr(p, "order", None)
    return {
        "proprio": True, "favorecido": p.beneficiary_name, "cpf": format_cpf(cpf),
        "valor": _money(p.amount),
        "encargos-por-atraso": _money(p.late_fine + p.monetary_correction + p.late_interest),
        "situacao": p.get_status_display(), "forma": p.get_method_display(),
        "dados-de-pagamento": p.payment_method_details, "pago-em": _day(p.paid_on),
        "registrado-em": _day(p.created_at),
        "ordem-de-pagamento": None if order is None else {
            "referencia": order.reference, "situacao": order.get_status_display(),
            "data-de-pagamento": _day(order.payment_date or order.effective_date),
            "banco-pagador": order.account.name if order.account else None,
        },
    }


def _documents(claim: Claim, own_beneficiaries: set) -> list[dict]:
    """Names, types and dates (never the files). A document asked of another
    beneficiary is theirs: left out."""
    rows = []
    for f in claim.files.all():
        owner = f.request.beneficiary_id if f.request_id else None
        if owner is not None and owner not in own_beneficiaries:
            continue
        rows.append({"tipo": f.doc_type, "arquivo": f.file_name,
                     "enviado-em": _day(f.received_at or f.sent_at),
                     "situacao": f.get_status_display()})
    return rows


def _letters(claim: Claim, cpf: str, own_beneficiaries: set) -> list[dict]:
    contact = owns_contact(claim, cpf)
    return [{"carta": m.get_letter_display(), "assunto": m.subject,
             "destinatario": m.recipient_name, "email": m.recipient_email,
             "escrita-em": _day(m.created_at), "enviada-em": _day(m.sent_at),
             "situacao": m.get_status_display()}
            for m in claim.messages.all()
            if (m.beneficiary_id in own_beneficiaries)
            or (contact and m.role == Role.CONTACT and m.beneficiary_id is None)]


def _automatic(claim: Claim) -> dict:
    decision = getattr(claim, "automatic_decision", None)
    return {
        "decisao-automatica": None if decision is None else {
            "regras": decision.rule_set, "versao": decision.version,
            "motivos": list(decision.reasons), "decidida-em": _day(decision.decided_at),
            "revisao-humana-pedida-em": _day(decision.review_requested_at),
            "revertida-em": _day(decision.reversed_at),
            "motivo-da-reversao": decision.reversed_note},
        "avaliacoes-das-regras": [
            {"avaliada-em": _day(e.created_at), "decisao": e.get_decision_display(),
             "efeito": e.get_effect_display(), "motivos": e.reasons}
            for e in sorted(claim.rule_evaluations.all(), key=lambda e: e.created_at)],
    }


def _sharing(claim: Claim) -> list[dict]:
    """With whom the claim's data went: the channel's events (and each webhook
    delivery), the SRO's registradora, the bank (payment orders)."""
    rows = []
    for event in claim.events.all():
        rows.append({"com": event.channel.name, "tipo": "canal", "evento": event.name,
                     "em": _day(event.created_at), "sinistro": claim.number})
        for delivery in event.deliveries.all():
            rows.append({"com": delivery.subscription.channel.name, "tipo": "webhook",
                         "evento": delivery.event_name,
                         "em": _day(delivery.delivered_at or delivery.created_at),
                         "situacao": delivery.get_status_display(),
                         "sinistro": claim.number})
    registration = getattr(claim, "sro_registration", None)
    for submission in registration.submissions.all() if registration else []:
        rows.append({"com": SRO_NAME, "tipo": "registradora",
                     "evento": submission.get_kind_display(),
                     "em": _day(submission.sent_at or submission.created_at),
                     "situacao": submission.get_status_display(), "sinistro": claim.number})
    return rows


def _claim(claim: Claim, cpf: str) -> dict:
    own = {b.pk for b in claim.beneficiaries.all() if b.tax_id == cpf}
    roles = roles_in(claim, cpf)
    row = {
        "numero": claim.number, "papeis": roles, "canal": claim.channel.name,
        "cobertura": claim.coverage.name, "natureza": claim.get_nature_display(),
        "situacao": claim.get_status_display(), "valor": _money(claim.amount),
        "ocorrido-em": _day(claim.occurred_at), "avisado-em": _day(claim.notified_at),
        "encerrado-em": _day(claim.closed_at),
        "segurado": ({"nome": claim.sale.insured_name,
                      "cpf": format_cpf(claim.sale.insured_cpf)}
                     if claim.sale.insured_cpf == cpf
                     else {"descricao": other("Segurado", claim.sale.insured_cpf)}),
        "solicitante": ({"nome": claim.requester_name, "cpf": format_cpf(cpf),
                         "relacao": claim.get_requester_relationship_display()}
                        if claim.requester_tax_id == cpf
                        else {"descricao": other("Solicitante", claim.requester_tax_id)}),
        "contato": ({"nome": claim.contact_name, "email": claim.contact_email,
                     "telefone": _phone(claim.contact_phone_area_code,
                                        claim.contact_phone_number),
                     "relato": claim.narrative}
                    if Papel.CONTACT in roles else None),
        "beneficiarios": [_beneficiary(b, cpf) for b in claim.beneficiaries.all()],
        "pagamentos": [_payment(p, cpf) for p in claim.payments.all()],
        "documentos": _documents(claim, own),
        "cartas": _letters(claim, cpf, own),
        **_automatic(claim),
    }
    return row


def assemble(cpf: str, *, request=None) -> dict:
    """The export of ``cpf`` (11 digits). ``request``: the DataRequest it answers."""
    claims = _loaded_claims(cpf)
    sales = {claim.sale_id: claim.sale for claim in claims}
    for sale in Sale.objects.filter(insured_cpf=cpf).select_related("channel"):
        sales.setdefault(sale.pk, sale)
    names = sorted({n for n in _names(claims, cpf) if n})
    sharing = [row for claim in claims for row in _sharing(claim)]
    claim_rows = [_claim(claim, cpf) for claim in claims]
    sharing += [{"com": f"Banco pagador: {p['ordem-de-pagamento']['banco-pagador']}",
                 "tipo": "banco", "evento": "Ordem de pagamento "
                 f"{p['ordem-de-pagamento']['referencia'] or ''}".strip(),
                 "em": p["registrado-em"], "sinistro": row["numero"]}
                for row in claim_rows for p in row["pagamentos"]
                if p.get("ordem-de-pagamento") and p["ordem-de-pagamento"]["banco-pagador"]]
    return {
        "formato": FORMAT,
        "gerado-em": _day(timezone.now()),
        "requisicao": None if request is None else {
            "numero": request.pk, "tipo": request.kind,
            "recebida-em": _day(request.received_at), "prazo": _day(request.due_on)},
        "titular": {"cpf": format_cpf(cpf), "nomes": names},
        "vendas": [_sale(sale, cpf) for sale in sales.values()],
        "sinistros": claim_rows,
        "compartilhamentos": sharing,
    }


def _names(claims: list[Claim], cpf: str):
    for claim in claims:
        if claim.sale.insured_cpf == cpf:
            yield claim.sale.insured_name
        if claim.requester_tax_id == cpf:
            yield claim.requester_name
        for b in claim.beneficiaries.all():
            if b.tax_id == cpf:
                yield b.name
            if b.representative_tax_id == cpf:
                yield b.representative_name
        for p in claim.payments.all():
            if p.beneficiary_tax_id == cpf:
                yield p.beneficiary_name
