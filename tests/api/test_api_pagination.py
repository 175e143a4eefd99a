"""One pagination for the paginated lists (issue 29, item 3; api/pagination.py): every list
operation of the schema answers ``{"count", "next", "previous", "results"}``, takes ``?limit=``
(1 to 200, default 50) and refuses any other limit with 400 naming ``limit`` — where ``?limit=``
was silently ignored. The lists that answer a bare array in v1 1.0.0 stay so (held back: wrapping
them would break v1 clients); the test names them so that no new one joins them unnoticed."""

import pytest
from rest_framework.test import APIClient

from api.pagination import DEFAULT_LIMIT, MAX_LIMIT

pytestmark = pytest.mark.django_db

# v1 1.0.0 answered these with a bare array; docs/api.md ("Lists") says so.
BARE_ARRAYS_HELD_BACK = {
    "/api/v1/auth/tokens/",
    "/api/v1/clubs/{id}/members/",
    "/api/v1/clubs/{id}/players/",
    "/api/v1/clubs/{id}/webhooks/",
    "/api/v1/evenings/{id}/rounds/",
    "/api/v1/invitations/",
    "/api/v1/matches/{id}/disputes/",
    "/api/v1/problems/",
    "/api/v1/seasons/{id}/history/",
    "/api/v1/seat-invitations/",
}
SHAPE = {"count", "next", "previous", "results"}


def answer_schema(document, operation) -> dict:
    schema = operation["responses"].get("200", {}).get("content", {}).get("application/json", {}).get("schema", {})
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def lists(document) -> tuple[list[str], set[str]]:
    """(the paginated list paths, the paths answering a bare array)."""
    paginated, bare = [], set()
    for path, operations in document["paths"].items():
        operation = operations.get("get")
        if operation is None:
            continue
        schema = answer_schema(document, operation)
        if schema.get("type") == "array":
            bare.add(path)
        elif set(schema.get("properties", {})) >= SHAPE:
            paginated.append(path)
    return paginated, bare


@pytest.fixture
def client(django_user_model):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("ula", is_staff=True))
    return client


def test_every_list_is_paginated_alike_or_held_back_by_name(committed_openapi):
    paginated, bare = lists(committed_openapi)

    assert bare == BARE_ARRAYS_HELD_BACK
    assert {"/api/v1/clubs/", "/api/v1/matches/", "/api/v1/seasons/", "/api/v1/disputes/"} <= set(paginated)
    for path in paginated:
        schema = answer_schema(committed_openapi, committed_openapi["paths"][path]["get"])
        assert set(schema.get("required", SHAPE)) >= {"count", "results"}, path


def test_every_paginated_list_answers_the_shape_and_honours_limit(client, committed_openapi, django_user_model):
    from scoring import services as scoring

    for slug in ("a", "b"):  # two clubs: a page of one has a next
        scoring.club_create(actor=django_user_model.objects.get(username="ula"), name=f"Klub {slug}", slug=slug)
    paginated, _ = lists(committed_openapi)

    for path in [p for p in paginated if "{" not in p]:
        body = client.get(path, {"limit": 1}).json()
        assert set(body) >= SHAPE and len(body["results"]) <= 1, path

    two_clubs = client.get("/api/v1/clubs/", {"limit": 1}).json()
    assert two_clubs["count"] == 2 and "limit=1" in two_clubs["next"] and "page=2" in two_clubs["next"]
    assert client.get(two_clubs["next"]).json()["next"] is None


@pytest.mark.parametrize("limit", ["0", str(MAX_LIMIT + 1), "x", "-1", "1.5", "٣", "9" * 5000])
def test_a_limit_out_of_range_is_refused_by_name_on_every_paginated_list(client, committed_openapi, limit):
    paginated, _ = lists(committed_openapi)

    for path in [p for p in paginated if "{" not in p]:
        response = client.get(path, {"limit": limit})
        assert (response.status_code, response.json().get("field")) == (400, "limit"), path


def test_without_a_limit_a_page_holds_the_v1_default(client):
    assert DEFAULT_LIMIT == 50
    assert client.get("/api/v1/clubs/").json()["next"] is None  # fewer than 50: one page
