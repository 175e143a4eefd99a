"""Optimistic concurrency over HTTP: ``ETag: "<version>"`` out, ``If-Match`` in.

A match's version is the ``seq`` of its last event. Every match, state and command response
carries it as a strong ETag (quoted) and as ``version`` in the body. A POST may send
``If-Match`` with that ETag (quoted, unquoted or weak ``W/"7"`` are all accepted; ``*`` means
any version); the command then runs only if the match is still at that version, else ``412``.
"""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework.response import Response

from games.domain.exceptions import InvalidInput, quoted
from games.domain.ids import bounded_int

IF_MATCH = "If-Match"


def etag(version: int) -> str:
    return f'"{version}"'


def with_version(response: Response, version: int) -> Response:
    response["ETag"] = etag(version)
    return response


def expected_version(request) -> int | None:
    """The version ``If-Match`` requires, or None when the header is absent or ``*``."""
    raw = request.headers.get(IF_MATCH)
    if raw is None:
        return None
    value = raw.strip()
    if value == "*":
        return None
    if value.startswith("W/"):
        value = value[2:]
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    version = bounded_int(value)
    if version is None:
        raise InvalidInput(
            gettext('If-Match must be one ETag of this match, e.g. "7"; got %(raw)s') % {"raw": quoted(raw)},
            field=IF_MATCH,
        )
    return version
