"""Club evenings through the API: an evening created, players signed in, rounds seated with their
matches created in one call, results filed against those matches, late arrivals and
withdrawals, and the bad input refused with nothing changed."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from scoring_helpers import evening_club, fresh_world, play_live
from support import api_client as client
from support.once import once_per_module
from support.world import SHORT

from games.engine import Ruleset
from games.engine.seats import Seat
from games.engine.simulate import simulate_match
from games.models import Match, Player
from scoring.models import Evening, EveningPlayer, EveningRound, SeasonMatch, StandingRow

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_seating(settings):
    settings.EVENING_SEATING_SECONDS = 0.5


def build_club():
    """Club ``kk``: admin ``ada``, members m01–m13, outsider ``olek``; league with short matches, open season."""
    return evening_club(get_user_model(), 13, SHORT)


built = once_per_module(build_club)  # every test starts from that club: built once (support.once)


@pytest.fixture
def club(built):
    world = fresh_world(built)
    return world.users, world.club, world.season


def members(count: int) -> list[str]:
    return [f"m{k:02d}" for k in range(1, count + 1)]


def create_evening(club, players, **extra):
    users, _, season = club
    body = {"season": season.pk, "date": "2026-12-03", "rounds": 4, "players": players, **extra}
    response = client(users["ada"]).post("/api/v1/evenings/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def seat(club, evening, **body):
    return client(club[0]["ada"]).post(f"/api/v1/evenings/{evening['id']}/rounds/", body, format="json")


def file_results(club, round_data, seed: int) -> None:
    """Play each table's match to its end as its scorer would file a paper sheet."""
    for table in round_data["tables"]:
        match = Match.objects.get(pk=table["match"])
        played = simulate_match(
            random.Random(seed + table["number"]),
            ruleset=Ruleset.from_options(SHORT),
            players=table["seats"],
            first_dealer=Seat[table["first_dealer"]],
        )
        play_live(match, played, club[0]["ada"])


def nothing_seated(evening_id) -> bool:
    return not EveningRound.objects.filter(evening_id=evening_id).exists() and not SeasonMatch.objects.exists()


# --- an evening end to end ------------------------------------------------------------------------


def test_an_evening_of_13_members_over_4_rounds_seats_files_and_ranks(club, django_capture_on_commit_callbacks):
    evening = create_evening(club, members(13))
    sat_out = []
    for number in range(1, 5):
        response = seat(club, evening, round=number)
        assert response.status_code == 201, response.json()
        one = response.json()
        assert len(one["tables"]) == 3 and len(one["sitting_out"]) == 1
        assert all(sorted(table["seats"]) == ["E", "N", "S", "W"] for table in one["tables"])
        sat_out += one["sitting_out"]
        with django_capture_on_commit_callbacks(execute=True):
            file_results(club, one, seed=100 * number)

    assert len(set(sat_out)) == 4  # nobody sat out twice
    assert SeasonMatch.objects.filter(season=club[2]).count() == 12
    assert Match.objects.filter(status=Match.Status.FINISHED, dealing="recorded").count() == 12
    rows = StandingRow.objects.filter(season=club[2])
    assert rows.count() == 13
    assert sum(row.matches for row in rows) == 48
    detail = client(club[0]["m05"]).get(f"/api/v1/evenings/{evening['id']}/").json()
    assert [one["number"] for one in detail["seating"]] == [1, 2, 3, 4]
    assert all(table["status"] == "finished" for one in detail["seating"] for table in one["tables"])


def test_one_call_creates_the_rounds_matches_in_the_season_with_the_seated_players(club):
    evening = create_evening(club, members(8), dealing="server")

    one = seat(club, evening).json()

    for table in one["tables"]:
        match = Match.objects.get(pk=table["match"])
        assert match.dealing == "server"
        assert match.first_dealer == table["first_dealer"]
        assert [p.username for p in match.seat_players()] == [table["seats"][s] for s in "NESW"]
        assert SeasonMatch.objects.get(match=match).season_id == club[2].pk
        assert match.ruleset_options == SHORT


def test_a_late_arrival_is_seated_from_the_next_round(club):
    evening = create_evening(club, members(8))
    seat(club, evening)

    response = client(club[0]["ada"]).post(
        f"/api/v1/evenings/{evening['id']}/players/", {"players": ["m09"]}, format="json"
    )

    assert response.status_code == 200
    assert {"player": "m09", "arrived_round": 2, "left_round": None, "present": True} in response.json()
    second = seat(club, evening).json()
    assert len(second["sitting_out"]) == 1 and second["sitting_out"] != ["m09"]  # his missed round counts


