"""The served OpenAPI schema (``/api/<version>/schema/``): generated once per version and language
in each process, not on every request.

drf-spectacular's view builds the schema anew for every request: about a second of a worker's CPU
for each Swagger UI or ReDoc page opened and each client generator run. The schema depends only on
the code (the views, serializers and hooks, fixed while the process lives), the API version and the
language of its descriptions: the project serves it publicly (``SERVE_PUBLIC``), to anyone alike,
and no hook reads the request. So each process keeps one per version and language.
"""

from __future__ import annotations

import functools
from typing import Any

from django.utils.translation import get_language
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response


@functools.cache
def served_schema(version: str | None, language: str | None) -> dict[str, Any]:
    """The public schema of ``version`` with its descriptions in ``language`` (active when asked)."""
    generator = spectacular_settings.DEFAULT_GENERATOR_CLASS(api_version=version)
    return generator.get_schema(request=None, public=True)


class SchemaView(SpectacularAPIView):
    """``SpectacularAPIView`` answering from ``served_schema`` (the same body, the same headers)."""

    def _get_schema_response(self, request):
        version = self.api_version or request.version or self._get_version_parameter(request)
        return Response(
            data=served_schema(version, get_language()),
            headers={"Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'},
        )
