"""Whole numbers from URLs, query strings and headers: primary keys, event ids, seconds."""

from __future__ import annotations

from typing import Any

BIGINT_MAX = 2**63 - 1


def bounded_int(value: Any, *, maximum: int = BIGINT_MAX) -> int | None:
    """``value`` (a string of ASCII digits, no sign) as an integer from 0 to ``maximum``, or None.

    ``str.isdigit`` also takes "³" and "٣", which ``int`` refuses or reads otherwise; and ``int``
    itself raises ValueError past 4,300 digits (Python's limit against quadratic parsing), so the
    length is checked before ``int`` runs: a number from a client is never a 500."""
    text = value if isinstance(value, str) else str(value)
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > len(str(maximum)):
        return None
    number = int(text)
    return number if number <= maximum else None


def int_id(value: Any) -> int | None:
    """``value`` as an integer primary key, or None when it cannot be one: only ASCII digits and
    within a 64-bit signed integer (PostgreSQL refuses more)."""
    return bounded_int(value)
