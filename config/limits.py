"""Limits on what a client's JSON may hold, shared by the API's parser and the record viewer page:
nesting depth, NUL characters, non-finite numbers. A document over a limit is refused as a
whole (a 400), before any serializer or the database sees it (docs/limits.md)."""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _


class JSONRefused(ValueError):
    """Not valid JSON, or valid JSON over one of the limits; the message says which."""


def loads(text: str | bytes, *, max_depth: int | None = None) -> Any:
    """``json.loads`` for untrusted input. Refuses nesting deeper than ``max_depth`` (default:
    ``API_MAX_JSON_DEPTH``; Python's decoder would raise RecursionError near 1,000 levels, and
    code that walks the result could recurse on less), NUL characters in any string or key
    (PostgreSQL's text and jsonb cannot store them), ``NaN``/``Infinity`` (not JSON), and
    integers past Python's 4,300-digit limit."""
    limit = settings.API_MAX_JSON_DEPTH if max_depth is None else max_depth
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8")  # as json.loads would (a BOM or UTF-16 is not JSON an API client sends)
    # A NUL can only come from the escape \u0000 (a raw control character is not valid JSON): one
    # preceded by an even number of backslashes (\\u0000 is a backslash and "u0000").
    if "\\u0000" in text and _NUL_ESCAPE.search(text):  # the substring test first: fast
        raise JSONRefused(_("NUL characters (\\u0000) are not allowed in text"))
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise JSONRefused(_("the JSON is nested deeper than %(limit)d levels") % {"limit": limit}) from None
    except JSONRefused:
        raise
    except ValueError as exc:  # JSONDecodeError, an integer of 4,300+ digits
        raise JSONRefused(str(exc)) from None
    check_depth(data, max_depth=limit)
    return data


_NUL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def check_depth(data: Any, *, max_depth: int) -> None:
    """The depth check of ``loads`` on decoded data, without recursion (only containers are visited)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > max_depth:
            raise JSONRefused(_("the JSON is nested deeper than %(limit)d levels") % {"limit": max_depth})
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        stack.extend((item, depth + 1) for item in items if isinstance(item, (dict, list)))


def _refuse_constant(name: str):
    raise JSONRefused(_("%(constant)s is not a JSON number") % {"constant": name})
