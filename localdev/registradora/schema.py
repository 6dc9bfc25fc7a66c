"""B3's published layout for "Registro de Sinistro – V3", as JSON Schema, and the checks on it.

The layout is B3's Swagger 1.x document, copied byte for byte to
``sro/data/b3-registro-sinistro-v3.json``: checking against that file, not against a schema
retyped by hand, is what keeps the local registradora honest about what B3 publishes. Swagger
1.x models are close to JSON Schema draft 7; ``json_schema`` turns one into the other.

Some rules the layout states only in prose (a field's ``description``: "Obrigatório quando…").
``validate`` checks those too, each in a short function below that quotes the description.
Rules of that kind that are not enforced here (yet): ``valor_*_moeda_original`` when
``moeda_apolice`` is not BRL, ``data_reclamacao_terceiro_cobertura`` for group 03 and the
listed ramos, ``dados_carta_verde`` only for ramo 0525, and the ``dados_rural`` dates by
``tipo_cobertura``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from jsonschema import Draft7Validator, FormatChecker
from jsonschema.exceptions import ValidationError

# B3's layout is the SRO app's (sro/data/): the production sender is written against it.
LAYOUT_PATH = (Path(__file__).resolve().parents[2] / "sro" / "data"
               / "b3-registro-sinistro-v3.json")

# Keys of Swagger 1.x models that are not JSON Schema keywords ("id" names the model;
# "example" is sample data). Everything else the layout uses (type, required, properties,
# items, enum, maxLength, minimum, maximum, format, description, $ref) is draft 7 as is.
SWAGGER_ONLY_KEYS = frozenset({"id", "example"})

# Where each request model keeps its claims: {"data": {ITEMS_KEY: [claim, ...]}}.
ITEMS_KEY = {"RegistroReqPost": "sinistro", "AlteracaoReqPost": "sinistro_alteracao"}

_TYPE_NAMES = {"string": "texto", "integer": "inteiro", "number": "número",
               "boolean": "booleano", "object": "objeto", "array": "lista"}
_REQUIRED_MESSAGE = re.compile(r"^'(.+)' is a required property$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_CEP = re.compile(r"^[0-9]{8}$")
_DIGITS = re.compile(r"^[0-9]+$")


class Problem(NamedTuple):
    """One violation: which claim of the batch it is in (None: not in one) and where."""

    item: int | None
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def load_layout() -> dict:
    """B3's Swagger document, as published."""
    return json.loads(LAYOUT_PATH.read_text(encoding="utf-8"))


def _to_draft7(node: Any) -> Any:
    """A Swagger model (or part of one) without the keys jsonschema does not know."""
    if isinstance(node, list):
        return [_to_draft7(value) for value in node]
    if not isinstance(node, dict):
        return node
    converted = {}
    for key, value in node.items():
        if key in SWAGGER_ONLY_KEYS:
            continue
        if key == "properties":  # a map of field names: a field called "id" would stay
            converted[key] = {name: _to_draft7(field) for name, field in value.items()}
        else:
            converted[key] = _to_draft7(value)
    return converted


def json_schema(model_name: str) -> dict:
    """A draft-7 JSON Schema for one of the layout's models.

    Every model becomes a ``definitions`` entry, so the layout's ``#/definitions/NAME``
    references resolve as written. Objects stay open (no ``additionalProperties: false``):
    the layout never says that unknown fields are refused, and a local server stricter than
    B3 would fail bodies that B3 accepts.
    """
    models = load_layout()["models"]
    if model_name not in models:
        raise KeyError(f"model {model_name!r} is not in the layout")
    definitions = {name: _to_draft7(model) for name, model in models.items()}
    return {"$schema": "http://json-schema.org/draft-07/schema#",
            **definitions[model_name], "definitions": definitions}


@cache
def _validator(model_name: str) -> Draft7Validator:
    # Built once per model: the layout does not change while the process runs.
    return Draft7Validator(json_schema(model_name), format_checker=FormatChecker())


def _where(path: list[str | int]) -> str:
    """``sinistro[0].coberturas_afetadas[1].status``: the path below ``data``, where the
    claims are; the root and ``data`` itself are named as such."""
    if len(path) > 1 and path[0] == "data":
        path = path[1:]
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "(corpo)"


