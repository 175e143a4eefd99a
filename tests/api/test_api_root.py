"""GET /api/v1/: the root lists every resource of the API (the documented paths), readable by anyone."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_every_documented_resource_is_reachable_from_the_root(committed_openapi):
    document = committed_openapi
    resources = {path.removeprefix("/api/v1/").split("/")[0] for path in document["paths"]}

    root = APIClient().get("/api/v1/").json()

    linked = {url.split("/api/v1/", 1)[1].split("/")[0] for url in root.values() if "/api/v1/" in url}
    assert resources - linked == set()
    assert {"disputes", "ping", "me-stream", "match-stream", "club-webhooks", "webhooks", "docs", "redoc"} <= set(root)
    assert root["match-stream"].endswith("/api/v1/matches/{id}/stream/")
    assert root["webhooks"].endswith("/api/v1/webhooks/{id}/")