def test_a_player_who_withdraws_is_not_seated_again(club):
    evening = create_evening(club, members(9))
    seat(club, evening)

    response = client(club[0]["ada"]).delete(f"/api/v1/evenings/{evening['id']}/players/m01/")

    assert response.status_code == 204
    second = seat(club, evening).json()
    assert "m01" not in [name for table in second["tables"] for name in table["seats"].values()]
    assert second["sitting_out"] == []


def test_rounds_are_seated_by_hand_when_the_admin_gives_the_tables(club):
    evening = create_evening(club, members(9))

    response = seat(club, evening, tables=[["m01", "m02", "m03", "m04"], ["m05", "m06", "m07", "m08"]])

    assert response.status_code == 201
    assert response.json()["seated_by"] == "manual"
    assert response.json()["sitting_out"] == ["m09"]
    assert response.json()["tables"][0]["seats"] == {"N": "m01", "E": "m02", "S": "m03", "W": "m04"}


def test_swiss_seating_puts_the_evenings_leaders_together(club, django_capture_on_commit_callbacks):
    evening = create_evening(club, members(8), swiss=True)
    first = seat(club, evening).json()
    with django_capture_on_commit_callbacks(execute=True):
        file_results(club, first, seed=7)
    leaders = sorted(first["tables"], key=lambda t: t["number"])
    totals = {}
    for table in leaders:
        for name in table["seats"].values():
            totals[name] = sum(s.points for s in Player.objects.get(username=name).deal_scores.all())
    top = sorted(totals, key=lambda name: (-totals[name], name))[:4]

    second = seat(club, evening).json()

    assert second["seated_by"] == "swiss"
    assert any(sorted(table["seats"].values()) == sorted(top) for table in second["tables"])


# --- who may see and do what ------------------------------------------------------------------------


def test_members_read_the_evening_and_others_get_404(club):
    evening = create_evening(club, members(8))
    seat(club, evening)

    assert client(club[0]["m02"]).get(f"/api/v1/evenings/{evening['id']}/rounds/").status_code == 200
    assert client(club[0]["olek"]).get(f"/api/v1/evenings/{evening['id']}/").status_code == 404
    assert client(club[0]["olek"]).get("/api/v1/evenings/").json()["results"] == []
    assert client().get(f"/api/v1/evenings/{evening['id']}/").status_code == 401


def test_only_admins_run_an_evening(club):
    evening = create_evening(club, members(8))

    response = client(club[0]["m02"]).post(f"/api/v1/evenings/{evening['id']}/rounds/", {}, format="json")

    assert (response.status_code, response.json()["code"]) == (403, "not_allowed")
    assert nothing_seated(evening["id"])
    outsider = client(club[0]["olek"]).post(f"/api/v1/evenings/{evening['id']}/rounds/", {}, format="json")
    assert outsider.status_code == 404


def test_staff_run_any_clubs_evening(club, django_user_model):
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    evening = create_evening(club, members(4))

    response = client(staff).post(f"/api/v1/evenings/{evening['id']}/rounds/", {}, format="json")

    assert response.status_code == 201


# --- bad input: a problem, nothing changed ----------------------------------------------------------


def test_seating_fewer_than_four_present_players_is_refused(club):
    evening = create_evening(club, members(3))

    response = seat(club, evening)

    assert response["Content-Type"] == "application/problem+json"
    assert (response.status_code, response.json()["code"]) == (409, "too_few_players")
    assert response.json()["present"] == ["m01", "m02", "m03"]
    assert nothing_seated(evening["id"])


def test_a_player_at_two_tables_is_refused(club):
    evening = create_evening(club, members(8))

    response = seat(club, evening, tables=[["m01", "m02", "m03", "m04"], ["m05", "m06", "m01", "m08"]])

    assert (response.status_code, response.json()["field"]) == (400, "tables[1][2]")
    assert "m01" in response.json()["detail"]
    assert nothing_seated(evening["id"])