def _item(model_name: str, path: list[str | int]) -> int | None:
    key = ITEMS_KEY.get(model_name)
    if len(path) >= 3 and path[:2] == ["data", key] and isinstance(path[2], int):
        return path[2]
    return None


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _schema_problem(model_name: str, error: ValidationError) -> Problem:
    """The layout's violation in Portuguese, naming the field (a missing one included)."""
    path, kind, value = list(error.absolute_path), error.validator, error.validator_value
    if kind == "required":
        match = _REQUIRED_MESSAGE.match(error.message)
        path, message = path + [match.group(1) if match else "?"], "obrigatório"
    elif kind == "type":
        message = f"tipo inválido: esperado {_TYPE_NAMES.get(value, value)}"
    elif kind == "maxLength":
        message = f"mais de {value} caracteres ({len(error.instance)})"
    elif kind == "enum":
        message = f"valor {_json(error.instance)} fora do domínio {_json(value)}"
    elif kind == "format" and value == "date":
        message = f"{_json(error.instance)} não é uma data válida (formato YYYY-MM-DD)"
    elif kind == "minimum":
        message = f"valor {_json(error.instance)} menor que o mínimo {value}"
    elif kind == "maximum":
        message = f"valor {_json(error.instance)} maior que o máximo {value}"
    else:
        message = error.message
    return Problem(_item(model_name, path), _where(path), message)


# --- Rules the layout states in descriptions ----------------------------------------------
# Each takes one object of the body and yields (field, message) for what it breaks.

