"""The league endpoints: clubs, members, leagues, seasons, standings (JSON and CSV), players."""

import csv
import io

import pytest
from scoring_helpers import record, world_and_three_filed
from support import api_client as client

from scoring import services
from scoring.models import Invitation, League, Membership, Season, SeasonMatch

pytestmark = pytest.mark.django_db

# The keys of a standings row, as the issue lists them.
ROW_KEYS = set(
    "position player ranked matches wins placements deals balance balance_per_match best_match worst_match"
    " kreski max_deals zero_odgrywki rating provisional last_played".split()
)


# the world once per module, three filed matches once per class (support.once)
built, built_filed, world, filed = world_and_three_filed((31, 32, 33))


# --- clubs and members -------------------------------------------------------------------------------


def test_anyone_signed_in_founds_a_club_and_becomes_its_admin(django_user_model):
    founder = django_user_model.objects.create_user("founder")

    response = client(founder).post("/api/v1/clubs/", {"name": "Trefl", "slug": "trefl"}, format="json")

    assert response.status_code == 201
    assert response.json()["slug"] == "trefl"
    assert Membership.objects.get(club_id=response.json()["id"], user=founder).role == "admin"


def test_the_anonymous_read_and_write_nothing(world):
    assert client().get("/api/v1/clubs/").status_code == 401
    assert client().post("/api/v1/clubs/", {"name": "x", "slug": "x"}, format="json").status_code == 401
    assert client().get(f"/api/v1/seasons/{world.season.pk}/standings/").status_code == 401


def test_a_duplicate_slug_is_a_problem(world):
    response = client(world.users["p1"]).post("/api/v1/clubs/", {"name": "Dup", "slug": "kk"}, format="json")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["field"] == "slug"


@pytest.mark.parametrize("who, status", [("ada", 202), ("sam", 403), ("p1", 403), ("outsider", 403)])
def test_only_a_club_admin_invites_members_and_nobody_joins_before_accepting(world, who, status):
    response = client(world.users[who]).post(
        f"/api/v1/clubs/{world.club.pk}/members/", {"user": "outsider", "role": "scorer"}, format="json"
    )

    assert response.status_code == status
    assert not Membership.objects.filter(user=world.users["outsider"]).exists()  # issue 30: he accepts first
    assert Invitation.objects.filter(user=world.users["outsider"], role="scorer").exists() == (status == 202)


@pytest.mark.parametrize("who, status", [("ada", 200), ("sam", 403), ("p1", 403), ("outsider", 403)])
def test_only_a_club_admin_changes_a_role(world, who, status):
    response = client(world.users[who]).patch(
        f"/api/v1/clubs/{world.club.pk}/members/p1/", {"role": "arbiter"}, format="json"
    )

    assert response.status_code == status
    assert Membership.objects.get(user=world.users["p1"]).role == ("arbiter" if status == 200 else "member")


@pytest.mark.parametrize("who, status", [("ada", 204), ("sam", 403), ("p1", 403), ("outsider", 403)])
def test_only_a_club_admin_removes_a_member(world, who, status):
    response = client(world.users[who]).delete(f"/api/v1/clubs/{world.club.pk}/members/p2/")

    assert response.status_code == status
    assert Membership.objects.filter(user=world.users["p2"]).exists() == (status != 204)


def test_the_last_admin_cannot_leave(world):
    response = client(world.users["ada"]).delete(f"/api/v1/clubs/{world.club.pk}/members/ada/")

    assert response.status_code == 409
    assert response.json()["code"] == "last_admin"


def test_members_are_listed_with_their_roles(world):
    response = client(world.users["outsider"]).get(f"/api/v1/clubs/{world.club.pk}/members/")

    assert response.status_code == 200
    assert {m["user"]: m["role"] for m in response.json()}["sam"] == "scorer"


@pytest.mark.parametrize("who, status", [("ada", 200), ("sam", 403), ("outsider", 403)])
def test_only_a_club_admin_renames_the_club(world, who, status):
    response = client(world.users[who]).patch(f"/api/v1/clubs/{world.club.pk}/", {"name": "Nowa"}, format="json")

    assert response.status_code == status