def test_a_table_not_of_four_or_with_an_absent_player_is_refused(club):
    evening = create_evening(club, members(8))

    short = seat(club, evening, tables=[["m01", "m02", "m03"]])
    absent = seat(club, evening, tables=[["m01", "m02", "m03", "m12"]])

    assert (short.status_code, short.json()["field"]) == (400, "tables[0]")
    assert (absent.status_code, absent.json()["field"]) == (400, "tables[0][3]")
    assert nothing_seated(evening["id"])


def test_a_round_seated_twice_is_refused(club):
    evening = create_evening(club, members(8))
    assert seat(club, evening, round=1).status_code == 201
    matches = Match.objects.count()

    again = seat(club, evening, round=1)

    assert (again.status_code, again.json()["code"]) == (409, "round_seated")
    assert Match.objects.count() == matches
    assert EveningRound.objects.filter(evening_id=evening["id"]).count() == 1


def test_seating_past_the_evenings_rounds_is_refused(club):
    evening = create_evening(club, members(4), rounds=1)
    seat(club, evening)

    response = seat(club, evening)

    assert (response.status_code, response.json()["code"]) == (409, "evening_complete")


def test_a_round_filed_twice_is_refused(club, django_capture_on_commit_callbacks):
    """The round's matches are ordinary season matches: once finished, nothing more is filed."""
    evening = create_evening(club, members(4), rounds=1)
    one = seat(club, evening).json()
    with django_capture_on_commit_callbacks(execute=True):
        file_results(club, one, seed=3)
    table = one["tables"][0]

    response = client(club[0]["ada"]).post(f"/api/v1/matches/{table['match']}/deals/", {}, format="json")

    assert (response.status_code, response.json()["code"]) == (409, "match_closed")


@pytest.mark.parametrize("name, why", [("nobody", "no player named"), ("olek", "not a member")])
def test_unknown_and_foreign_players_are_refused(club, name, why):
    users, _, season = club
    body = {"season": season.pk, "date": "2026-12-03", "rounds": 2, "players": ["m01", name]}

    response = client(users["ada"]).post("/api/v1/evenings/", body, format="json")

    assert (response.status_code, response.json()["field"]) == (400, "players[1]")
    assert why in response.json()["detail"]
    assert not Evening.objects.exists()
    assert not Player.objects.filter(username=name).exists()  # no profile made on the way


def test_a_guest_profile_without_an_account_is_not_a_member_until_the_club_says_so(club):
    """``evening_selectors.club_member_players`` is the one place that decides membership."""
    Player.objects.create(username="gosc")
    users, _, season = club
    body = {"season": season.pk, "date": "2026-12-03", "rounds": 2, "players": ["gosc"]}

    response = client(users["ada"]).post("/api/v1/evenings/", body, format="json")

    assert (response.status_code, response.json()["field"]) == (400, "players[0]")


def test_signing_in_a_foreign_player_changes_nothing(club):
    evening = create_evening(club, members(4))

    response = client(club[0]["ada"]).post(
        f"/api/v1/evenings/{evening['id']}/players/", {"players": ["m05", "olek"]}, format="json"
    )

    assert (response.status_code, response.json()["field"]) == (400, "players[1]")
    assert EveningPlayer.objects.filter(evening_id=evening["id"]).count() == 4


def test_an_evening_of_a_season_the_caller_cannot_see_is_404(club, django_user_model):
    stranger = django_user_model.objects.create_user("stranger")

    response = client(stranger).post(
        "/api/v1/evenings/", {"season": club[2].pk, "date": "2026-12-03", "rounds": 2}, format="json"
    )

    assert (response.status_code, response.json()["code"]) == (404, "not_found")


# --- the evening page -------------------------------------------------------------------------------