def _int(value: Any) -> int | None:
    """An integer field's value; JSON true is not 1 here (Python would say it is)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _date(value: Any) -> date | None:
    if isinstance(value, str) and _DATE.match(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            return None
    return None


def _totalizacao_required(cov: dict) -> Iterator[tuple[str, str]]:
    # totalizacao_sinistro: "Bloco de preenchimento obrigatório quando o "Status do Sinistro"
    # do bloco "Coberturas Afetadas" apresentar os domínios "1 - Aberto", "2 - Encerrado com
    # indenização", "4 - Reaberto" ou "6 - Avaliação inicial""
    status = _int(cov.get("status"))
    if status in {1, 2, 4, 6} and cov.get("totalizacao_sinistro") is None:
        yield "totalizacao_sinistro", f"obrigatório quando status = {status}"


def _liquidacao_conclusao_required(cov: dict) -> Iterator[tuple[str, str]]:
    # data_liquidacao and data_conclusao: "Obrigatório quando o campo Status do Sinistro for
    # igual a 2, 3, 7, 8 ou 9"
    status = _int(cov.get("status"))
    if status in {2, 3, 7, 8, 9}:
        for field in ("data_liquidacao", "data_conclusao"):
            if _blank(cov.get(field)):
                yield field, f"obrigatório quando status = {status}"


def _data_entrega_required(cov: dict) -> Iterator[tuple[str, str]]:
    # data_entrega: "Obrigatório quando o campo Status do Sinistro for: - igual a 2, 7 ou 8;
    # ou - igual a 3 ou 9 e o campo justificativa da negativa for diferente de 3 e 4."
    # A denial without justificativa_negativa has a justificativa "different from 3 and 4".
    status = _int(cov.get("status"))
    if not _blank(cov.get("data_entrega")):
        return
    if status in {2, 7, 8}:
        yield "data_entrega", f"obrigatório quando status = {status}"
    elif status in {3, 9}:
        denial = cov.get("justificativa_negativa")
        reason = _int(denial.get("justificativa")) if isinstance(denial, dict) else None
        if reason not in {3, 4}:
            yield "data_entrega", (f"obrigatório quando status = {status} e a justificativa "
                                   f"da negativa não é 3 nem 4")


def _data_entrega_not_before_aviso(cov: dict) -> Iterator[tuple[str, str]]:
    # data_entrega: "A data de entrega da documentação deve ser maior ou igual à data de aviso
    # do sinistro." (the coverage's data_aviso_cobertura)
    delivered, notified = _date(cov.get("data_entrega")), _date(cov.get("data_aviso_cobertura"))
    if delivered and notified and delivered < notified:
        yield "data_entrega", f"{delivered} anterior à data_aviso_cobertura {notified}"


def _descricao_justificativa_required(cov: dict) -> Iterator[tuple[str, str]]:
    # descricao_justificativa: "Campo obrigatório apenas para Justificativa cujo domínio seja
    # 99 - Outros"
    denial = cov.get("justificativa_negativa")
    if (isinstance(denial, dict) and _int(denial.get("justificativa")) == 99
            and _blank(denial.get("descricao_justificativa"))):
        yield ("justificativa_negativa.descricao_justificativa",
               "obrigatório quando justificativa = 99 (Outros)")


def _cobertura_outros_required(cov: dict) -> Iterator[tuple[str, str]]:
    # sinistro_cobertura_outros: "Obrigatório apenas para o domínio do campo Código da
    # Cobertura 99999 - Outros"
    if cov.get("cod_cobertura_sinistro") == "99999" and _blank(cov.get("sinistro_cobertura_outros")):
        yield "sinistro_cobertura_outros", 'obrigatório quando cod_cobertura_sinistro = "99999"'


def _beneficiario_final_flag_required(claim: dict) -> Iterator[tuple[str, str]]:
    # possui_beneficiario_final: "Obrigatório quando o campo Status do Sinistro for igual a 2,
    # 7 ou 8." The status is per affected coverage: any one of them makes it required.
    statuses = sorted({status for _, cov in _objects(claim.get("coberturas_afetadas"))
                       if (status := _int(cov.get("status"))) in {2, 7, 8}})
    if statuses and claim.get("possui_beneficiario_final") is None:
        listed = ", ".join(map(str, statuses))
        yield "possui_beneficiario_final", f"obrigatório quando status = {listed}"


def _codigo_postal_is_cep(owner: dict) -> Iterator[tuple[str, str]]:
    # beneficiario_final.codigo_postal: "Quando País BRA deverá corresponder a 8 digitos do CEP"
    postal = owner.get("codigo_postal")
    if owner.get("pais") == "BRA" and isinstance(postal, str) and not _CEP.match(postal):
        yield "codigo_postal", f"{_json(postal)} não tem os 8 dígitos do CEP (pais = BRA)"


def _cpf_digits_only(owner: dict) -> Iterator[tuple[str, str]]:
    # beneficiario_final.documento: "Aceita somente letras e números, sem caracteres especiais
    # (no caso de CPF / CIN, somente números)"; tipo_documento 1 is "CPF / CIN".
    document = owner.get("documento")
    if _int(owner.get("tipo_documento")) == 1 and isinstance(document, str) \
            and not _DIGITS.match(document):
        yield "documento", "somente números quando tipo_documento = 1 (CPF/CIN)"


COVERAGE_RULES = (_totalizacao_required, _liquidacao_conclusao_required, _data_entrega_required,
                  _data_entrega_not_before_aviso, _descricao_justificativa_required,
                  _cobertura_outros_required)
CLAIM_RULES = (_beneficiario_final_flag_required,)
BENEFICIARY_RULES = (_codigo_postal_is_cep, _cpf_digits_only)


def _objects(value: Any) -> Iterator[tuple[int, dict]]:
    """The objects of a list, with their index; anything else the schema already refused."""
    if isinstance(value, list):
        yield from ((index, item) for index, item in enumerate(value) if isinstance(item, dict))


def _rule_problems(model_name: str, body: Any) -> Iterator[Problem]:
    key = ITEMS_KEY.get(model_name)
    data = body.get("data") if isinstance(body, dict) else None
    if key is None or not isinstance(data, dict):
        return
    for i, claim in _objects(data.get(key)):
        nested = [(f"{key}[{i}]", claim, CLAIM_RULES)]
        nested += [(f"{key}[{i}].coberturas_afetadas[{j}]", cov, COVERAGE_RULES)
                   for j, cov in _objects(claim.get("coberturas_afetadas"))]
        nested += [(f"{key}[{i}].beneficiario_final[{j}]", owner, BENEFICIARY_RULES)
                   for j, owner in _objects(claim.get("beneficiario_final"))]
        for where, obj, rules in nested:
            for rule in rules:
                for field, message in rule(obj):
                    yield Problem(i, f"{where}.{field}", message)


def problems(model_name: str, body: Any) -> list[Problem]:
    """Every violation of the layout in ``body``: its schema first, then its prose rules."""
    found = []
    for error in _validator(model_name).iter_errors(body):
        # A value outside a domain breaks both "enum" and "minimum"/"maximum": say it once.
        if error.validator in ("minimum", "maximum") and "enum" in error.schema:
            continue
        found.append(_schema_problem(model_name, error))
    return found + list(_rule_problems(model_name, body))


def validate(model_name: str, body: Any) -> list[str]:
    """Messages for every violation, e.g.
    ``sinistro[0].coberturas_afetadas[0].data_entrega: obrigatório quando status = 2``."""
    return [str(problem) for problem in problems(model_name, body)]
