"""The OpenAPI document is written in English whatever the request's or the server's language:
it is the committed contract (``openapi.yaml``, checked by tests/api/test_api_contract.py), and
its texts (problem descriptions, DRF's own help texts) are translated lazily.

It is OpenAPI 3.1: the version with a ``webhooks`` section, where the bodies the server POSTs to
a club's receivers are typed like any request body (api/webhook_body_serializers.py), and with
``const`` (the one value a member of a union holds: what a client narrows it by)."""

from __future__ import annotations

from django.utils import translation
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.settings import patched_settings

from . import event_serializers  # noqa: F401 - registers the schema of Event (one component per kind)
from .schema_hooks import add_webhook_union, close_tally_takes, nullable_as_type

OAS_VERSION = "3.1.0"


class EnglishSchemaGenerator(SchemaGenerator):
    def get_schema(self, request=None, public=False):
        patches = {
            "OAS_VERSION": OAS_VERSION,
            "WEBHOOKS": "api.webhook_body_serializers.WEBHOOKS",
        }
        with translation.override("en"), patched_settings(patches):
            result = super().get_schema(request=request, public=public)
            # The hooks of the 3.1 document, run here rather than in SPECTACULAR_SETTINGS: they
            # belong to the version this generator writes.
            for hook in (close_tally_takes, nullable_as_type, add_webhook_union):
                result = hook(result=result, generator=self, request=request, public=public)
            return result
