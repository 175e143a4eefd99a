"""``GET /api/v1/seasons/{id}/records/``: the season's matches streamed as NDJSON ``kierki-match/1``
records, each line what ``GET /matches/{id}/record/`` gives a player of that match."""

import json
import random

import pytest
from api_helpers import fresh_users
from django.contrib.auth import get_user_model
from django.test import TestCase
from support import api_client as client
from support.once import fresh, once_per_module

from games.engine import Ruleset
from games.engine.simulate import simulate_match
from scoring import services

pytestmark = pytest.mark.django_db

MEMBERS = ("p1", "p2", "p3", "p4", "p5")


def record(seed: int, names) -> dict:
    return simulate_match(random.Random(seed), players=dict(zip("NESW", names)), ruleset=Ruleset.from_options({}))


def build_season():
    """Club ``kk`` (admin ``ada``, scorer ``sam``, members p1–p5), an open season with two finished
    imported matches; ``outsider`` belongs to no club, ``staff`` is staff."""
    make = get_user_model().objects.create_user
    users = {name: make(name) for name in ("ada", "sam", *MEMBERS, "outsider")}
    users["staff"] = make("staff", is_staff=True)
    club = services.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    services.membership_set(actor=users["ada"], club_id=club.pk, username="sam", role="scorer")
    for name in MEMBERS:
        services.membership_set(actor=users["ada"], club_id=club.pk, username=name)
    league = services.league_create(actor=users["ada"], club_id=club.pk, name="Liga")
    season = services.season_create(actor=users["ada"], league_id=league.pk, name="2026")
    with TestCase.captureOnCommitCallbacks(execute=True):
        matches = [
            services.season_record_import(actor=users["sam"], season_id=season.pk, record=record(seed, names.split()))
            for seed, names in ((41, "p1 p2 p3 p4"), (42, "p2 p3 p4 p5"))
        ]
    return users, season, matches


built = once_per_module(build_season)  # every test reads that season: built once (support.once)


@pytest.fixture
def season_world(built):
    users, season, matches = built
    return fresh_users(users), fresh(season), [fresh(match) for match in matches]


def export(user, season_id):
    return client(user).get(f"/api/v1/seasons/{season_id}/records/")


def test_the_export_is_one_record_per_line_each_equal_to_the_matchs_record(season_world):
    users, season, matches = season_world

    response = export(users["p1"], season.pk)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    assert response.streaming
    body = b"".join(response.streaming_content).decode()
    assert body.endswith("\n")
    lines = [json.loads(line) for line in body.splitlines()]
    assert len(lines) == 2
    for line, match in zip(lines, matches):
        assert line["format"] == "kierki-match/1"
        player = users[match.north.username]
        assert line == {"match": str(match.pk), **client(player).get(f"/api/v1/matches/{match.pk}/record/").json()}
    assert [len(line["deals"]) for line in lines] == [len(record(seed, MEMBERS[:4])["deals"]) for seed in (41, 42)]


def test_club_members_and_staff_may_export(season_world):
    users, season, _ = season_world
    for who in ("ada", "sam", "p5", "staff"):
        response = export(users[who], season.pk)
        assert response.status_code == 200, who
        assert len(b"".join(response.streaming_content).splitlines()) == 2


def test_an_outsider_and_an_unknown_season_are_not_found_the_anonymous_unauthenticated(season_world):
    users, season, _ = season_world

    assert export(users["outsider"], season.pk).status_code == 404
    assert export(users["p1"], 999999).status_code == 404
    assert export(None, season.pk).status_code == 401
    assert export(users["outsider"], season.pk)["Content-Type"] == "application/problem+json"


def test_an_empty_season_streams_nothing(season_world, django_user_model):
    users, season, _ = season_world
    empty = services.season_create(actor=users["ada"], league_id=season.league_id, name="empty")

    response = export(users["p1"], empty.pk)

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b""


def test_under_asgi_the_export_is_sent_as_it_is_made_and_reads_as_under_wsgi(season_world):
    """``make run`` serves the ASGI app: there Django reads a synchronous stream whole before the
    first byte (with a warning); the export is an asynchronous one, line by line."""
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    async def body_of(response) -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    users, season, _ = season_world
    asgi = AsyncClient()
    asgi.force_login(users["p1"])

    response = async_to_sync(asgi.get)(f"/api/v1/seasons/{season.pk}/records/")

    assert response.status_code == 200 and response.is_async
    lines = async_to_sync(body_of)(response).splitlines()
    assert lines == b"".join(export(users["p1"], season.pk).streaming_content).splitlines()
    assert len(lines) == 2


def test_an_ndjson_accept_header_is_honoured(season_world):
    users, season, _ = season_world

    response = client(users["p1"]).get(f"/api/v1/seasons/{season.pk}/records/", HTTP_ACCEPT="application/x-ndjson")

    assert response.status_code == 200
    assert len(b"".join(response.streaming_content).splitlines()) == 2


def test_an_error_asked_for_as_ndjson_is_still_problem_json(season_world):
    users, season, _ = season_world

    response = client(users["outsider"]).get(
        f"/api/v1/seasons/{season.pk}/records/", HTTP_ACCEPT="application/x-ndjson"
    )

    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "not_found"


def test_the_standings_have_a_csv_operation_of_their_own_for_generated_clients(season_world):
    users, season, _ = season_world

    response = client(users["outsider"]).get(f"/api/v1/seasons/{season.pk}/standings/csv/")

    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    header, *rows = response.content.decode().splitlines()
    assert header.startswith("position,player,") and len(rows) == 5
    missing = client(users["outsider"]).get("/api/v1/seasons/999999/standings/csv/")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/problem+json"


def test_the_records_export_is_also_served_as_bytes_for_generated_clients(season_world):
    users, season, _ = season_world

    response = client(users["p1"]).get(f"/api/v1/seasons/{season.pk}/records/", HTTP_ACCEPT="application/octet-stream")

    assert response.status_code == 200 and response["Content-Type"] == "application/octet-stream"
    assert len(b"".join(response.streaming_content).splitlines()) == 2
