"""Limits on what a client's JSON may hold, shared by the API's parser and the record viewer page:
nesting depth, NUL characters, non-finite numbers. A document over a limit is refused as a
whole (a 400), before any serializer or the database sees it (docs/limits.md)."""

from __future__ import annotations

import json
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
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise JSONRefused(_("the JSON is nested deeper than %(limit)d levels") % {"limit": limit}) from None
    except JSONRefused:
        raise
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, an integer of 4,300+ digits
        raise JSONRefused(str(exc)) from None
    check(data, max_depth=limit)
    return data


def check(data: Any, *, max_depth: int) -> None:
    """The depth and NUL checks of ``loads`` on decoded data, without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise JSONRefused(_("NUL characters (\\u0000) are not allowed in text"))
        elif isinstance(value, (dict, list)):
            if depth > max_depth:
                raise JSONRefused(_("the JSON is nested deeper than %(limit)d levels") % {"limit": max_depth})
            items = value.items() if isinstance(value, dict) else ((None, item) for item in value)
            for key, item in items:
                stack.append((item, depth + 1))
                if key is not None:
                    stack.append((key, depth))


def _refuse_constant(name: str):
    raise JSONRefused(_("%(constant)s is not a JSON number") % {"constant": name})
