"""Payment destinations in words for people (analysts, letters, red flags): a bank by its
code, a PIX key or an account masked, a payment method in one line. Above the bank
table (claims.banks), so the plain formatting below the models stays free of it."""

from claims.banks import bank_by_code
from claims.validators import mask_tax_id


def bank_label(code: str) -> str:
    """A bank by COMPE (3 digits) or ISPB (8) code: ``341 Itaú Unibanco``."""
    bank = bank_by_code(code)
    if bank is None:
        return f"banco {code}" if len(code) == 3 else f"ISPB {code}"
    return f"{bank.compe or bank.ispb} {bank.name}"


def masked_pix_key(key: str) -> str:
    """Enough of a PIX key to recognise it, not to reuse it: ``ma***@example.com``,
    ``+55 (11) 9****-5678``, ``***.982.247-**``, ``123e4567-…-426614174000``."""
    if "@" in key:
        local, _, domain = key.partition("@")
        return f"{local[:2]}***@{domain}"
    if key.startswith("+55"):
        digits = key[3:]
        return f"+55 ({digits[:2]}) {digits[2]}****-{digits[-4:]}"
    if len(key) in (11, 14) and "-" not in key:
        return mask_tax_id(key)
    return f"{key[:8]}-…-{key[-12:]}" if len(key) == 36 else "***"


def masked_destination(destination: str) -> str:
    """A ``claims.red_flags.destination_of`` string for people: ``A chave PIX ma***@...``,
    ``A conta 1234/56789-0 (341 Itaú Unibanco)``."""
    kind, _, rest = destination.partition(":")
    if kind == "pix":
        return f"A chave PIX {masked_pix_key(rest)}"
    bank, branch, account = (rest.split(":") + ["", "", ""])[:3]
    return f"A conta {branch}/{account} ({bank_label(bank)})"


def payment_method_summary(method: dict | None, *, masked: bool = False) -> str:
    """The payment method (validated ``dados-pagamento``, English keys) in one line, for
    the insurer's staff: ``PIX, chave maria@example.com``; ``TED, banco 001, agência
    1234, conta 56789-0``."""
    if not method:
        return "—"
    kind = method.get("method", "")
    detail = method.get(kind.replace("-", "_"), {})
    if kind == "pix" and "key" in detail:
        return f"PIX, chave {masked_pix_key(detail['key']) if masked else detail['key']}"
    if kind in ("pix", "ted"):
        account = detail.get("bank_account", detail)
        branch = account.get("branch", "") + (
            f"-{account['branch_check_digit']}" if account.get("branch_check_digit") else "")
        number = account.get("account", "") + (
            f"-{account['account_check_digit']}" if account.get("account_check_digit") else "")
        return (f"{kind.upper()}, {bank_label(account.get('bank', ''))}, agência {branch}, "
                f"conta {number}")
    if kind == "boleto":
        return f"Boleto {detail.get('barcode', '')}"
    if kind == "pix-brcode":
        return "PIX copia e cola (BR Code)"
    return kind


def pix_key_kind(key: str) -> str:
    """The kind of a PIX key, as the bank's app names it."""
    if "@" in key:
        return "e-mail"
    if key.startswith("+"):
        return "telefone"
    if key.isdigit() and len(key) == 11:
        return "CPF"
    if len(key) == 14 and key.isalnum():
        return "CNPJ"
    return "aleatória" if len(key) == 36 else "chave"


def payment_destination_in_full(method: dict | None) -> str:
    """Where the money goes, whole, for the one who approves it: ``PIX, chave e-mail
    maria@example.com``; an account as ``payment_method_summary`` gives it."""
    detail = (method or {}).get("pix", {}) if (method or {}).get("method") == "pix" else {}
    if "key" in detail:
        return f"PIX, chave {pix_key_kind(detail['key'])} {detail['key']}"
    return payment_method_summary(method)
