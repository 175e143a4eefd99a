"""Issue 13: a match says which season it was filed into, and ``GET /matches/?season=`` filters by it."""

import pytest
from api_helpers import api_people, fresh_users, sample
from support.once import once_per_module

from scoring import services as scoring

pytestmark = pytest.mark.django_db


built = once_per_module(api_people)  # every test starts from these users: built once (support.once)


@pytest.fixture
def users(built):
    return fresh_users(built)


IMPORT = "/api/v1/matches/import/"


@pytest.fixture
def seasons(users, django_user_model):
    """Two seasons of one club whose members are the players of the sample records."""
    admin = users["staff"]
    club = scoring.club_create(actor=admin, name="Klub", slug="klub")
    for name in ("p5-N", "p5-E", "p5-S", "p5-W", "p1-N", "p1-E", "p1-S", "p1-W"):
        django_user_model.objects.get_or_create(username=name)
        scoring.membership_set(actor=admin, club_id=club.pk, username=name)
    scoring.membership_set(actor=admin, club_id=club.pk, username="scorer", role="scorer")
    league = scoring.league_create(actor=admin, club_id=club.pk, name="Liga")
    return [scoring.season_create(actor=admin, league_id=league.pk, name=name) for name in ("wiosna", "jesień")]


def _file(client, name: str, season=None) -> str:
    url = IMPORT if season is None else f"{IMPORT}?season={season.pk}"
    response = client.post(url, sample(name), format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_the_list_filters_by_season_and_every_match_says_its_season(clients, seasons):
    spring, autumn = seasons
    in_spring = {_file(clients["scorer"], "m5-legal", spring), _file(clients["scorer"], "m1-legal", spring)}
    in_autumn = _file(clients["scorer"], "m5-partial", autumn)
    outside = _file(clients["scorer"], "m1-partial")

    listed = clients["staff"].get(f"/api/v1/matches/?season={spring.pk}").json()["results"]

    assert {m["id"] for m in listed} == in_spring
    assert {m["season"] for m in listed} == {spring.pk}
    assert clients["staff"].get(f"/api/v1/matches/{in_autumn}/").json()["season"] == autumn.pk
    assert clients["staff"].get(f"/api/v1/matches/{outside}/").json()["season"] is None
    everything = {m["id"]: m["season"] for m in clients["staff"].get("/api/v1/matches/").json()["results"]}
    assert everything[outside] is None and everything[in_autumn] == autumn.pk


@pytest.mark.parametrize("value", ["spring", "1.5", "-1", "9" * 30, "9" * 5000])
def test_a_season_filter_that_is_not_an_id_is_400(clients, value):
    response = clients["staff"].get(f"/api/v1/matches/?season={value}")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and response.json()["field"] == "season"


def test_an_unknown_season_lists_nothing(clients, seasons):
    assert clients["staff"].get("/api/v1/matches/?season=987654").json()["results"] == []
