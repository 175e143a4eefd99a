"""``/api/v2/`` (issue 29, item 3; docs/api.md, "v2"): the same resources as v1, every list one
cursor page ``{"next", "previous", "results"}`` read by following ``next``, events' times with
``Z``, v2's links in v2 and v1's in v1 — and v1 answering as before, naming its v2 twin."""

import base64
import datetime
import json

import jsonschema
import pytest
from api_helpers import create_match, post, state
from rest_framework.test import APIClient
from support import SEATS
from support.world import build_world, season_match

from api.pagination import DEFAULT_LIMIT, MAX_LIMIT
from games.domain.chain import verify_chain

pytestmark = pytest.mark.django_db

SHAPE = {"next", "previous", "results"}


@pytest.fixture
def world(django_user_model, settings):
    """Club ``kk`` (build_world) and a second club, two matches of its season (the first dealt), an
    evening with two rounds seated, the season closed and reopened (two history lines), two
    webhooks, the first with three deliveries; read by ``staff``."""
    from scoring import evening_services
    from scoring import services as leagues
    from webhooks import services as webhooks
    from webhooks.models import Delivery

    world = build_world(django_user_model, members=("edek", "franek", "gosia", "henio"))
    ada = world.users["ada"]
    leagues.club_create(actor=world.users["staff"], name="Drugi Klub", slug="dk")
    world.matches = [season_match(world, dealing="server"), season_match(world, ("edek", "franek", "gosia", "henio"))]
    ala = APIClient()
    ala.force_authenticate(world.users["ala"])
    dealt = ala.post(f"/api/v2/matches/{world.matches[0].pk}/deals/", {}, format="json")
    assert dealt.status_code == 201, dealt.content
    evening = evening_services.evening_create(
        actor=ada,
        season_id=world.season.pk,
        date=datetime.date(2026, 10, 1),
        rounds=2,
        players=("ala", "bartek", "celina", "darek", "edek", "franek", "gosia", "henio"),
        seed=1,
    )
    evening_services.evening_round_seat(actor=ada, evening_id=evening.pk)
    evening_services.evening_round_seat(actor=ada, evening_id=evening.pk)
    world.evening = evening
    leagues.season_close(actor=ada, season_id=world.season.pk, reason="koniec")
    leagues.season_reopen(actor=world.users["staff"], season_id=world.season.pk, reason="pomyłka")
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # nothing is sent: the deliveries are written below
    world.hooks = [
        webhooks.endpoint_create(
            actor=ada, club_id=world.club.pk, url=f"http://127.0.0.1:9/{n}", event_types=["match.finished"]
        )
        for n in range(2)
    ]
    now = world.hooks[0].created_at
    for _ in range(3):  # the same time: the key's primary key tells them apart
        Delivery.objects.create(
            endpoint=world.hooks[0],
            event_type="ping",
            payload={},
            status="failed",
            next_attempt_at=now,
            retry_until=now,
            created_at=now,
        )
    return world


@pytest.fixture
def staff(world):
    client = APIClient()
    client.force_authenticate(world.users["staff"])
    return client


def list_paths(document) -> dict[str, dict]:
    """The GET operations of the v2 schema that answer a list: path → operation."""
    found = {}
    for path, item in document["paths"].items():
        operation = item.get("get")
        answer = (operation or {}).get("responses", {}).get("200", {}).get("content", {}).get("application/json")
        if answer is None:
            continue
        schema = answer["schema"]
        if "$ref" in schema:
            schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        if set(schema.get("properties", {})) >= SHAPE or schema.get("type") == "array":
            found[path] = operation
    return found


def concrete(path: str, world) -> str:
    """``path`` with the world's ids; an id it has none for stays ``{id}``."""
    ids = {
        "clubs": world.club.pk,
        "evenings": world.evening.pk,
        "matches": world.matches[0].pk,
        "seasons": world.season.pk,
        "webhooks": world.hooks[0].pk,
    }
    parts = path.split("/")
    for i, part in enumerate(parts):
        if part == "{id}" and parts[i - 1] in ids:
            parts[i] = str(ids[parts[i - 1]])
    return "/".join(parts)


def answers_its_schema(document: dict, operation: dict, body) -> bool:
    """JSON Schema 2020-12 (OpenAPI 3.1's dialect) validation of a 200 answer of ``operation``."""
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    return jsonschema.Draft202012Validator({**document, **schema}).is_valid(body)


def read_by_next(client, path: str, limit: int) -> tuple[list, list]:
    """Every result reached by following ``next`` from the first page, and the pages' answers."""
    results, pages, link = [], [], path + f"?limit={limit}"
    while link is not None:
        response = client.get(link)
        assert response.status_code == 200, (link, response.content[:300])
        body = response.json()
        assert set(body) == SHAPE, link
        pages.append(body)
        results += body["results"]
        link = body["next"]
        assert len(pages) < 100, f"{path}: next never ends"
    return results, pages