# --- leagues and seasons ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who, status", [("ada", 201), ("sam", 403), ("p1", 403), ("outsider", 403)])
def test_only_a_club_admin_creates_a_league(world, who, status):
    response = client(world.users[who]).post(
        "/api/v1/leagues/",
        {"club": world.club.pk, "name": "Czwartkowa", "ruleset": {"options": {"last_tricks": [7, 13]}}},
        format="json",
    )

    assert response.status_code == status
    if status == 201:
        assert response.json()["ruleset"] == {
            "name": "rozbojnik-odgrywka",
            "version": 1,
            "options": {"last_tricks": [7, 13]},
        }


def test_a_bad_ruleset_option_names_the_field(world):
    response = client(world.users["ada"]).post(
        "/api/v1/leagues/",
        {"club": world.club.pk, "name": "Zła", "ruleset": {"options": {"heart_discard": "sideways"}}},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["field"] == "ruleset.heart_discard"


def test_a_league_in_an_unknown_club_is_not_found(world):
    response = client(world.users["ada"]).post("/api/v1/leagues/", {"club": 999, "name": "x"}, format="json")

    assert response.status_code == 404


@pytest.mark.parametrize("who, status", [("ada", 201), ("sam", 403), ("p1", 403), ("outsider", 403)])
def test_only_a_club_admin_creates_a_season(world, who, status):
    response = client(world.users[who]).post(
        "/api/v1/seasons/", {"league": world.league.pk, "name": "Wiosna", "min_matches": 3}, format="json"
    )

    assert response.status_code == status
    if status == 201:
        assert response.json() | {"id": None, "created_at": None} == {
            "id": None,
            "league": world.league.pk,
            "club": world.club.pk,
            "name": "Wiosna",
            "start_date": None,
            "end_date": None,
            "status": "open",
            "min_matches": 3,
            "computed_at": None,
            "created_at": None,
        }


@pytest.mark.parametrize("who, status", [("ada", 200), ("sam", 403), ("p1", 403), ("outsider", 403)])
def test_only_a_club_admin_closes_a_season(world, who, status):
    response = client(world.users[who]).patch(
        f"/api/v1/seasons/{world.season.pk}/", {"status": "closed"}, format="json"
    )

    assert response.status_code == status
    assert Season.objects.get(pk=world.season.pk).status == ("closed" if status == 200 else "open")


@pytest.mark.parametrize("who, status", [("ada", 200), ("sam", 403), ("outsider", 403)])
def test_only_a_club_admin_changes_a_league(world, who, status):
    response = client(world.users[who]).patch(f"/api/v1/leagues/{world.league.pk}/", {"name": "Nowa"}, format="json")

    assert response.status_code == status
    assert League.objects.get(pk=world.league.pk).name == ("Nowa" if status == 200 else "Liga")


def test_admins_of_another_club_manage_nothing_here(world, django_user_model):
    rival = django_user_model.objects.create_user("rival")
    services.club_create(actor=rival, name="Inny", slug="inny")

    api = client(rival)
    assert api.post("/api/v1/leagues/", {"club": world.club.pk, "name": "x"}, format="json").status_code == 403
    assert api.post("/api/v1/seasons/", {"league": world.league.pk, "name": "x"}, format="json").status_code == 403
    assert api.post(f"/api/v1/clubs/{world.club.pk}/members/", {"user": "rival"}, format="json").status_code == 403


def test_lists_filter_and_order(world, django_user_model):
    other = services.club_create(actor=world.users["ada"], name="Drugi", slug="drugi")
    services.league_create(actor=world.users["ada"], club_id=other.pk, name="B-liga")
    services.season_create(actor=world.users["ada"], league_id=world.league.pk, name="2024", status="closed")
    api = client(world.users["p1"])

    leagues = api.get("/api/v1/leagues/", {"club": world.club.pk}).json()["results"]
    seasons = api.get("/api/v1/seasons/", {"club": world.club.pk, "status": "open"}).json()["results"]
    ordered = api.get("/api/v1/seasons/", {"league": world.league.pk, "ordering": "-name"}).json()["results"]
    clubs = api.get("/api/v1/clubs/", {"member": "p1"}).json()["results"]

    assert [league["name"] for league in leagues] == ["Liga"]
    assert [season["name"] for season in seasons] == ["2025"]
    assert [season["name"] for season in ordered] == ["2025", "2024"]
    assert [club["slug"] for club in clubs] == ["kk"]


# --- standings ---------------------------------------------------------------------------------------------


class TestWithThreeFiledMatches:
    """The tests that read three finished matches of the season, filed once for them (once_per_class)."""

    def test_the_standings_are_json_with_exactly_the_issues_keys(self, world, filed):
        response = client(world.users["outsider"]).get(f"/api/v1/seasons/{world.season.pk}/standings/")

        assert response.status_code == 200
        body = response.json()
        assert set(body) == {"season", "computed_at", "rows", "awaiting_confirmation", "withdrawn"}  # issues 11, 13
        assert body["season"] == world.season.pk and body["awaiting_confirmation"] == body["withdrawn"] == []
        assert body["computed_at"] is not None
        assert len(body["rows"]) == 6
        for row in body["rows"]:
            assert set(row) == ROW_KEYS
            assert set(row["rating"]) == {"mu", "sigma", "ordinal"}
            assert len(row["placements"]) == 4 and sum(row["placements"]) == row["matches"]
        assert [row["position"] for row in body["rows"]] == sorted(row["position"] for row in body["rows"])
        assert sum(row["balance"] for row in body["rows"]) == 0
        assert {row["player"] for row in body["rows"]} == {"p1", "p2", "p3", "p4", "p5", "p6"}

    def test_the_standings_as_csv_by_format_or_accept(self, world, filed):
        api = client(world.users["p1"])
        json_rows = api.get(f"/api/v1/seasons/{world.season.pk}/standings/").json()["rows"]

        by_format = api.get(f"/api/v1/seasons/{world.season.pk}/standings/", {"format": "csv"})
        by_accept = api.get(f"/api/v1/seasons/{world.season.pk}/standings/", HTTP_ACCEPT="text/csv")

        for response in (by_format, by_accept):
            assert response.status_code == 200
            assert response["Content-Type"].startswith("text/csv")
            table = list(csv.DictReader(io.StringIO(response.content.decode())))
            assert [line["player"] for line in table] == [row["player"] for row in json_rows]
            assert [int(line["balance"]) for line in table] == [row["balance"] for row in json_rows]
            assert [int(line["first"]) for line in table] == [row["placements"][0] for row in json_rows]
            assert [float(line["mu"]) for line in table] == [row["rating"]["mu"] for row in json_rows]
        assert by_format.content == by_accept.content

    def test_unranked_players_have_no_position(self, world, filed, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            client(world.users["ada"]).patch(f"/api/v1/seasons/{world.season.pk}/", {"min_matches": 3}, format="json")

        rows = client(world.users["p1"]).get(f"/api/v1/seasons/{world.season.pk}/standings/").json()["rows"]

        assert [(row["player"], row["ranked"], row["position"]) for row in rows if row["matches"] < 3] == [
            (row["player"], False, None) for row in rows if row["matches"] < 3
        ]
        assert all(row["ranked"] for row in rows if row["matches"] >= 3)

    def test_a_player_shows_his_matches_balances_and_rating_history(self, world, filed):
        api = client(world.users["outsider"])
        p1 = api.get("/api/v1/players/", {"username": "p1"}).json()["results"][0]

        body = api.get(f"/api/v1/players/{p1['id']}/").json()

        assert body["username"] == "p1"
        assert len(body["matches"]) == 2 and all(m["season"] == world.season.pk for m in body["matches"])
        assert all(m["place"] in (1, 2, 3, 4) and m["status"] == "finished" for m in body["matches"])
        [season] = body["balances"]
        assert season["balance"] == sum(m["balance"] for m in body["matches"])
        [league] = body["ratings"]
        assert league["league"] == world.league.pk and league["matches"] == 2 and league["provisional"] is True
        assert [point["match"] for point in league["history"]] == [m["match"] for m in reversed(body["matches"])]
        assert league["history"][-1]["mu"] == league["mu"]


def test_an_error_asked_for_as_csv_is_still_problem_json(world):
    api = client(world.users["p1"])

    by_format = api.get("/api/v1/seasons/999999/standings/", {"format": "csv"})
    by_accept = api.get("/api/v1/seasons/999999/standings/", HTTP_ACCEPT="text/csv")

    for response in (by_format, by_accept):
        assert response.status_code == 404
        assert response["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == "not_found"


def test_options_asked_for_as_csv_describes_the_endpoint_in_json(world):
    response = client(world.users["p1"]).options(f"/api/v1/seasons/{world.season.pk}/standings/?format=csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json()["name"]


def test_an_empty_season_has_no_rows_and_no_computation_yet(world):
    body = client(world.users["p1"]).get(f"/api/v1/seasons/{world.season.pk}/standings/").json()

    assert body == {
        "season": world.season.pk,
        "computed_at": None,
        "rows": [],
        "awaiting_confirmation": [],
        "withdrawn": [],
    }


def test_standings_of_an_unknown_season_are_not_found(world):
    assert client(world.users["p1"]).get("/api/v1/seasons/999/standings/").status_code == 404


@pytest.mark.parametrize(
    "path", ["/api/v1/clubs/abc/", "/api/v1/leagues/abc/", "/api/v1/seasons/abc/", "/api/v1/clubs/999/"]
)
def test_changing_something_that_does_not_exist_is_not_found(world, path):
    response = client(world.users["ada"]).patch(path, {"name": "x"}, format="json")

    assert (response.status_code, response.json()["code"]) == (404, "not_found")


# --- players ----------------------------------------------------------------------------------------------------


# --- the schema ---------------------------------------------------------------------------------------------------


def test_every_league_endpoint_is_in_the_schema(openapi_schema):
    schema = openapi_schema

    for path in (
        "/api/v1/clubs/",
        "/api/v1/clubs/{id}/",
        "/api/v1/clubs/{id}/members/",
        "/api/v1/clubs/{id}/members/{username}/",
        "/api/v1/leagues/",
        "/api/v1/leagues/{id}/",
        "/api/v1/seasons/",
        "/api/v1/seasons/{id}/",
        "/api/v1/seasons/{id}/standings/",
        "/api/v1/players/",
        "/api/v1/players/{id}/",
    ):
        assert path in schema["paths"], path
    standings = schema["paths"]["/api/v1/seasons/{id}/standings/"]["get"]["responses"]["200"]["content"]
    assert {"application/json", "text/csv"} <= set(standings)


# --- seasons on the match endpoints ---------------------------------------------------------------------------


def new_match(season, **changes) -> dict:
    return {
        "seats": {"N": "p1", "E": "p2", "S": "p3", "W": "p4"},
        "first_dealer": "N",
        "dealing": "recorded",
        "season": season,
    } | changes


def test_a_match_created_with_a_season_joins_it(world):
    response = client(world.users["sam"]).post("/api/v1/matches/", new_match(world.season.pk), format="json")

    assert response.status_code == 201, response.json()
    assert SeasonMatch.objects.get(match_id=response.json()["id"]).season_id == world.season.pk


@pytest.mark.parametrize(
    "change, status, code",
    [
        ({"seats": {"N": "p1", "E": "p2", "S": "outsider", "W": "p4"}}, 400, "invalid"),
        ({"season": 999}, 404, "not_found"),
    ],
)
def test_a_season_match_with_a_stranger_or_no_season_is_refused(world, change, status, code):
    response = client(world.users["sam"]).post("/api/v1/matches/", new_match(world.season.pk) | change, format="json")

    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not SeasonMatch.objects.exists()


def test_a_closed_season_takes_no_match(world):
    services.season_update(actor=world.users["ada"], season_id=world.season.pk, status="closed")

    response = client(world.users["sam"]).post("/api/v1/matches/", new_match(world.season.pk), format="json")

    assert (response.status_code, response.json()["code"]) == (409, "season_closed")


def test_a_club_scorer_files_a_record_into_a_season(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client(world.users["sam"]).post(
            f"/api/v1/matches/import/?season={world.season.pk}", record(41, "p1 p2 p3 p4".split()), format="json"
        )

    assert response.status_code == 201, response.json()
    assert SeasonMatch.objects.get(match_id=response.json()["id"]).season_id == world.season.pk
    rows = client(world.users["p1"]).get(f"/api/v1/seasons/{world.season.pk}/standings/").json()["rows"]
    assert len(rows) == 4


@pytest.mark.parametrize("who, path", [("p1", "?season={season}"), ("sam", "")])
def test_a_plain_member_files_nothing_and_a_club_scorer_only_into_a_season(world, who, path):
    response = client(world.users[who]).post(
        "/api/v1/matches/import/" + path.format(season=world.season.pk),
        record(42, "p1 p2 p3 p4".split()),
        format="json",
    )

    assert response.status_code == 403
    assert not SeasonMatch.objects.exists()
