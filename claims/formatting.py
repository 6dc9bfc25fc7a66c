"""How people read claims: money as ``R$ 1.234,56``, coverages in words, actors by
name. Shared by the admin, messages of the services and the hosted pages."""

import re
from datetime import datetime, time
from decimal import Decimal

from django.utils import timezone
from stdnum.br import cnpj, cpf

from claims.workflow import TimelineEntry

# Media types as people name them (the allowed uploads: UPLOAD_ALLOWED_TYPES).
MEDIA_TYPE_LABELS = {
    "application/pdf": "PDF",
    "image/jpeg": "JPEG",
    "image/png": "PNG",
    "image/heic": "HEIC",
    "image/heif": "HEIF",
}


def brl(value: Decimal | int | float | None) -> str:
    """``Decimal("14000")`` -> ``R$ 14.000,00``; None -> ``—``."""
    if value is None:
        return "—"
    amount = Decimal(value).quantize(Decimal("0.01"))
    sign = "-" if amount < 0 else ""
    text = f"{abs(amount):,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
    return f"{sign}R$ {text}"


def percent(value: Decimal | None) -> str:
    """``Decimal("50.00")`` -> ``50%``; ``Decimal("33.33")`` -> ``33,33%``; None -> ``—``."""
    if value is None:
        return "—"
    text = f"{Decimal(value).quantize(Decimal('0.01')):f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") + "%"


def media_type_label(content_type: str) -> str:
    """``application/pdf`` -> ``PDF``; a type without a common name stays as it came."""
    return MEDIA_TYPE_LABELS.get(content_type.split(";")[0].strip().lower(), content_type)


def media_types_in_words(content_types) -> str:
    """``["application/pdf", "image/png"]`` -> ``PDF ou PNG`` (each name once)."""
    names = list(dict.fromkeys(media_type_label(t) for t in content_types))
    return " ou ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def file_size(size: int) -> str:
    """``20971520`` -> ``20 MB``; ``1536`` -> ``1,5 KB`` (binary multiples, as file
    managers show them)."""
    for unit, factor in (("MB", 1024 ** 2), ("KB", 1024)):
        if size >= factor:
            value = Decimal(size) / factor
            text = f"{value:.1f}".removesuffix(".0").replace(".", ",")
            return f"{text} {unit}"
    return "1 byte" if size == 1 else f"{size} bytes"


# What the timeline says happened (the actions' own labels are the buttons' verbs).
HISTORY_LABELS = {
    "abrir": "Sinistro aberto",
    "completar-documentacao": "Documentação completa",
    "aprovar-documentacao": "Documentação aprovada",
    "solicitar-documentos": "Documentos solicitados",
    "solicitar-dados-de-pagamento": "Dados de pagamento solicitados",
    "informar-dados-de-pagamento": "Dados de pagamento informados",
    "informar-beneficiario": "Beneficiário informado",
    "reter-participacao": "Participação retida",
    "remover-beneficiario": "Beneficiário removido",
    "atualizar-saldo-devedor": "Saldo devedor atualizado",
    "ajustar-reserva": "Reserva ajustada",
    "registrar-pagamento": "Pagamento registrado",
    "liquidar-pagamento": "Pagamento liquidado",
    "finalizar": "Sinistro finalizado",
    "recusar": "Sinistro recusado",
    "reabrir": "Sinistro reaberto",
    "solicitar-reconsideracao": "Reconsideração da recusa pedida",
    "manter-recusa": "Recusa mantida",
    "registrar-despesa": "Despesa de regulação registrada",
    "corrigir-ocorrencia": "Data da ocorrência corrigida",
    "cancelar-pagamento": "Pagamento cancelado antes do envio",
    "solicitar-revisao-humana": "Revisão por uma pessoa pedida",
}


def history_label(action: str) -> str:
    if action in HISTORY_LABELS:
        return HISTORY_LABELS[action]
    return TimelineEntry(action).label if action in TimelineEntry.values else action


