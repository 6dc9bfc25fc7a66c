import re
from urllib.parse import parse_qs, urlparse

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response


class OpaqueCursorPagination(CursorPagination):
    """Cursor pagination with the contract's Portuguese parameters.

    ``?limite=N`` (1..100, default 50) sets the page size; the response carries
    ``pagina-seguinte``, an opaque cursor (``null`` on the last page) that the client
    sends back as ``?pagina-seguinte=...``. Cursors stay stable while rows are added.
    """

    cursor_query_param = "pagina-seguinte"
    page_size_query_param = "limite"
    page_size = 50
    max_page_size = 100
    ordering = ("-created_at", "-id")
    items_key = "dados"
    invalid_cursor_message = "Cursor de paginação inválido."

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        # ASCII digits only: str.isdigit() and int() also take "٣" and "３".
        if not re.fullmatch(r"[0-9]{1,3}", raw) or not 1 <= int(raw) <= self.max_page_size:
            raise serializers.ValidationError(
                {"limite": [f"Informe um inteiro de 1 a {self.max_page_size}."]}
            )
        return int(raw)

    def decode_cursor(self, request):
        try:
            return super().decode_cursor(request)
        except NotFound as exc:  # DRF answers 404 for a bad cursor; it is a bad request
            raise serializers.ValidationError(
                {"pagina-seguinte": [self.invalid_cursor_message]}
            ) from exc

    def paginate_queryset(self, queryset, request, view=None):
        try:
            return super().paginate_queryset(queryset, request, view)
        except (DjangoValidationError, ValueError, TypeError) as exc:
            # A cursor that decodes but carries a position of the wrong kind.
            raise serializers.ValidationError(
                {"pagina-seguinte": [self.invalid_cursor_message]}
            ) from exc

    def next_cursor(self) -> str | None:
        link = self.get_next_link()
        if link is None:
            return None
        return parse_qs(urlparse(link).query)[self.cursor_query_param][0]

    def get_paginated_response(self, data):
        return Response({self.items_key: data, "pagina-seguinte": self.next_cursor()})


PAGINATION_PARAMETERS = [
    OpenApiParameter(
        OpaqueCursorPagination.cursor_query_param,
        OpenApiTypes.STR,
        description="Cursor devolvido em `pagina-seguinte` da página anterior.",
    ),
    OpenApiParameter(
        OpaqueCursorPagination.page_size_query_param,
        {"type": "integer", "minimum": 1, "maximum": OpaqueCursorPagination.max_page_size,
         "default": OpaqueCursorPagination.page_size},
        description=f"Itens por página (1 a {OpaqueCursorPagination.max_page_size}).",
    ),
]


def page_schema(name: str, items: serializers.Serializer, **more_fields):
    """The OpenAPI shape of one page of :class:`OpaqueCursorPagination`: ``dados`` (the
    ``items`` serializer, ``many=True``) and ``pagina-seguinte``, plus ``more_fields``."""
    return inline_serializer(name=name, fields={
        OpaqueCursorPagination.items_key: items,
        "pagina-seguinte": serializers.CharField(allow_null=True),
        **more_fields,
    })