def test_the_evening_page_shows_each_rounds_tables_to_members(club, client):
    evening = create_evening(club, members(9))
    one = seat(club, evening).json()
    client.force_login(club[0]["m03"])

    response = client.get(f"/evenings/{evening['id']}/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "Round 1" in html and "Sitting out:" in html
    for table in one["tables"]:
        assert f"/matches/{table['match']}/" in html
        assert all(name in html for name in table["seats"].values())


def test_the_evening_page_is_404_for_outsiders(club, client):
    evening = create_evening(club, members(4))
    client.force_login(club[0]["olek"])

    assert client.get(f"/evenings/{evening['id']}/").status_code == 404


# --- what the organiser sees of repeats (issue 24) ----------------------------------------------

BY_HAND = [["m01", "m02", "m03", "m04"], ["m05", "m06", "m07", "m08"]]
MIXED = [["m01", "m02", "m05", "m06"], ["m03", "m04", "m07", "m08"]]


def test_a_round_seated_by_hand_is_previewed_with_its_pairs_who_met_before_and_nothing_is_saved(club):
    evening = create_evening(club, members(8), rounds=3)
    assert seat(club, evening, tables=BY_HAND).status_code == 201
    matches = Match.objects.count()

    response = seat(club, evening, round=2, tables=MIXED, preview=True)

    assert response.status_code == 200, response.json()
    preview = response.json()
    assert (preview["number"], preview["seated_by"], preview["repeats"], preview["lower_bound"]) == (2, "manual", 4, 4)
    assert preview["tables"][0]["seats"] == {"N": "m01", "E": "m02", "S": "m05", "W": "m06"}
    assert preview["tables"][0]["met_before"] == [
        {"players": ["m01", "m02"], "tonight": 1, "earlier": 0},
        {"players": ["m05", "m06"], "tonight": 1, "earlier": 0},
    ]
    assert EveningRound.objects.filter(evening_id=evening["id"]).count() == 1
    assert Match.objects.count() == matches


def test_the_searchs_round_is_previewed_as_it_would_be_seated(club):
    evening = create_evening(club, members(12), rounds=3)

    preview = seat(club, evening, round=1, preview=True).json()
    seated = seat(club, evening, round=1).json()

    assert [t["seats"] for t in preview["tables"]] == [t["seats"] for t in seated["tables"]]
    assert (preview["repeats"], preview["lower_bound"]) == (0, 0)


def test_a_bad_hand_seating_is_refused_in_a_preview_too(club):
    evening = create_evening(club, members(8), rounds=3)

    response = seat(club, evening, tables=[["m01", "m02", "m03", "m01"]], preview=True)

    assert response.status_code == 400 and response.json()["field"] == "tables[0][3]"


def test_each_table_shows_its_pairs_who_met_tonight_or_on_the_seasons_earlier_evenings(club):
    earlier = create_evening(club, members(8), rounds=1)
    assert seat(club, earlier, tables=BY_HAND).status_code == 201
    evening = create_evening(club, members(8), rounds=2, date="2026-12-10")

    first = seat(club, evening, tables=MIXED).json()
    second = seat(club, evening, tables=BY_HAND).json()

    assert first["tables"][1]["met_before"] == [
        {"players": ["m03", "m04"], "tonight": 0, "earlier": 1},
        {"players": ["m07", "m08"], "tonight": 0, "earlier": 1},
    ]
    assert (first["repeats"], first["lower_bound"]) == (0, 0)
    assert {"players": ["m01", "m02"], "tonight": 1, "earlier": 1} in second["tables"][0]["met_before"]
    assert (second["repeats"], second["lower_bound"]) == (4, 4)
    listed = client(club[0]["m05"]).get(f"/api/v1/evenings/{evening['id']}/rounds/").json()
    assert listed[1]["tables"] == second["tables"] and listed[1]["lower_bound"] == 4


def test_the_evening_page_shows_the_pairs_who_met_before_and_the_repeats_against_their_bound(club):
    evening = create_evening(club, members(8), rounds=2)
    seat(club, evening, tables=BY_HAND)
    seat(club, evening, tables=MIXED)
    browser = Client()
    browser.force_login(club[0]["m05"])

    page = browser.get(f"/evenings/{evening['id']}/").content.decode()

    assert "Repeats this evening: 4 (the fewest possible with no pair three times: 4)" in page
    assert "Pairs who played together before:" in page
    assert "m01 – m02 · tonight: 1×" in page


@pytest.mark.parametrize(("first_seated_by", "then"), [(None, "plan"), ("tabu!clock", "tabu"), ("manual", "tabu")])
def test_the_evenings_plan_is_followed_only_after_rounds_the_search_seated_within_its_work(club, first_seated_by, then):
    evening = create_evening(club, members(12), rounds=3)
    assert seat(club, evening).status_code == 201
    if first_seated_by:  # as if the wall clock had cut round 1 short, or an admin had seated it
        EveningRound.objects.filter(evening_id=evening["id"]).update(seated_by=first_seated_by)

    second = seat(club, evening).json()

    assert second["seated_by"] == then
