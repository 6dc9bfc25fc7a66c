"""``GET /api/v1/schema/``: the OpenAPI schema, built once per process.

drf-spectacular builds the schema on each request, and its first build imports its
extensions: several threads doing that at once, right after a start, failed half of
them (a module seen half-imported). The schema is the same for every caller, so it is
built behind a lock, once per API version and language, and kept; a settings change (the
tests' ``override_settings``) forgets it."""

import threading

from django.core.signals import setting_changed
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response

_lock = threading.Lock()
_schemas: dict[tuple, dict] = {}


def _forget(**kwargs) -> None:
    with _lock:
        _schemas.clear()


setting_changed.connect(_forget, dispatch_uid="api_common.schema_view.forget")


class SchemaView(SpectacularAPIView):
    def _get_schema_response(self, request):
        version = self.api_version or request.version or self._get_version_parameter(request)
        key = (version, translation.get_language())
        schema = _schemas.get(key)
        if schema is None:
            with _lock:
                schema = _schemas.get(key)
                if schema is None:
                    generator = self.generator_class(urlconf=self.urlconf, api_version=version,
                                                     patterns=self.patterns)
                    schema = generator.get_schema(request=request, public=self.serve_public)
                    _schemas[key] = schema
        return Response(data=schema, headers={
            "Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'})
