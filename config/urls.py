from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from api import urls as api_urls
from api.schema_view import SchemaView
from api.versioning import V1, V2
from config import health


def schema_patterns(version: str) -> list:
    """The version's schema, its Swagger UI and its ReDoc: ``/api/<version>/schema/``, ``docs/``, ``redoc/``
    (the pages find their schema by DRF's ``reverse``, in the request's version)."""
    return [
        path("schema/", SchemaView.as_view(api_version=version), name="schema"),
        # Swagger UI's start-up script from ?script, not inline: the Content-Security-Policy holds (docs/limits.md).
        path(
            "docs/",
            SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="web/swagger_ui.html"),
            name="docs",
        ),
        # ReDoc styles itself with <style> elements it writes at run time: this page alone allows inline style.
        path(
            "redoc/",
            csp_update({"style-src": [UNSAFE_INLINE]})(
                SpectacularRedocView.as_view(url_name="schema", template_name="web/redoc.html")
            ),
            name="redoc",
        ),
    ]


urlpatterns = [
    # Answered by config.health.HealthCheckMiddleware first; routed for reverse() and completeness.
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the language switch on every page
    path("api/v1/", include(schema_patterns(V1))),
    path("api/v1/", include("api.urls")),
    # /api/v2/: the same views, under the namespace that sets request.version (api/versioning.py)
    path("api/v2/", include(([*schema_patterns(V2), *api_urls.patterns(V2)], V2))),
    path("", include("api.oauth_urls")),  # OAuth 2.0: /.well-known/oauth-authorization-server, /o/ (docs/oauth.md)
    path("", include("web.urls")),  # the pages: score sheets, deal viewer, standings, login
]

handler404 = "api.problems.page_not_found"
handler500 = "api.problems.server_error"
