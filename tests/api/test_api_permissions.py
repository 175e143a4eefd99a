"""Who may do what: player / other player / scorer / staff / anonymous × every endpoint.

"player" is the seated player the action concerns (the one on turn for a play, the lead
holder for the decision, a would-be buyer for an offer); "other" sits in another match only.
Outsiders get 404 for a match's endpoints: its existence is not revealed.
"""

import pytest
from api_helpers import (
    api_people,
    deal,
    fresh_users,
    new_server_match,
    once_per_class,
    sample,
    seats_accepted,
    state,
    url,
)
from django.contrib.auth import get_user_model
from support import api_client
from support.once import once_per_module

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


ROLES = ("player", "other", "scorer", "staff", "anonymous")
READ = {"player": 200, "other": 404, "scorer": 200, "staff": 200, "anonymous": 401}
ACT = {"player": 201, "other": 404, "scorer": 201, "staff": 403, "anonymous": 401}
EXPECTED = {
    "list": {"player": 200, "other": 200, "scorer": 200, "staff": 200, "anonymous": 401},
    "create": {"player": 201, "other": 201, "scorer": 201, "staff": 201, "anonymous": 401},
    "retrieve": READ,
    "state": READ,
    "events": READ,
    "record": READ,
    "deals": ACT,
    "plays": ACT,
    "lead-offers": ACT,
    "lead-decision": ACT,
    "import": {"player": 403, "other": 403, "scorer": 201, "staff": 201, "anonymous": 401},
}


def new_sale_match(scorer) -> str:
    """A recorded match of m1-legal's players (users p1-N…) in its deal 3: N's compensating
    odgrywka, dealt, no offer yet. Scored by ``scorer`` (a client)."""
    record = sample("m1-legal")
    for name in record["players"].values():
        get_user_model().objects.create_user(name)
    third = dict(record["deals"][2], plays=[])
    third.pop("sale")
    record["deals"] = record["deals"][:2] + [third]
    response = scorer.post("/api/v1/matches/import/", record, format="json")
    assert response.status_code == 201
    return response.json()["id"]


def matrix_matches(users) -> dict:
    """The matrix's matches, by the conftest's fixture names: ``server_match`` (no deal yet),
    ``dealt_match`` (another, its first deal dealt), ``sale_match``. The users are read again:
    what a build caches on them (``user.player``) must not outlive its rows."""
    clients = {name: api_client(user) for name, user in fresh_users(users).items()}
    dealt_match = deal(clients, new_server_match(clients))
    seats_accepted(dealt_match)  # the scorer plays for a seat its user accepted (issue 30)
    return {
        "server_match": new_server_match(clients),
        "dealt_match": dealt_match,
        "sale_match": new_sale_match(clients["scorer"]),
    }


matrix = once_per_class(matrix_matches)


def _request(endpoint: str, request, matrix):
    """(method, path, body, the username acting as "player")."""
    if endpoint == "list":
        return "get", "/api/v1/matches/", None, "ala"
    if endpoint == "create":
        return (
            "post",
            "/api/v1/matches/",
            {"seats": {"N": "o1", "E": "o2", "S": "o3", "W": "ala"}, "first_dealer": "S"},
            "ala",
        )
    if endpoint == "import":
        return "post", "/api/v1/matches/import/", sample("m3-legal"), "ala"
    if endpoint in ("retrieve", "state", "events", "record"):
        match_id = matrix["dealt_match"]
        return "get", url(match_id, "" if endpoint == "retrieve" else endpoint), None, "celina"
    if endpoint == "deals":
        return "post", url(matrix["server_match"], "deals"), {}, "darek"
    if endpoint == "plays":
        match_id = matrix["dealt_match"]
        card = state(request.getfixturevalue("clients")["scorer"], match_id)["deal"]["legal_cards"][0]
        return "post", url(match_id, "plays"), {"card": card}, "bartek"  # E leads the first trick
    match_id = matrix["sale_match"]
    if endpoint == "lead-offers":
        return "post", url(match_id, "lead-offers"), {"price": 2, "seat": "W"}, "p1-W"
    return "post", url(match_id, "lead-decision"), {"keep": True}, "p1-N"  # N holds the lead


class TestThePermissionMatrix:
    """Role × endpoint, over matches made once for the matrix (once_per_class)."""

    @pytest.mark.parametrize("role", ROLES)
    @pytest.mark.parametrize("endpoint", list(EXPECTED))
    def test_the_permission_matrix(self, endpoint, role, request, matrix, client_for, django_user_model):
        method, path, body, player = _request(endpoint, request, matrix)
        actor = {"player": player, "other": "outsider", "scorer": "scorer", "staff": "staff"}.get(role)
        client = client_for(django_user_model.objects.get(username=actor) if actor else None)

        response = getattr(client, method)(path, body, format="json") if method == "post" else client.get(path)

        assert response.status_code == EXPECTED[endpoint][role], response.content
        if response.status_code >= 400:
            assert response["Content-Type"] == "application/problem+json"


def test_a_player_may_not_act_for_another_seat(dealt_match, clients):
    card = state(clients["scorer"], dealt_match)["deal"]["legal_cards"][0]

    response = clients["ala"].post(url(dealt_match, "plays"), {"card": card, "seat": "E"}, format="json")

    assert response.status_code == 403 and response.json()["code"] == "not_allowed"


def test_the_list_shows_each_user_only_the_matches_he_may_read(server_match, clients):
    def ids(who, **query):
        return {m["id"] for m in clients[who].get("/api/v1/matches/", query).json()["results"]}

    assert server_match in ids("ala") and server_match in ids("scorer") and server_match in ids("staff")
    assert server_match not in ids("outsider") and len(ids("outsider")) == 1
    assert ids("staff", player="outsider") == ids("outsider")
    assert server_match in ids("staff", status="in_progress") and not ids("staff", status="finished")
    assert clients["staff"].get("/api/v1/matches/", {"status": "nonsense"}).status_code == 400


def test_only_staff_may_appoint_someone_else_as_scorer(users, clients):
    body = {"seats": {"N": "o1", "E": "o2", "S": "o3", "W": "ala"}, "first_dealer": "N", "scorer": "bartek"}

    assert clients["ala"].post("/api/v1/matches/", body, format="json").status_code == 403
    assert clients["staff"].post("/api/v1/matches/", body, format="json").status_code == 201
    seated = dict(body, scorer="ala")
    response = clients["ala"].post("/api/v1/matches/", seated, format="json")
    assert response.status_code == 400 and response.json()["field"] == "scorer"