def test_the_committed_v2_schema_has_no_list_outside_the_shape(committed_openapi_v2):
    for path, operation in list_paths(committed_openapi_v2).items():
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
        component = committed_openapi_v2["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        assert set(component["required"]) == SHAPE and component["properties"]["results"]["type"] == "array", path
        assert operation["operationId"].endswith("_list"), path
        assert "page" not in {p["name"] for p in operation.get("parameters", [])}, path


def test_every_v2_list_answers_the_shape_and_next_reaches_every_result_once(staff, world, committed_openapi_v2):
    lists = list_paths(committed_openapi_v2)
    walked_more_than_one_page = []

    for path in lists:
        url = concrete(path, world)
        if "{" in url:
            continue
        everything, _ = read_by_next(staff, url, MAX_LIMIT)
        one_by_one, pages = read_by_next(staff, url, 1)

        assert one_by_one == everything, f"{url}: a duplicate or a gap following next"
        assert answers_its_schema(committed_openapi_v2, lists[path], pages[0]), f"{url}: not as its schema says"
        if len(pages) > 1:
            walked_more_than_one_page.append(path)
            assert pages[0]["previous"] is None and pages[-1]["next"] is None
            back = staff.get(pages[-1]["previous"]).json()
            assert back["results"] == pages[-2]["results"], f"{url}: previous is not the page before"

    assert len(lists) == 19
    assert {
        "/api/v2/clubs/",
        "/api/v2/clubs/{id}/members/",
        "/api/v2/clubs/{id}/players/",
        "/api/v2/clubs/{id}/webhooks/",
        "/api/v2/evenings/{id}/rounds/",
        "/api/v2/matches/",
        "/api/v2/matches/{id}/events/",
        "/api/v2/problems/",
        "/api/v2/seasons/{id}/history/",
        "/api/v2/webhooks/{id}/deliveries/",
    } <= set(walked_more_than_one_page)


def cursor(position) -> str:
    return base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")


FORGED = [  # positions no list gave: of another shape, or keys of types their fields refuse
    [1],
    {"key": 3},
    {"key": ["x", "y"]},
    {"key": [None, None]},
    {"key": [[], {}]},
    {"key": ["2026-01-01", 10**30], "back": True},
    {"at": -1},
    {"at": True},
]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": MAX_LIMIT + 1}, "limit"),
        ({"cursor": "x"}, "cursor"),
        *(({"cursor": cursor(position)}, "cursor") for position in FORGED),
    ],
)
def test_a_bad_limit_or_a_forged_cursor_is_refused_by_name_on_every_list(
    staff, world, committed_openapi_v2, query, field
):
    paths = [concrete(path, world) for path in list_paths(committed_openapi_v2) if not path.endswith("/events/")]

    for path in paths:
        response = staff.get(path, query)
        assert (response.status_code, response.json().get("field")) == (400, field), path


def test_without_a_limit_a_v2_page_holds_the_default(staff):
    assert len(staff.get("/api/v2/problems/").json()["results"]) == DEFAULT_LIMIT


def test_a_v2_client_verifies_the_hash_chain_from_v2_events_whose_times_end_in_z(clients):
    from support import sample

    match_id = clients["scorer"].post("/api/v2/matches/import/", sample("m7-legal"), format="json").json()["id"]
    events, _ = read_by_next(clients["scorer"], f"/api/v2/matches/{match_id}/events/", 7)

    assert all(event["created_at"].endswith("Z") for event in events)
    hashed_text = [event["created_at"].removesuffix("Z") + "+00:00" for event in events]  # docs/api.md, "v2"
    bodies = [
        (
            {
                "actor": e["actor"],
                "created_at": text,
                "match": match_id,
                "payload": e["payload"],
                "seq": e["seq"],
                "type": e["type"],
            },
            e["hash"],
        )
        for e, text in zip(events, hashed_text)
    ]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)) and verify_chain(bodies).ok
    v1 = clients["scorer"].get(f"/api/v1/matches/{match_id}/events/").json()["events"]
    assert [e["created_at"] for e in v1] == hashed_text  # v1 shows the stored text, as before


def test_a_card_played_through_v2_answers_its_events_with_z_and_v1_as_stored(clients, dealt_match):
    on_turn = clients["bartek"]  # E leads the first deal
    card = state(on_turn, dealt_match)["deal"]["legal_cards"][0]

    played = on_turn.post(f"/api/v2/matches/{dealt_match}/plays/", {"card": card}, format="json")

    assert played.status_code == 201, played.content
    assert [e["created_at"][-1] for e in played.json()["events"]] == ["Z"] * len(played.json()["events"])
    after = post(
        clients["celina"],
        dealt_match,
        "plays",
        {"card": state(clients["celina"], dealt_match)["deal"]["legal_cards"][0]},
    )
    assert all(e["created_at"].endswith("+00:00") for e in after.json()["events"])


