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


def actor_label(actor: str, user=None) -> str:
    """Who acted, for a person: the user's name, the channel, or the system part."""
    if user is not None:
        return user.get_full_name() or user.get_username()
    kind, _, name = actor.partition(":")
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
