"""Paper sheets in the standings (issue 13): a match's date of play (``played_on``) dates it in
``last_played`` and the rating order; deals filed by tally or points count as played ones."""

import datetime

import pytest
from scoring_helpers import fresh_world, record, scoring_world, standings_of
from support.once import once_per_module

from games.engine import Seat, replay
from games.engine import record as records
from games.engine.tally import played_tally
from scoring import services
from scoring.models import SeasonMatch

pytestmark = pytest.mark.django_db


built = once_per_module(scoring_world)  # every test starts from the world: built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built)


def as_points(data: dict) -> dict:
    """The simulated record with every deal filed by the points on the sheet (before sales)."""
    played = replay(records.decode(data))
    deals = []
    for deal, result in zip(data["deals"], played.state.results):
        points = list(result.points)
        if result.final.sale is not None:
            buyer, price = result.final.sale
            points[buyer] += 10 * price
            points[result.final.holder] -= 10 * price
        deals.append({"points": dict(zip("NESW", points)), **({"sale": deal["sale"]} if "sale" in deal else {})})
    return {**data, "deals": deals}


def as_tallies(data: dict) -> dict:
    played = replay(records.decode(data))
    ruleset = played.state.ruleset
    deals = []
    for deal, result in zip(data["deals"], played.state.results):
        tally = played_tally(result.kind, result.final.plays, result.final.winners, ruleset.last_tricks)
        deals.append(
            {
                "tally": {s.name: t.as_json(result.kind) for s, t in zip(Seat, tally)},
                **({"sale": deal["sale"]} if "sale" in deal else {}),
            }
        )
    return {**data, "deals": deals}


def file(world, data, capture):
    with capture(execute=True):
        return services.season_record_import(actor=world.users["sam"], season_id=world.season.pk, record=data)


def test_a_match_filed_with_its_date_of_play_is_dated_by_it(world, django_capture_on_commit_callbacks):
    """Item 7: ``last_played`` is the date of play, not the filing time (which stays in the log)."""
    data = {**record(31, ["p1", "p2", "p3", "p4"]), "played_on": "2024-03-05"}

    filing = datetime.datetime.now(datetime.UTC)
    match = file(world, data, django_capture_on_commit_callbacks)

    assert match.played_on == datetime.date(2024, 3, 5)
    when = datetime.datetime(2024, 3, 5, tzinfo=datetime.UTC)
    assert SeasonMatch.objects.get(match=match).finished_at == when
    assert {row["last_played"] for row in standings_of(world.season.pk)} == {when}
    # the log keeps the filing time (compared as instants: a local date is the next day after 23:00 UTC)
    assert filing <= match.events.order_by("seq").first().created_at <= datetime.datetime.now(datetime.UTC)


def test_an_old_sheet_filed_later_is_rated_before_the_matches_played_after_it(
    world, django_capture_on_commit_callbacks
):
    """Item 7: the rating order is the order of play."""
    live = file(world, record(32, ["p1", "p2", "p3", "p4"]), django_capture_on_commit_callbacks)
    old = file(
        world, {**record(33, ["p1", "p2", "p3", "p5"]), "played_on": "2023-01-10"}, django_capture_on_commit_callbacks
    )

    assert SeasonMatch.objects.get(match=old).rated.position == 0
    assert SeasonMatch.objects.get(match=live).rated.position == 1


@pytest.mark.parametrize("filed", [as_tallies, as_points])
def test_a_match_filed_by_tallies_or_points_gives_the_standings_of_the_played_one(
    world, filed, django_capture_on_commit_callbacks
):
    """R31, R33: balances, kreski, Max deals, zero-trick odgrywki and places as if played (seed 2 has
    a Max, an odgrywka with a player without a trick, and a lead sale)."""
    data = record(2, ["p1", "p2", "p3", "p4"])
    file(world, data, django_capture_on_commit_callbacks)
    other = services.season_create(actor=world.users["ada"], league_id=world.league.pk, name="paper")

    with django_capture_on_commit_callbacks(execute=True):
        services.season_record_import(actor=world.users["sam"], season_id=other.pk, record=filed(data))

    columns = ("player", "matches", "deals", "balance", "kreski", "max_deals", "zero_odgrywki", "first")
    played, paper = standings_of(world.season.pk), standings_of(other.pk)
    assert any(row["max_deals"] for row in played) and any(row["zero_odgrywki"] for row in played)
    assert [{k: row[k] for k in columns} for row in paper] == [{k: row[k] for k in columns} for row in played]
