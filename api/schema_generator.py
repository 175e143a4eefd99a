"""The OpenAPI document is written in English whatever the request's or the server's language:
it is the committed contract (``openapi.yaml``, checked by tests/api/test_api_contract.py), and
its texts (problem descriptions, DRF's own help texts) are translated lazily."""

from __future__ import annotations

from django.utils import translation
from drf_spectacular.generators import SchemaGenerator


class EnglishSchemaGenerator(SchemaGenerator):
    def get_schema(self, request=None, public=False):
        with translation.override("en"):
            return super().get_schema(request=request, public=public)
