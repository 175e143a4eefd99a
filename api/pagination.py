"""The pagination of every list, by the request's version (api/versioning.py).

v1: pages of ``limit`` results (default ``DEFAULT_LIMIT``, at most ``MAX_LIMIT``), each answer
``{"count", "next", "previous", "results"}`` with ``next`` the link to follow (null on the last
page); ``?page=`` stays as in v1 1.0.0 (a page past the end is ``404``). Ten short lists answer a
bare array in v1 (``listed``).

v2: every list answers ``{"next", "previous", "results"}`` (no ``count``: a cursor does not count)
and is read by following ``next``, whose ``?cursor=`` is opaque. A list read from the database
(``KeysetPagination``) is cut by its order's key — the queryset's own order with the primary key
last, so that the key is unique and a row added or removed between two requests neither repeats
nor skips another; a short list built in memory (``listed``) by its position in its natural order.

``?limit=`` is validated in both (``limit_of``): a value that is not a whole number from 1 to
``MAX_LIMIT`` is ``400 invalid`` naming ``limit`` (1.0.0 silently ignored it, and ``?page_size=``)."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import decimal
import json
import uuid
from functools import reduce
from operator import or_

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter
from rest_framework.pagination import BasePagination, PageNumberPagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from games.domain.exceptions import InvalidInput
from games.domain.ids import BIGINT_MAX

from .versioning import is_v2

DEFAULT_LIMIT = 50  # v1 1.0.0's page size: a client that sends no limit sees what it saw
MAX_LIMIT = 200
CURSOR = "cursor"


LIMIT_HELP = f"Results per page: 1 to {MAX_LIMIT}, default {DEFAULT_LIMIT}; anything else is 400 `invalid`."
PAGE_HELP = "A page number (1-based; past the last: 404). Prefer following `next`."

# For a list written as an APIView (no paginator for drf-spectacular to ask): its ``parameters``.
PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description=LIMIT_HELP, default=DEFAULT_LIMIT),
    OpenApiParameter("page", int, description=PAGE_HELP),
]


def limit_of(request) -> int:
    raw = request.query_params.get("limit")
    if raw is None:
        return DEFAULT_LIMIT
    # Length first: int() refuses a string of over 4,300 digits with a ValueError (a 500).
    if not raw.isascii() or not raw.isdigit() or len(raw) > 4 or not 1 <= int(raw) <= MAX_LIMIT:
        raise InvalidInput(
            gettext("limit must be a whole number from 1 to %(max)d") % {"max": MAX_LIMIT}, field="limit"
        )
    return int(raw)


class ListPagination(PageNumberPagination):
    """v1's pages."""

    page_size = DEFAULT_LIMIT
    page_size_query_param = "limit"
    max_page_size = MAX_LIMIT

    def get_page_size(self, request):
        return limit_of(request)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["description"] = LIMIT_HELP
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT}
            elif parameter["name"] == self.page_query_param:
                parameter["description"] = PAGE_HELP
        return parameters


# --- v2: cursors ------------------------------------------------------------------------------------


def encode_cursor(position: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(position, separators=(",", ":")).encode()).decode().rstrip("=")


def decode_cursor(request) -> dict | None:
    """The position ``?cursor=`` names, or None on the first page; a cursor not ours is ``400``."""
    raw = request.query_params.get(CURSOR)
    if raw is None:
        return None
    try:
        position = json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
    except (ValueError, binascii.Error):
        position = None
    if not isinstance(position, dict):
        raise bad_cursor()
    return position


def bad_cursor() -> InvalidInput:
    return InvalidInput(gettext("cursor is not one this list gave: follow next or previous"), field=CURSOR)


def page_link(request, position: dict | None) -> str | None:
    if position is None:
        return None
    return replace_query_param(request.build_absolute_uri(), CURSOR, encode_cursor(position))


def cursor_page(request, results: list, next_position: dict | None, previous_position: dict | None) -> Response:
    return Response(
        {
            "next": page_link(request, next_position),
            "previous": page_link(request, previous_position),
            "results": results,
        }
    )


def listed(request, items: list) -> Response:
    """A short list built in memory: a bare array in v1 (as 1.0.0 answered it), a page in v2 cut at
    a position of its natural order."""
    if not is_v2(request):
        return Response(items)
    limit = limit_of(request)
    position = decode_cursor(request)
    start = 0 if position is None else position.get("at")
    if not isinstance(start, int) or isinstance(start, bool) or start < 0:
        raise bad_cursor()
    end = start + limit
    return cursor_page(
        request,
        items[start:end],
        {"at": end} if end < len(items) else None,
        {"at": max(0, start - limit)} if start > 0 else None,
    )


def log_page(request, answer: dict) -> Response:
    """``events/`` in v2: the log read from a sequence number keeps ``after`` as its cursor, in the
    shape of every list; ``next`` is null once the page reaches the match's version."""
    events, after, limit = answer["events"], answer["after"], limit_of(request)
    url = remove_query_param(request.build_absolute_uri(), "wait")
    next_link = None
    if events and events[-1]["seq"] < answer["version"]:
        next_link = replace_query_param(replace_query_param(url, "after", events[-1]["seq"]), "limit", limit)
    previous = None
    if after > 0:
        previous = replace_query_param(replace_query_param(url, "after", max(0, after - limit)), "limit", limit)
    return Response({"next": next_link, "previous": previous, "results": events})


