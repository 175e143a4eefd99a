"""The API's versions: ``/api/v1/`` (frozen but for additions) and ``/api/v2/`` (docs/api.md, "v2").

Both serve the same views. ``config/urls.py`` includes the API's URLs twice: v1 as it always was
(no namespace, so every ``reverse("match-detail")`` keeps giving a v1 path) and v2 under the
namespace ``v2``. DRF's ``NamespaceVersioning`` then sets ``request.version`` from the namespace,
and ``rest_framework.reverse.reverse(..., request=request)`` builds links (``Location``, ``next``,
``poll``) in the request's own version. Where the two differ is decided by ``is_v2`` in one place
per concern: the pagination (api/pagination.py), the timestamps (``zulu``), the schema
(api/schema_v2.py)."""

from __future__ import annotations

from contextvars import ContextVar

from django.urls import NoReverseMatch, reverse
from rest_framework.versioning import NamespaceVersioning

from config.middleware import Middleware

V1 = "v1"
V2 = "v2"
V1_PREFIX, V2_PREFIX = f"/api/{V1}/", f"/api/{V2}/"


class APIVersioning(NamespaceVersioning):
    """v2 under the namespace ``v2``; everything else, un-namespaced or another app's namespace
    (``web``, ``oauth2_provider``), is v1 — never a 404 for want of a version."""

    default_version = V1
    allowed_versions = (V1, V2)

    def determine_version(self, request, *args, **kwargs):
        return version_of(request)

    def get_versioned_viewname(self, viewname, request):
        return f"{V2}:{viewname}" if request.version == V2 else viewname


def version_of(request) -> str:
    """The version of a DRF request or of a plain Django one (the streams are async Django views)."""
    match = getattr(request, "resolver_match", None)
    return V2 if match is not None and V2 in match.namespaces else V1


def is_v2(request) -> bool:
    return request is not None and version_of(request) == V2


def zulu(timestamp: str) -> str:
    """v2's form of a stored event time: ``…+00:00`` → ``…Z`` (the same instant, the same digits).
    A client re-derives the hashed text by the reverse: a final ``Z`` → ``+00:00``."""
    return timestamp[:-6] + "Z" if timestamp.endswith("+00:00") else timestamp


# URL name → whether its v2 path is its v1 path under /api/v2/ (True), another (False) or none (None):
# learnt from one reverse() per name, as a reverse() costs about a tenth of a millisecond per request.
TWIN_ROUTES: dict[str, bool | None] = {}


def successor(request) -> str | None:
    """The ``/api/v2/`` twin of a ``/api/v1/`` request's URL, or None (not an API path, already v2,
    or an endpoint without a twin)."""
    match = getattr(request, "resolver_match", None)
    if match is None or match.namespaces or not match.url_name or not request.path.startswith(V1_PREFIX):
        return None
    moved, known = V2_PREFIX + request.path.removeprefix(V1_PREFIX), match.url_name in TWIN_ROUTES
    if known and TWIN_ROUTES[match.url_name] is not False:
        return moved if TWIN_ROUTES[match.url_name] else None
    try:
        twin = reverse(f"{V2}:{match.url_name}", args=match.args, kwargs=match.kwargs)
    except NoReverseMatch:
        twin = None
    if not known:
        TWIN_ROUTES[match.url_name] = None if twin is None else twin == moved
    return twin


REQUEST_VERSION: ContextVar[str] = ContextVar("api_version", default=V1)


def current_version() -> str:
    """The version of the request being answered, for what is built without the request at hand (a
    problem's ``type``, as its texts take the request's language from the active translation)."""
    return REQUEST_VERSION.get()


class APIVersionMiddleware(Middleware):
    """Sets ``current_version`` for the request (its path: v2's namespace is mounted at ``/api/v2/``),
    and a v1 answer with a v2 twin says where it is: ``Link: <…>; rel="successor-version"``. No
    ``Deprecation`` or ``Sunset`` yet: v1 is not deprecated (docs/api.md, "Versioning")."""

    def handle(self, request, get_response):
        token = REQUEST_VERSION.set(V2 if request.path.startswith(V2_PREFIX) else V1)
        try:
            return with_successor(request, get_response(request))
        finally:
            REQUEST_VERSION.reset(token)

    async def ahandle(self, request, get_response):
        token = REQUEST_VERSION.set(V2 if request.path.startswith(V2_PREFIX) else V1)
        try:
            return with_successor(request, await get_response(request))
        finally:
            REQUEST_VERSION.reset(token)


def with_successor(request, response):
    twin = successor(request)
    if twin is not None:
        link = f'<{request.build_absolute_uri(twin)}>; rel="successor-version"'
        response["Link"] = f"{response['Link']}, {link}" if response.has_header("Link") else link
    return response
