"""Answering access and portability: the export written to the default storage (JSON
and PDF) and sent as a letter through correspondence; recording a correction; the
sharing answer.

The letter: correspondence's ``resposta-titular``, a Message on the person's most recent
claim (a Message needs a claim; the claim gives the brand and the sender), addressed to
the person's own e-mail as that claim holds it (their beneficiary row, the contact fields
when they are theirs, the insured's e-mail on the sale). The export goes as two
attachments. The letter is the person's alone: the channel's API and the hosted pages
never list it (correspondence.models.PRIVATE_LETTERS). A person with no claim gets no
letter: the operator delivers the files by the way the request came."""

import json

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

from claims.models import Claim
from claims.services.recording import write_timeline_entry
from claims.workflow import TimelineEntry
from correspondence import rendering
from correspondence.addressing import addressing, insurer
from correspondence.letters import Recipient
from correspondence.models import Letter, Message, Role
from correspondence.services import NO_ADDRESS, _send_after_commit
from privacy.models import DataRequest
from privacy.requests import document, export

FOLDER = "privacidade/requisicoes"


def paths_of(request: DataRequest) -> tuple[str, str]:
    base = f"{FOLDER}/{request.pk}/dados-pessoais-{request.pk}"
    return f"{base}.json", f"{base}.pdf"


def write_export(request: DataRequest) -> dict:
    """Assemble the export and store it; the request keeps the two paths."""
    data = export.assemble(request.cpf, request=request)
    json_path, pdf_path = paths_of(request)
    for path in (json_path, pdf_path):
        if default_storage.exists(path):  # a second answer (never): the first stays
            default_storage.delete(path)
    body = json.dumps(data, ensure_ascii=False, indent=2).encode()
    request.export_json = default_storage.save(json_path, ContentFile(body))
    request.export_pdf = default_storage.save(
        pdf_path, ContentFile(document.export_pdf(data, insurer=insurer().name)))
    return data


def _recipient(claim: Claim, cpf: str) -> Recipient:
    for beneficiary in claim.beneficiaries.all():
        if beneficiary.tax_id == cpf:
            return Recipient(Role.BENEFICIARY, beneficiary.name, beneficiary.email,
                             beneficiary)
    if export.owns_contact(claim, cpf):
        return Recipient(Role.CONTACT, claim.contact_name, claim.contact_email)
    if claim.sale.insured_cpf == cpf:
        return Recipient(Role.CONTACT, claim.sale.insured_name, claim.sale.insured_email)
    names = [p.beneficiary_name for p in claim.payments.all() if p.beneficiary_tax_id == cpf]
    names += [b.representative_name for b in claim.beneficiaries.all()
              if b.representative_tax_id == cpf]
    return Recipient(Role.CONTACT, names[0] if names else "", "")


def write_letter(request: DataRequest, data: dict, *, user=None) -> Message | None:
    """The answer letter on the person's most recent claim, the export attached."""
    claim = (export.claims_of(request.cpf).select_related("sale", "coverage")
             .prefetch_related("beneficiaries", "payments").order_by("-notified_at").first())
    if claim is None:
        return None
    person = _recipient(claim, request.cpf)
    channel = rendering.channel_for_letters(claim.channel_id)
    json_path, pdf_path = request.export_json, request.export_pdf
    json_name, pdf_name = json_path.rsplit("/", 1)[-1], pdf_path.rsplit("/", 1)[-1]
    context = {**addressing(claim, person), "request": request, "found": True,
               "claims": len(data["sinistros"]), "sales": own_sales(data),
               "json_name": json_name, "pdf_name": pdf_name}
    subject = f"Seus dados pessoais: resposta à requisição nº {request.pk}"
    rendered = rendering.render(channel=channel, letter=Letter.DATA_REQUEST_ANSWER,
                                subject=subject, context=context)
    message = Message.objects.create(
        claim=claim, channel=channel, letter=Letter.DATA_REQUEST_ANSWER, role=person.role,
        beneficiary=person.beneficiary, recipient_name=person.name,
        recipient_email=person.email, subject=rendered.subject, body_html=rendered.html,
        body_text=rendered.text, attachment_name=f"resposta-titular-{request.pk}.pdf",
        attachments=[{"nome": pdf_name, "caminho": pdf_path, "tipo": "application/pdf"},
                     {"nome": json_name, "caminho": json_path,
                      "tipo": "application/json"}],
        # Never handed to the channel (it may hold claims of other channels): e-mailed.
        status=Message.Status.PENDING if person.email else Message.Status.FAILED,
        last_error="" if person.email else NO_ADDRESS, created_by=user)
    if message.status == Message.Status.PENDING:
        _send_after_commit([message.pk])
    return message


