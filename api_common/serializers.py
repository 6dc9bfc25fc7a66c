"""Serializer plumbing so the wire speaks the contract's kebab-case Portuguese while
the code speaks English.

Declare fields with snake_case Python names (``numero_sinistro = CharField(source=
"number")``); :class:`KebabCaseSerializer` publishes them as ``numero-sinistro``. Fields
declared without ``source`` keep reading the attribute named like the Python name.
"""

import datetime as dt
import re
from decimal import Decimal

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

UTC = dt.timezone.utc

# Every date-time the service takes in lies in [EARLIEST_DATETIME, LATEST_DATETIME)
# (docs/api.md, "Input limits"): older than any policy or claim the insurer could
# hold, later than any policy's end, and far from the year 1 / 9999 edges where turning
# UTC into the analysts' local time overflows.
EARLIEST_DATETIME = dt.datetime(1900, 1, 1, tzinfo=UTC)
LATEST_DATETIME = dt.datetime(2100, 1, 1, tzinfo=UTC)
DATETIME_RANGE_MESSAGE = (
    "Fora do intervalo aceito: de 1900-01-01T00:00:00Z até antes de 2100-01-01T00:00:00Z."
)
# The contract's "ISO 8601 date-time" with its offset, as RFC 3339 writes it: a date, a
# time and Z or ±hh:mm. Not a bare date, not an ISO week, not a naive (offset-less) time:
# those would be read in some time zone the client never named.
_DATETIME_WITH_OFFSET = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})",
    re.ASCII,
)


def validate_datetime_range(value: dt.datetime) -> None:
    """The range check, for Django forms that take date-times (the admin's)."""
    if value is not None and not EARLIEST_DATETIME <= value < LATEST_DATETIME:
        raise DjangoValidationError(DATETIME_RANGE_MESSAGE, code="out_of_range")


class KebabCaseSerializer(serializers.Serializer):
    def get_fields(self):
        fields = {}
        for name, field in super().get_fields().items():
            wire_name = name.replace("_", "-")
            if isinstance(field, serializers.SerializerMethodField):
                field.method_name = field.method_name or f"get_{name}"
            elif field.source is None and wire_name != name:
                field.source = name  # DRF refuses a source equal to the field name
            fields[wire_name] = field
            # DRF looks up ``validate_<field name>``: let ``validate_data_ocorrencia``
            # serve the wire field ``data-ocorrencia``.
            field_validator = getattr(self, f"validate_{name}", None)
            if field_validator is not None and wire_name != name:
                setattr(self, f"validate_{wire_name}", field_validator)
        return fields


# A date-time whose "+hh:mm" offset lost its "+" in a query string (read as a space).
_PLUS_READ_AS_SPACE = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(:\d{2}(\.\d+)?)? \d{2}:?\d{2}")


