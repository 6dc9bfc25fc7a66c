"""How people read claims: money as ``R$ 1.234,56``, coverages in words, actors by
name. Shared by the admin, messages of the services and the hosted pages."""

from decimal import Decimal

from stdnum.br import cnpj, cpf

COVERAGE_LABELS = {
    "cobertura/morte": "Morte",
    "cobertura/perda-de-renda": "Perda de renda",
    "cobertura/invalidez-permanente": "Invalidez permanente",
}


def brl(value: Decimal | int | float | None) -> str:
    """``Decimal("14000")`` -> ``R$ 14.000,00``; None -> ``—``."""
    if value is None:
        return "—"
    amount = Decimal(value).quantize(Decimal("0.01"))
    sign = "-" if amount < 0 else ""
    text = f"{abs(amount):,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
    return f"{sign}R$ {text}"


def coverage_label(name: str) -> str:
    """``cobertura/perda-de-renda`` -> ``Perda de renda`` (unknown names in words too)."""
    if name in COVERAGE_LABELS:
        return COVERAGE_LABELS[name]
    words = name.removeprefix("cobertura/").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


# What the timeline says happened (the actions' own labels are the buttons' verbs).
HISTORY_LABELS = {
    "abrir": "Sinistro aberto",
    "completar-documentacao": "Documentação completa",
    "aprovar-documentacao": "Documentação aprovada",
    "solicitar-documentos": "Documentos solicitados",
    "solicitar-dados-de-pagamento": "Dados de pagamento solicitados",
    "informar-dados-de-pagamento": "Dados de pagamento informados",
    "atualizar-saldo-devedor": "Saldo devedor atualizado",
    "ajustar-reserva": "Reserva ajustada",
    "registrar-pagamento": "Pagamento registrado",
    "liquidar-pagamento": "Pagamento liquidado",
    "finalizar": "Sinistro finalizado",
    "recusar": "Sinistro recusado",
    "reabrir": "Sinistro reaberto",
}


def history_label(action: str) -> str:
    return HISTORY_LABELS.get(action, action)


def actor_label(actor: str, user=None, channel=None) -> str:
    """Who acted, for a person: the user's name, the channel, or the system part."""
    if user is not None:
        return user.get_full_name() or user.get_username()
    kind, _, name = actor.partition(":")
    if kind == "canal" and channel is not None and channel.slug == name:
        return f"{channel.name} (API)"
    return {
        "canal": f"Canal {name} (API)",
        "usuario": name,
        "sistema": f"Sistema ({name.replace('-', ' ')})",
        "operacao": f"Operação ({name})",
        "segurado": f"Segurado ({name})",
    }.get(kind, actor)


def tax_id(value: str) -> str:
    """``52998224725`` -> ``529.982.247-25``; CNPJs (alphanumeric too) likewise."""
    if len(value) == 11:
        return cpf.format(value)
    if len(value) == 14:
        return cnpj.format(value)
    return value


def payment_method_summary(method: dict | None) -> str:
    """The payment method (validated ``dados-pagamento``, English keys) in one line, for
    the insurer's staff: ``PIX, chave maria@example.com``; ``TED, banco 001, agência
    1234, conta 56789-0``."""
    if not method:
        return "—"
    kind = method.get("method", "")
    detail = method.get(kind.replace("-", "_"), {})
    if kind == "pix" and "key" in detail:
        return f"PIX, chave {detail['key']}"
    if kind in ("pix", "ted"):
        account = detail.get("bank_account", detail)
        branch = account.get("branch", "") + (
            f"-{account['branch_check_digit']}" if account.get("branch_check_digit") else "")
        number = account.get("account", "") + (
            f"-{account['account_check_digit']}" if account.get("account_check_digit") else "")
        bank = "ISPB" if kind == "pix" else "banco"
        return f"{kind.upper()}, {bank} {account.get('bank', '')}, agência {branch}, conta {number}"
    if kind == "boleto":
        return f"Boleto {detail.get('barcode', '')}"
    if kind == "pix-brcode":
        return "PIX copia e cola (BR Code)"
    return kind
