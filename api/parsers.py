"""The API's JSON parser: DRF's, with the limits of ``config.limits`` (depth, NUL, non-finite
numbers). Any refusal is DRF's ParseError: ``400 parse_error``. A lone surrogate (``"\\ud800"``
decodes to text no UTF-8 can hold: not a character) is refused as ``400 invalid`` naming the field
that holds it, before anything encodes, fingerprints or stores it (issue 30, finding 7)."""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from config import limits
from games.domain.exceptions import InvalidInput

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
            data = limits.loads(text)
        except (limits.JSONRefused, UnicodeDecodeError) as exc:
            raise ParseError(_("JSON parse error - %(reason)s") % {"reason": exc}) from None
        # Decoded UTF-8 holds no surrogate: only the escapes \ud800–\udfff make one (fast test first).
        field = lone_surrogate_path(data) if _SURROGATE_ESCAPE.search(text) else None
        if field is not None:
            raise InvalidInput(
                _("%(field)s holds a lone surrogate (\\ud800–\\udfff): not a character; send it as UTF-8 text")
                % {"field": field or _("the body")},
                field=field or None,
            )
        return data


def lone_surrogate_path(data: Any) -> str | None:
    """The dotted path (``players.N``, ``deals.2.plays.17``) of the first string or key in ``data``
    that holds a lone surrogate, ``""`` for the document itself, None when there is none. Walked
    without recursion: the depth limit was checked, but a wide document should cost no stack."""
    try:  # the common case (an escaped pair, an emoji) at C speed; the walk only names the field
        json.dumps(data, ensure_ascii=False).encode("utf-8")
        return None
    except UnicodeEncodeError:
        pass
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if not is_encodable(value):
                return path
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                inner = f"{path}.{key}" if path else str(key)
                if not is_encodable(key):
                    return path
                stack.append((item, inner))
        elif isinstance(value, list):
            stack.extend(
                (item, f"{path}.{index}" if path else str(index)) for index, item in reversed(list(enumerate(value)))
            )
    return None


def is_encodable(text: str) -> bool:
    """Whether ``text`` has a UTF-8 form (no lone surrogate). The fast path: ASCII text."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
