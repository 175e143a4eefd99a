"""The API's JSON parser: DRF's, with the limits of ``config.limits`` (depth, NUL, non-finite
numbers). Any refusal is DRF's ParseError: ``400 parse_error``."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from config import limits


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return limits.loads(stream.read().decode(encoding))
        except (limits.JSONRefused, UnicodeDecodeError) as exc:
            raise ParseError(_("JSON parse error - %(reason)s") % {"reason": exc}) from None