def test_links_are_built_in_the_requests_version(clients):
    body = {"seats": dict(zip(SEATS, ["ala", "bartek", "celina", "darek"])), "first_dealer": "N", "dealing": "recorded"}

    v2 = clients["scorer"].post("/api/v2/matches/", body, format="json")
    v1 = create_match(clients["scorer"], "recorded")
    root = clients["scorer"].get("/api/v2/").json()

    assert v2["Location"] == f"http://testserver/api/v2/matches/{v2.json()['id']}/"
    assert v1["Location"] == f"http://testserver/api/v1/matches/{v1.json()['id']}/"
    assert all("/api/v2/" in link for link in root.values()), root


def test_a_v1_answer_names_its_v2_twin_and_v2_names_none(clients, server_match):
    v1 = clients["ala"].get(f"/api/v1/matches/{server_match}/")
    pdf = clients["ala"].get("/api/v1/seasons/999999/standings.pdf")
    v2 = clients["ala"].get(f"/api/v2/matches/{server_match}/")

    assert v1["Link"] == f'<http://testserver/api/v2/matches/{server_match}/>; rel="successor-version"'
    assert pdf["Link"] == '<http://testserver/api/v2/seasons/999999/standings/pdf/>; rel="successor-version"'
    assert "Deprecation" not in v1 and "Sunset" not in v1
    assert "Link" not in v2 and v2.json() == v1.json()


def test_the_v2_schema_is_served_and_is_the_committed_openapi_v2_yaml(client_for, committed_openapi_v2):
    from support.fixtures import load_yaml

    served = client_for(None).get("/api/v2/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")

    assert served.status_code == 200
    assert load_yaml(served.content.decode())["paths"].keys() == committed_openapi_v2["paths"].keys()
    assert all(path.startswith("/api/v2/") for path in committed_openapi_v2["paths"])


def test_a_row_added_before_the_cursor_while_paging_repeats_nothing(staff, world):
    from scoring import services as leagues

    first = staff.get("/api/v2/clubs/", {"limit": 1}).json()  # by name: "Drugi Klub", then "Klub Kierkowy"
    leagues.club_create(actor=world.users["staff"], name="Alfa", slug="alfa")  # sorts before the cursor
    second = staff.get(first["next"]).json()

    assert [c["name"] for c in first["results"] + second["results"]] == ["Drugi Klub", "Klub Kierkowy"]
    assert second["next"] is None
    assert [c["name"] for c in staff.get(second["previous"]).json()["results"]] == ["Drugi Klub"]


def test_a_problems_type_is_a_link_in_the_requests_version(staff):
    v2 = staff.get("/api/v2/clubs/", {"limit": 0}).json()
    v1 = staff.get("/api/v1/clubs/", {"limit": 0}).json()
    nowhere = staff.get("/api/v2/no-such-thing/").json()
    listed_in_v2 = staff.get("/api/v2/problems/", {"limit": MAX_LIMIT}).json()["results"]

    assert (v2["type"], v1["type"]) == ("/api/v2/problems/invalid/", "/api/v1/problems/invalid/")
    assert nowhere["type"] == "/api/v2/problems/not_found/"
    assert all(problem["type"] == f"/api/v2/problems/{problem['code']}/" for problem in listed_in_v2)
    assert staff.get(v2["type"]).json()["code"] == "invalid"


def test_matches_created_at_one_time_are_paged_forward_and_back_each_once_in_order(staff, world):
    """The match list's key is its creation time, then its id: four matches of one instant and
    two of the next are cut in pages of two; ``next`` then ``previous`` walks them in order."""
    from games.models import Match

    extra = [season_match(world) for _ in range(6)]
    instant = datetime.datetime(2026, 11, 1, 20, 0, tzinfo=datetime.UTC)
    for n, match in enumerate(extra):
        Match.objects.filter(pk=match.pk).update(created_at=instant + datetime.timedelta(seconds=n // 4))
    expected = [str(m.pk) for m in Match.objects.order_by("-created_at", "-id")]

    forward, pages = read_by_next(staff, "/api/v2/matches/", 2)
    backward, link = [], pages[-1]["previous"]
    while link is not None:
        page = staff.get(link).json()
        backward[:0] = page["results"]
        link = page["previous"]

    assert [m["id"] for m in forward] == expected
    assert [m["id"] for m in backward + pages[-1]["results"]] == expected
