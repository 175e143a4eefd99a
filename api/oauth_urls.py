"""The OAuth 2.0 routes (issue 26), included at the site root by ``config/urls.py``: the server
metadata (RFC 8414) at the origin's ``/.well-known/``, the protocol under ``/o/`` and the pages."""

from django.urls import path
from oauth2_provider import views as oauth_views

from . import oauth_views as pages

app_name = "oauth2_provider"  # django-oauth-toolkit reverses its endpoints in this namespace

urlpatterns = [
    path(
        ".well-known/oauth-authorization-server",
        oauth_views.OAuthServerMetadataView.as_view(),
        name="oauth-server-metadata",
    ),
    path("o/authorize/", pages.ConsentView.as_view(), name="authorize"),
    path("o/token/", oauth_views.TokenView.as_view(), name="token"),
    path("o/revoke_token/", oauth_views.RevokeTokenView.as_view(), name="revoke-token"),
    path("o/introspect/", oauth_views.IntrospectTokenView.as_view(), name="introspect"),
    path("o/apps/", pages.my_apps, name="apps"),
    path("o/authorised/", pages.authorised_apps, name="authorised-apps"),
]
