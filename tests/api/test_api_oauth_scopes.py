"""Scopes (issue 26): every endpoint of the API needs the scope ``api.oauth_scopes`` gives it, a
Bearer token without it is refused with 403 ``insufficient_scope`` (problem+json) whatever its user
may do, one with it gets through to the usual checks; sessions and the old tokens are unaffected;
the OpenAPI schema declares each operation's scope."""

import re

import pytest
from django.core.cache import cache
from drf_spectacular.generators import EndpointEnumerator
from oauth_helpers import bearer, scoped_token
from rest_framework.authtoken.models import Token

from api.oauth_scopes import ENDPOINT_SCOPES, SCOPES, is_open, required_scope

pytestmark = pytest.mark.django_db

MATCH_ID = "00000000-0000-4000-8000-000000000000"
NO_SCOPE_ON_PURPOSE = {
    "TokenListView",
    "TokenDetailView",  # no app manages its user's tokens
    *("MyDataView", "MyErasureView", "PlayerDataView", "PlayerErasureView"),  # nor erases or exports a person
    "PlayerNameView",  # nor renames one
}


def _view(callback, method):
    view = callback.cls(**getattr(callback, "initkwargs", {}))
    view.action = (getattr(callback, "actions", None) or {}).get(method.lower())
    return view


def endpoints():
    """(method, concrete path, view) of every API operation, path ids filled with ids of nothing."""
    found = []
    for path, _, method, callback in (e[:4] for e in EndpointEnumerator().get_api_endpoints()):
        concrete = path.replace("{pk}", MATCH_ID if path.startswith("/api/v1/matches/") else "999999")
        concrete = re.sub(r"\{[a-z_]+\}", "999999", concrete)
        found.append((method, concrete, _view(callback, method)))
    return found


ENDPOINTS = endpoints()
SCOPED = [(m, p, v) for m, p, v in ENDPOINTS if not is_open(v)]
GRANTED = [(m, p, v) for m, p, v in SCOPED if required_scope(v, m) is not None]  # all but NO_SCOPE_ON_PURPOSE


def call(client, method, path):
    return getattr(client, method.lower())(path, {}, format="json") if method != "GET" else client.get(path)


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("sekretarz", password="a-long-pass-phrase", is_staff=True)


def test_every_endpoint_has_its_scope_decided_in_the_table():
    undecided = sorted(
        f"{method} {path} ({type(view).__name__})"
        for method, path, view in SCOPED
        if required_scope(view, method) is None and type(view).__name__ not in NO_SCOPE_ON_PURPOSE
    )
    assert undecided == []
    assert {scope for table in ENDPOINT_SCOPES.values() for scope in table.values()} == set(SCOPES)


@pytest.mark.parametrize(("method", "path", "view"), SCOPED, ids=[f"{m} {p}" for m, p, _ in SCOPED])
def test_a_token_without_the_endpoints_scope_is_refused_even_for_staff(staff, method, path, view):
    needed = required_scope(view, method)
    others = " ".join(scope for scope in SCOPES if scope != needed)

    answer = call(bearer(scoped_token(staff, others)), method, path)

    assert answer.status_code == 403, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    assert answer.json()["code"] == "insufficient_scope"
    if needed:
        assert needed in answer.json()["detail"]


@pytest.mark.parametrize(("method", "path", "view"), GRANTED, ids=[f"{m} {p}" for m, p, _ in GRANTED])
def test_a_token_with_the_endpoints_scope_alone_gets_past_the_scope_check(staff, method, path, view):
    needed = required_scope(view, method)

    answer = call(bearer(scoped_token(staff, needed)), method, path)

    assert answer.status_code != 401
    assert answer.status_code != 403 or answer.json()["code"] != "insufficient_scope"


def test_sessions_and_old_tokens_keep_their_full_reach(staff):
    from rest_framework.test import APIClient

    old = APIClient()
    old.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=staff).key}")
    session = APIClient()
    session.force_login(staff)

    for client in (old, session):
        assert client.get("/api/v1/disputes/").status_code == 200
        assert client.get("/api/v1/auth/tokens/").status_code == 200


def test_a_read_only_token_reads_but_does_not_play(staff):
    client = bearer(scoped_token(staff, "matches:read"))

    assert client.get("/api/v1/matches/").status_code == 200
    refused = client.post("/api/v1/matches/", {}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "insufficient_scope"


def test_an_expired_token_is_not_a_token(staff):
    from datetime import timedelta

    from django.utils import timezone
    from oauth2_provider.models import AccessToken

    raw = scoped_token(staff, " ".join(SCOPES))
    AccessToken.objects.update(expires=timezone.now() - timedelta(seconds=1))

    assert bearer(raw).get("/api/v1/matches/").status_code == 401


def test_the_schema_declares_each_operations_scope(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    flows = schema["components"]["securitySchemes"]["oauth2"]["flows"]["authorizationCode"]
    assert set(flows["scopes"]) == set(SCOPES)
    assert "tokenAuth" in schema["components"]["securitySchemes"]

    plays = schema["paths"]["/api/v1/matches/{id}/plays/"]["post"]["security"]
    assert {"oauth2": ["matches:play"]} in plays and {"tokenAuth": []} in plays
    ruling = schema["paths"]["/api/v1/disputes/{id}/ruling/"]["post"]["security"]
    assert {"oauth2": ["arbiter"]} in ruling


@pytest.mark.django_db(transaction=True)  # the stream reads the database from a worker thread
def test_an_event_stream_asks_matches_read_of_a_bearer_token(django_user_model):
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    user = django_user_model.objects.create_user("czytelnik", password="a-long-pass-phrase")
    token = scoped_token(user, "matches:play club:admin")

    answer = async_to_sync(AsyncClient().get)("/api/v1/me/stream/", headers={"Authorization": f"Bearer {token}"})

    assert answer.status_code == 403
    assert answer.json()["code"] == "insufficient_scope" and "matches:read" in answer.json()["detail"]