def is_internal(action: str) -> bool:
    """A timeline row of the analysts' own work (claims.workflow.TimelineEntry)."""
    return action in TimelineEntry.values


def person(user) -> str:
    """A staff user as colleagues name them."""
    if user is None:
        return "ninguém"
    return user.get_full_name() or user.get_username()


# The system's parts that act on claims, in words (actor "sistema:<part>").
SYSTEM_PARTS = {
    "distribuicao": "Distribuição automática",
    "tarefas": "Rotina de tarefas",
    "alcada": "Controle de alçada",
    "envio-de-documentos": "Envio de documentos",
    "bancada": "Sistema",
    # A payment the bank returned, paid again from new data (claims.services.reissue).
    "reemissao": "Reemissão automática (novos dados de pagamento)",
    # A payment order refused before it went to the bank (payouts).
    "remessa": "Remessa ao banco",
}


# The ops commands that act on claims, in words (actor "operacao:<command>"). A renamed
# or removed command keeps its names here: history rows are never rewritten, and the
# rows of either name should read as the same operation (settle_payments, the bank's
# CSV, and its old name liquidar_pagamentos are removed; their rows remain).
OPERATIONS = {
    "settle_payments": "retorno do banco",
    "liquidar_pagamentos": "retorno do banco",
}


def actor_label(actor: str, user=None, channel=None, name: str = "") -> str:
    """Who acted, for a person: the user's name, the channel, or the system part. On the
    hosted pages the person is named by ``name`` when the caller knows it (the requester
    who opened the claim there), never by the channel's id for its user."""
    if user is not None:
        return person(user)
    kind, _, reference = actor.partition(":")
    if kind == "canal" and channel is not None and channel.slug == reference:
        return f"{channel.name} (API)"
    if kind == "segurado":
        # Whoever used the channel's link: the insured person, or after a death the
        # relative who reports it. The channel's user id means nothing to an analyst.
        words = f"{name} (página do segurado)" if name else "Página do segurado"
        return words + (f" · {channel.name}" if channel is not None else "")
    name = reference
    return {
        "canal": f"Canal {name} (API)",
        "usuario": name,
        "sistema": SYSTEM_PARTS.get(name, f"Sistema ({name.replace('-', ' ')})"),
        "operacao": f"Operação ({OPERATIONS.get(name, name)})",
        # The bank's return file (payouts), by the paying bank's COMPE code.
        "banco": f"Retorno do banco {name}",
        # The rules that decided with no person (decisions), by their version.
        "regras": f"Decisão automática — regras {name}",
    }.get(kind, actor)


def tax_id(value: str) -> str:
    """``52998224725`` -> ``529.982.247-25``; CNPJs (alphanumeric too) likewise."""
    if len(value) == 11:
        return cpf.format(value)
    if len(value) == 14:
        return cnpj.format(value)
    return value


def phone(number: str, area_code: str = "") -> str:
    """``("912345678", "11")`` -> ``(11) 91234-5678``; landlines ``(11) 3456-7890``. A
    number stored with its area code (10 or 11 digits) is split; other shapes stay as
    they came."""
    digits = re.sub(r"\D", "", number or "")
    area = re.sub(r"\D", "", area_code or "")
    if not area and len(digits) in (10, 11):
        area, digits = digits[:2], digits[2:]
    local = f"{digits[:-4]}-{digits[-4:]}" if len(digits) in (8, 9) else (number or "")
    return f"({area}) {local}" if area and local else local


def local_moment(value: datetime | None) -> str:
    """``05/11/2026 14:30`` in local time; only ``05/11/2026`` when the local time is
    exactly midnight: what a date-only field (the hosted page's occurrence date) stores,
    where "00:00" would claim a precision nobody gave. None -> ``—``."""
    if value is None:
        return "—"
    local = timezone.localtime(value)
    if local.time() == time(0, 0):
        return f"{local:%d/%m/%Y}"
    return f"{local:%d/%m/%Y %H:%M}"