class KeysetPagination(BasePagination):
    """v2's pagination of a queryset: the page after (or before) the key of the row a cursor names."""

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        limit = limit_of(request)
        keys = keyset(queryset)
        position = decode_cursor(request)
        backwards = bool(position and position.get("back"))
        ordered = queryset.order_by(*(("-" if descending != backwards else "") + name for name, descending in keys))
        if position is None:
            rows = list(ordered[: limit + 1])
        else:
            try:  # a forged key of a type its field refuses fails here, where it is read
                rows = list(ordered.filter(beyond(keys, position.get("key"), backwards))[: limit + 1])
            except (ValidationError, ValueError, TypeError, OverflowError) as exc:
                raise bad_cursor() from exc
        more, rows = len(rows) > limit, rows[:limit]
        if backwards:
            rows.reverse()
        first, last = (key_of(rows[0], keys), key_of(rows[-1], keys)) if rows else (None, None)
        if backwards:
            self.next_position = {"key": last} if rows else None
            self.previous_position = {"key": first, "back": True} if more else None
        else:
            self.next_position = {"key": last} if more else None
            self.previous_position = {"key": first, "back": True} if position is not None and rows else None
        return rows

    def get_paginated_response(self, data):
        return cursor_page(self.request, data, self.next_position, self.previous_position)


def keyset(queryset) -> tuple[tuple[str, bool], ...]:
    """(field path, descending) of the queryset's order, up to and ending with the primary key.
    An order a key cannot follow (an expression, a nullable field) gives way to the primary key's."""
    model = queryset.model
    order = queryset.query.order_by or (model._meta.ordering if queryset.query.default_ordering else ())
    keys: list[tuple[str, bool]] = []
    for item in order:
        if not isinstance(item, str) or not comparable(model, item.lstrip("-")):
            return (("pk", False),)
        name, descending = item.lstrip("-"), item.startswith("-")
        if name in ("pk", model._meta.pk.name):
            return (*keys, ("pk", descending))
        keys.append((name, descending))
    return (*keys, ("pk", keys[-1][1] if keys else False))


def comparable(model, path: str) -> bool:
    """Whether ``path`` names a column through non-null fields only (a null breaks ``<`` and ``>``)."""
    for part in path.split("__"):
        if part == "pk":
            return True
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False
        if getattr(field, "null", True) or field.many_to_many or field.one_to_many:
            return False
        model = field.related_model
    return True


def key_of(row, keys) -> list:
    return [json_value(follow(row, name)) for name, _ in keys]


def follow(row, path: str):
    value = row
    for part in path.split("__"):
        value = getattr(value, part)
    return value.pk if isinstance(value, models.Model) else value


def json_value(value):
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, uuid.UUID | decimal.Decimal):
        return str(value)
    return value


def beyond(keys, key, backwards: bool) -> Q:
    """Rows strictly after ``key`` in the order of ``keys`` (before it when ``backwards``): the
    first field beyond it, or equal and the second beyond it, and so on."""
    if not isinstance(key, list) or len(key) != len(keys) or not all(map(is_key_value, key)):
        raise bad_cursor()
    alternatives = []
    for i, (name, descending) in enumerate(keys):
        equal = {keys[j][0]: key[j] for j in range(i)}
        lookup = "lt" if descending != backwards else "gt"
        alternatives.append(Q(**equal, **{f"{name}__{lookup}": key[i]}))
    # The same bound on the first field alone, implied by the alternatives: a condition an index
    # on the order can start its scan at (without it the scan read every row before the cursor).
    name, descending = keys[0]
    return Q(**{f"{name}__{'lte' if descending != backwards else 'gte'}": key[0]}) & reduce(or_, alternatives)


def is_key_value(value) -> bool:
    """What ``json_value`` gives: a string, or a number a database column holds (no null)."""
    if isinstance(value, int):
        return -BIGINT_MAX - 1 <= value <= BIGINT_MAX
    return isinstance(value, str | float)


class VersionedPagination(BasePagination):
    """The default pagination class: v1's pages or v2's cursors, by the request's version. The
    schema methods are v1's; api/schema_v2.py describes v2's lists."""

    def __init__(self):
        self.delegate = self.v1 = ListPagination()

    def paginate_queryset(self, queryset, request, view=None):
        self.delegate = KeysetPagination() if is_v2(request) else self.v1
        return self.delegate.paginate_queryset(queryset, request, view)

    def get_paginated_response(self, data):
        return self.delegate.get_paginated_response(data)

    @property
    def display_page_controls(self):
        return getattr(self.delegate, "display_page_controls", False)

    def to_html(self):
        return self.delegate.to_html()

    def get_results(self, data):
        return self.delegate.get_results(data)

    def get_paginated_response_schema(self, schema):
        return self.v1.get_paginated_response_schema(schema)

    def get_schema_operation_parameters(self, view):
        return self.v1.get_schema_operation_parameters(view)