def own_sales(data: dict) -> int:
    """The sales where the person is the insured (the others are their claims' sales)."""
    return sum(1 for sale in data["vendas"] if "cpf" in sale["segurado"])


def deliver_export(request: DataRequest, *, user=None) -> str:
    data = write_export(request)
    message = write_letter(request, data, user=user)
    found = bool(data["sinistros"] or data["vendas"])
    words = [f"Exportação gerada em {timezone.localtime():%d/%m/%Y %H:%M}: "
             f"{len(data['sinistros'])} sinistro(s), {own_sales(data)} seguro(s) como "
             f"segurado(a), {len(data['compartilhamentos'])} compartilhamento(s)."]
    if not found:
        words.append("Nenhum dado pessoal ligado ao CPF.")
    if message is None:
        words.append("Sem sinistro para anexar a carta: entregue os arquivos pelo meio "
                     "por onde a requisição chegou.")
    elif message.status == Message.Status.FAILED:
        words.append(f"Carta escrita no sinistro {message.claim.number} para "
                     f"{message.recipient_name}, mas sem e-mail: informe um e-mail e reenvie.")
    else:
        words.append(f"Carta enviada a {message.recipient_email} (sinistro "
                     f"{message.claim.number}), com os arquivos anexos.")
    return " ".join(words)


def record_correction(request: DataRequest, *, corrected: str, user=None) -> str:
    """The operator corrected the data through the claims' own pages and services; the
    correction is recorded here and as an internal note on each of the person's claims."""
    note = (f"Correção de dados pessoais a pedido do titular (LGPD art. 18, III), "
            f"requisição nº {request.pk}: {corrected}")
    claims = list(export.claims_of(request.cpf))
    for claim in claims:
        write_timeline_entry(claim, entry=TimelineEntry.NOTE, user=user, note=note,
                             actor="" if user else "operacao:data_request")
    return f"Corrigido: {corrected} (registrado em {len(claims)} sinistro(s))."


def sharing_answer(request: DataRequest) -> str:
    """LGPD art. 18, VII: the channels, the SRO's registradora and the paying banks the
    person's data went to (the export's "compartilhamentos", summed by recipient)."""
    data = export.assemble(request.cpf, request=request)
    seen: dict[str, int] = {}
    for row in data["compartilhamentos"]:
        seen[row["com"]] = seen.get(row["com"], 0) + 1
    if not seen:
        return "Os dados do titular não foram compartilhados com ninguém."
    return "Dados compartilhados com: " + "; ".join(
        f"{who} ({count} envio(s))" for who, count in sorted(seen.items())) + "."


def forget_exports(*, cpfs) -> int:
    """Delete the stored exports (JSON and PDF) of these CPFs' answered requests and
    clear their paths; returns the files deleted. For the forgetting service, once a
    person's claims are anonymised: an export is a copy of what was anonymised. The
    request row stays (its CPF is the proof of the answer, LGPD arts. 16, I and 37);
    its letter goes with its claim's messages."""
    requests = list(DataRequest.objects.filter(cpf__in=list(cpfs))
                    .exclude(export_json="", export_pdf=""))
    deleted = 0
    for request in requests:
        for path in (request.export_json, request.export_pdf):
            if path and default_storage.exists(path):
                default_storage.delete(path)
                deleted += 1
    DataRequest.objects.filter(pk__in=[r.pk for r in requests]).update(export_json="",
                                                                       export_pdf="")
    return deleted
