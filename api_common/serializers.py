"""Serializer plumbing so the wire speaks the contract's kebab-case Portuguese while
the code speaks English.

Declare fields with snake_case Python names (``numero_sinistro = CharField(source=
"number")``); :class:`KebabCaseSerializer` publishes them as ``numero-sinistro``. Fields
declared without ``source`` keep reading the attribute named like the Python name.
"""

import datetime as dt

from rest_framework import serializers

UTC = dt.timezone.utc


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


class UTCDateTimeField(serializers.DateTimeField):
    """ISO 8601 in UTC with ``Z`` on output; any offset accepted on input (stored UTC).

    DRF would otherwise render in the current time zone (the analysts' local time).
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("default_timezone", UTC)
        super().__init__(**kwargs)

    def to_internal_value(self, value):
        parsed = super().to_internal_value(value)
        return parsed.astimezone(UTC)


class MoneyField(serializers.DecimalField):
    """A JSON number backed by ``Decimal`` with two places, never negative."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("coerce_to_string", False)
        super().__init__(**kwargs)


class DigitsField(serializers.RegexField):
    def __init__(self, *, min_length=1, max_length=None, **kwargs):
        pattern = rf"^\d{{{min_length},{max_length or ''}}}$"
        kwargs.setdefault("error_messages", {"invalid": "Use somente dígitos."})
        super().__init__(pattern, **kwargs)
