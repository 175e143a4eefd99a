"""The pagination of every paginated list: pages of ``limit`` results (default ``DEFAULT_LIMIT``,
at most ``MAX_LIMIT``), each answer ``{"count", "next", "previous", "results"}`` with ``next``
the link to follow (null on the last page).

``?limit=`` is validated: a value that is not a whole number from 1 to ``MAX_LIMIT`` is ``400
invalid`` naming ``limit`` (before, it and ``?page_size=`` were silently ignored). ``?page=``
stays as in v1 1.0.0 (a page past the end is ``404``); clients should follow ``next`` rather than
count pages (docs/api.md, "Lists")."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter
from rest_framework.pagination import PageNumberPagination

from games.domain.exceptions import InvalidInput

DEFAULT_LIMIT = 50  # v1 1.0.0's page size: a client that sends no limit sees what it saw
MAX_LIMIT = 200


LIMIT_HELP = f"Results per page: 1 to {MAX_LIMIT}, default {DEFAULT_LIMIT}; anything else is 400 `invalid`."
PAGE_HELP = "A page number (1-based; past the last: 404). Prefer following `next`."

# For a list written as an APIView (no paginator for drf-spectacular to ask): its ``parameters``.
PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description=LIMIT_HELP, default=DEFAULT_LIMIT),
    OpenApiParameter("page", int, description=PAGE_HELP),
]


class ListPagination(PageNumberPagination):
    page_size = DEFAULT_LIMIT
    page_size_query_param = "limit"
    max_page_size = MAX_LIMIT

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        # Length first: int() refuses a string of over 4,300 digits with a ValueError (a 500).
        if not raw.isascii() or not raw.isdigit() or len(raw) > 4 or not 1 <= int(raw) <= MAX_LIMIT:
            raise InvalidInput(
                gettext("limit must be a whole number from 1 to %(max)d") % {"max": MAX_LIMIT}, field="limit"
            )
        return int(raw)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["description"] = LIMIT_HELP
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT}
            elif parameter["name"] == self.page_query_param:
                parameter["description"] = PAGE_HELP
        return parameters
