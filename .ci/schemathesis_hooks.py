"""Schemathesis hooks for .ci/schemathesis (loaded through schemathesis.toml).

The schema states every rule a JSON Schema can state (shapes, lengths, one-of rules).
A few rules no JSON Schema can: check digits and CRCs (also of a CPF typed with its
punctuation), "not in the future" (an occurrence, a birth), a webhook
destination this machine can reach, a pagination cursor only the server can issue, the
demo client's credentials. For
requests generated as *valid* (positive mode), these hooks turn such values into ones
that satisfy the rule, keeping their shape; invalid (negative) requests are left as
generated, so the server's refusals are still tested.
"""

import base64
import datetime as dt
import os
import re
import sys
from urllib.parse import parse_qs

import schemathesis
from stdnum.br import cnpj, cpf

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from claims import validators  # noqa: E402  (the check-digit arithmetic of the server)

WEBHOOK_RECEIVER = f"http://127.0.0.1:{os.environ.get('SCHEMATHESIS_PORT', '8850')}/receptor"
DEMO_CLIENT = {"client_id": "demo-client", "client_secret": "demo-secret"}  # seed_demo
VALID_BRCODE_BODY = (
    "000201"
    "26360014br.gov.bcb.pix0114+5511999999999"
    "52040000530398654041.005802BR5909FULANO DE6009SAO PAULO62070503***"
)


def _cpf(digits: str) -> str:
    base = digits[:9] if len(set(digits[:9])) > 1 else "123456789"
    return base + cpf._calc_check_digits(base)


def _cnpj(value: str) -> str:
    # python-stdnum (so the service) refuses a CNPJ of one repeated digit, such as
    # "00000000000000", whatever its check digits: another base, as _cpf does.
    base = value[:12] if len(set(value[:12])) > 1 else "112223330001"
    return base + cnpj.calc_check_digits(base)


def _tax_id(value):
    if isinstance(value, str):  # typed with its punctuation: the digits it stands for
        value = validators.compact_tax_id(value)
    if isinstance(value, str) and re.fullmatch(r"[0-9]{11}", value):
        return _cpf(value)
    if isinstance(value, str) and re.fullmatch(r"[0-9A-Z]{12}[0-9]{2}", value):
        return _cnpj(value)
    return value


def _boleto(value):
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]+", value):
        return value
    if len(value) == 44:  # bank bar code: general DV at position 5
        code = "1" + value[1:]
        return code[:4] + str(validators._bank_dv(code[:4] + code[5:])) + code[5:]
    if len(value) == 47:  # bank typeable line, from a valid bank bar code
        bar = _boleto("1" + value[1:44])
        fields = [bar[:4] + bar[19:24], bar[24:34], bar[34:44]]
        line = "".join(f + str(validators._mod10(f)) for f in fields)
        return line + bar[4] + bar[5:19]
    if len(value) == 48:  # collection typeable line (value identifier 8: modulo 11)
        digits = "8" + value[1] + "8" + value[4:44]
        bar = digits[:3] + str(validators._collection_mod11(digits)) + digits[3:]
        return "".join(bar[i:i + 11] + str(validators._collection_mod11(bar[i:i + 11]))
                       for i in range(0, 44, 11))
    return value


def _brcode(value):
    if not isinstance(value, str):
        return value
    body = VALID_BRCODE_BODY + "6304"
    return body + f"{validators.crc16_ccitt_false(body.encode()):04X}"


def _not_in_future(value):
    try:
        moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except (AttributeError, TypeError, ValueError):
        return value
    now = dt.datetime.now(dt.timezone.utc)
    if moment.tzinfo is None or moment <= now:
        return value
    return (now - dt.timedelta(days=1)).isoformat().replace("+00:00", "Z")


def _born_in_the_past(value):
    try:
        day = dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        return value
    return value if day <= dt.date.today() else "1980-05-17"


FIXES = {
    "cpf-ou-cnpj": _tax_id,
    "cpf": _tax_id,  # the requester's (solicitante), on a death claim
    "data-nascimento": _born_in_the_past,
    "chave": _tax_id,
    "codigo-de-barras": _boleto,
    "brcode": _brcode,
    "data-ocorrencia": _not_in_future,
}


def _fix(node):
    if isinstance(node, dict):
        return {key: FIXES[key](value) if key in FIXES else _fix(value)
                for key, value in node.items()}
    if isinstance(node, list):
        return [_fix(item) for item in node]
    return node


def _issued_cursor(value) -> bool:
    """A cursor as the server writes it: base64 of ``o=..&r=..&p=..`` (DRF)."""
    try:
        decoded = base64.b64decode(value.encode("ascii"), validate=True).decode("ascii")
    except (AttributeError, UnicodeError, ValueError):
        return False
    return bool(decoded) and set(parse_qs(decoded, keep_blank_values=True)) <= {"o", "r", "p"}


def _make_valid(case) -> None:
    if case.operation.path.endswith("/enviar-documento") and isinstance(case.body, dict):
        # Which document types a claim asks for is its state, not a shape: the demo's
        # claims ask for none, and the field is then omitted.
        case.body.pop("tipo", None)
    if case.operation.path == "/oauth/token" and isinstance(case.body, dict):
        case.body.update(DEMO_CLIENT)  # no schema knows a client's secret
    elif isinstance(case.body, dict):
        case.body = _fix(case.body)
        if case.operation.path.startswith("/api/v1/webhooks") and "url" in case.body:
            case.body["url"] = WEBHOOK_RECEIVER
    cursor = (case.query or {}).get("pagina-seguinte")
    if cursor is not None and not _issued_cursor(cursor):
        # Only the server issues cursors; links carry real ones from its responses.
        case.query = {k: v for k, v in case.query.items() if k != "pagina-seguinte"}


@schemathesis.hook
def map_case(context, case):
    if case.meta is not None and case.meta.generation.mode.is_positive:
        _make_valid(case)
    return case


@schemathesis.hook
def before_add_examples(context, examples):
    """The schema's own examples are valid requests (webhook examples name a public host
    this machine cannot resolve)."""
    for case in examples:
        _make_valid(case)
