"""Primary keys from URLs and query strings."""

from __future__ import annotations

from typing import Any

BIGINT_MAX = 2**63 - 1


def int_id(value: Any) -> int | None:
    """``value`` as an integer primary key, or None when it cannot be one: only ASCII digits
    (``str.isdigit`` also takes "³" and "٣", which ``int`` refuses or reads otherwise) and within
    a 64-bit signed integer (PostgreSQL refuses more)."""
    text = str(value)
    if not (text.isascii() and text.isdigit()):
        return None
    number = int(text)
    return number if number <= BIGINT_MAX else None