# The schema states the range the only way OpenAPI 3.0 can for a date-time: its year.
@extend_schema_field({
    "type": "string",
    "format": "date-time",
    "pattern": r"^(19|20)[0-9]{2}-",
    "description": "RFC 3339 com fuso (Z ou ±hh:mm), de 1900-01-01T00:00:00Z até antes de 2100.",
})
class UTCDateTimeField(serializers.DateTimeField):
    """ISO 8601 in UTC with ``Z`` on output. On input, a date-time with its offset (any
    offset; stored UTC) within the accepted range.

    DRF would otherwise render in the current time zone (the analysts' local time), and
    accept bare dates, ISO weeks and offset-less times, read as UTC.
    """

    default_error_messages = {
        "invalid": (
            "Informe data e hora ISO 8601 com fuso horário, como 2026-11-01T10:00:00-03:00 "
            "ou 2026-11-01T13:00:00Z."
        ),
        "overflow": DATETIME_RANGE_MESSAGE,
        "out_of_range": DATETIME_RANGE_MESSAGE,
        "plus_not_encoded": (
            "O fuso chegou com um espaço no lugar do `+`: numa URL, o `+` é lido como espaço. "
            "Codifique-o como %2B (2026-11-01T13:00:00%2B00:00) ou use Z "
            "(2026-11-01T13:00:00Z)."
        ),
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("default_timezone", UTC)
        super().__init__(**kwargs)

    def to_internal_value(self, value):
        if isinstance(value, str) and _PLUS_READ_AS_SPACE.fullmatch(value):
            self.fail("plus_not_encoded")
        if not isinstance(value, dt.datetime) and not (
            isinstance(value, str) and _DATETIME_WITH_OFFSET.fullmatch(value)
        ):
            self.fail("invalid")
        if isinstance(value, str):
            value = value.upper()  # RFC 3339 allows "t" and "z"; Python's parser does not
        parsed = super().to_internal_value(value).astimezone(UTC)
        if not EARLIEST_DATETIME <= parsed < LATEST_DATETIME:
            self.fail("out_of_range")
        return parsed


@extend_schema_field({
    "type": "number",
    "format": "double",
    "minimum": 0,
    "maximum": 999_999_999_999.99,
    "multipleOf": 0.01,
})
class MoneyField(serializers.DecimalField):
    """A JSON number backed by ``Decimal`` with two places, never negative: at most 12
    digits before the point and 2 after (``max_digits`` 14), as the schema says."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("coerce_to_string", False)
        super().__init__(**kwargs)


@extend_schema_field({
    "type": "number",
    "format": "double",
    "minimum": 0.01,
    "maximum": 100,
    "multipleOf": 0.01,
})
class PercentField(serializers.DecimalField):
    """A percent as a JSON number, 0.01 to 100 with two places, as the schema says."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 5)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("min_value", Decimal("0.01"))
        kwargs.setdefault("max_value", Decimal("100"))
        kwargs.setdefault("coerce_to_string", False)
        super().__init__(**kwargs)


class DigitsField(serializers.RegexField):
    """ASCII digits only (``[0-9]``: ``\\d`` would also take "٣" or "３"), never empty,
    between ``min_length`` and ``max_length`` of them.

    The same pattern goes into the OpenAPI schema, and a wrong length is told as such.
    """

    def __init__(self, *, min_length=1, max_length=None, **kwargs):
        self.digits_min, self.digits_max = min_length, max_length
        count = min_length if min_length == max_length else f"{min_length},{max_length or ''}"
        pattern = rf"^[0-9]{{{count}}}$"
        kwargs.setdefault("error_messages", {"invalid": self._length_message()})
        super().__init__(pattern, **kwargs)

    def _length_message(self) -> str:
        low, high = self.digits_min, self.digits_max
        if high is None:
            return f"Informe ao menos {low} dígito{'s' if low > 1 else ''} (0-9), sem pontuação."
        if low == high:
            return f"Informe exatamente {low} dígitos (0-9), sem pontuação."
        return f"Informe de {low} a {high} dígitos (0-9), sem pontuação."


class QueryParametersSerializer(KebabCaseSerializer):
    """Validates ``request.query_params``. DRF reads a ``QueryDict`` as an HTML form, where
    an empty optional field counts as absent; in a URL, ``?cpf=`` is a value, and an
    empty one is refused like any other invalid value."""

    def to_internal_value(self, data):
        if hasattr(data, "dict"):
            data = data.dict()
        return super().to_internal_value(data)


class PatternChecked(RegexValidator):
    """Runs ``check`` (which says precisely what is wrong) and publishes ``pattern``, the
    shape every accepted value has, so the OpenAPI schema states it (drf-spectacular reads
    a ``RegexValidator``'s pattern). Rules beyond the shape (check digits, CRCs) are in
    the field's description."""

    def __init__(self, pattern: str, check):
        super().__init__(pattern)
        self.check = check

    def __call__(self, value):
        self.check(value)
