"""Every integer query filter of a list answers 400 naming the parameter for a value no id can be
(out of a bigint), never a 500 (SQLite's OverflowError: ``GET /seasons/?club=-2044681095800474828800``,
a fuzz finding); path ids out of range are 404 (issue 29, item 3)."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

HUGE = ["-2044681095800474828800", "99999999999999999999999"]


def id_filters(document) -> list[tuple[str, str]]:
    """(path, parameter) for each numeric query parameter of each list (``GET`` without a path id)."""
    found = []
    for path, operations in document["paths"].items():
        operation = operations.get("get")
        if operation is None or "{" in path or "text/event-stream" in str(operation.get("responses", {}).get("200")):
            continue  # not a list: a resource, or a stream (its ``after`` is a resume point)
        for parameter in operation.get("parameters", []):
            kinds = parameter.get("schema", {}).get("type")
            kinds = set(kinds) if isinstance(kinds, list) else {kinds}
            if parameter["in"] == "query" and kinds & {"integer", "number"} and parameter["name"] not in ("page",):
                found.append((path, parameter["name"]))
    return found


@pytest.fixture
def client(django_user_model):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("ula", is_staff=True))
    return client


def test_the_schema_has_id_filters_to_check(committed_openapi):
    found = set(id_filters(committed_openapi))

    assert {("/api/v1/seasons/", "club"), ("/api/v1/evenings/", "club"), ("/api/v1/disputes/", "club")} <= found


@pytest.mark.parametrize("value", HUGE)
def test_every_numeric_list_filter_refuses_a_value_out_of_range_by_name(client, committed_openapi, value):
    answers = {}
    for path, name in id_filters(committed_openapi):
        response = client.get(path, {name: value})
        answers[(path, name)] = (response.status_code, response.json().get("code"), response.json().get("field"))

    assert {key: answer for key, answer in answers.items() if answer != (400, "invalid", key[1])} == {}


@pytest.mark.parametrize("path", ["/api/v1/seasons/{}/", "/api/v1/clubs/{}/", "/api/v1/evenings/{}/"])
def test_a_path_id_out_of_range_is_not_found(client, path):
    response = client.get(path.format(HUGE[1]))

    assert response.status_code == 404 and response.json()["code"] == "not_found"
