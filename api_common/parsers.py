"""The API's one JSON parser (REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]): every endpoint's
body passes these checks before any serializer sees it.

Python's json module accepts more than PostgreSQL stores and more than Python itself can
recurse through, and each of those used to surface as a 500 somewhere further on. Here
they are 400s, once, naming the member at fault:

- nesting past ``MAX_NESTING_DEPTH`` (json raises RecursionError near 1,000 levels, which
  DRF's JSONParser does not catch): ``malformed-request``;
- a string (value or key) with NUL (U+0000), which PostgreSQL text and jsonb refuse, or an
  unpaired UTF-16 surrogate escape such as ``"\\ud800"``, which is not Unicode text and
  which no UTF-8 encoder (psycopg's included) can write: ``invalid-request``;
- a number JSON cannot represent: ``NaN``, ``Infinity`` or one that overflows a double
  (``1e400``): ``invalid-request``.

The body size is Django's DATA_UPLOAD_MAX_MEMORY_SIZE: DRF reads ``request.body``, which
raises RequestDataTooBig, answered 413 by api_common.problems.
"""

import json
import math
import re

from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

# The contract's deepest member (detalhes-pagamento.dados-pagamento.pix.conta-bancaria.
# banco) is 5 levels down; dados-adicionais is free, so leave it ample room.
MAX_NESTING_DEPTH = 32
# Enough to fix a body in one round; a hostile one gets no longer an answer than this.
MAX_REPORTED_MEMBERS = 20

_UNSTORABLE_CHARACTER = re.compile("[\x00\ud800-\udfff]")


class _NonFiniteNumber:
    """What json made of NaN, Infinity or an overflowing literal, kept to be reported."""

    def __init__(self, literal: str):
        self.literal = literal


def _number(literal: str):
    value = float(literal)
    return value if math.isfinite(value) else _NonFiniteNumber(literal)


def _string_problem(text: str) -> str | None:
    found = _UNSTORABLE_CHARACTER.search(text)
    if found is None:
        return None
    if found.group() == "\x00":
        return "contém o caractere nulo (U+0000), que não é aceito em texto."
    return (
        f"contém um escape \\u{ord(found.group()):04x} sem par (surrogate UTF-16 isolado), "
        "que não é texto Unicode válido."
    )


def _member(parent: str, key: str) -> str:
    return f"{parent}.{key}" if parent else key


def unacceptable_members(data) -> dict[str, list[str]]:
    """Members of a parsed body that cannot be stored, as ``{path: [message]}``.

    Paths are written like the serializers' errors (``dados-adicionais.itens[2]``).
    Walks without recursion; raises ParseError past ``MAX_NESTING_DEPTH``.
    """
    found: dict[str, list[str]] = {}
    pending = [("", data, 0)]
    while pending and len(found) < MAX_REPORTED_MEMBERS:
        path, value, depth = pending.pop()
        if isinstance(value, (dict, list)):
            if depth >= MAX_NESTING_DEPTH:
                raise nesting_error()
            if isinstance(value, dict):
                for key, child in value.items():
                    problem = _string_problem(key)
                    if problem:  # the key itself cannot be echoed back: name its object
                        found.setdefault(path or "(corpo)", []).append(f"Uma chave {problem}")
                    else:
                        pending.append((_member(path, key), child, depth + 1))
            else:
                pending.extend((f"{path}[{i}]", child, depth + 1) for i, child in enumerate(value))
        elif isinstance(value, str):
            problem = _string_problem(value)
            if problem:
                found.setdefault(path or "(corpo)", []).append(f"O texto {problem}")
        elif isinstance(value, _NonFiniteNumber):
            found.setdefault(path or "(corpo)", []).append(
                f"O número {value.literal} não é representável (NaN, Infinity e valores "
                "além de ±1,7e308 não são aceitos)."
            )
    return found


def nesting_error() -> ParseError:
    return ParseError(
        f"O JSON passa do limite de {MAX_NESTING_DEPTH} níveis de objetos e listas aninhados."
    )


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        try:
            data = json.loads(
                stream.read().decode(encoding),
                parse_constant=_NonFiniteNumber,
                parse_float=_number,
            )
        except RecursionError:
            raise nesting_error() from None
        except (ValueError, LookupError) as exc:  # bad JSON or bytes; a charset like rot13
            raise ParseError(f"O corpo não é JSON válido em {encoding}: {exc}") from None
        problems = unacceptable_members(data)
        if problems:
            raise ValidationError(problems)
        return data
