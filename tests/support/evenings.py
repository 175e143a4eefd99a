"""A season of club evenings with results (the charts' tests: tests/web, tests/scoring,
tests/printing): eight members, three evenings of one round each (two tables), every table's
match filed from its paper sheet by the organiser, who sits at none (so each result is
confirmed), deal by deal with its points (R33: one command a deal), and one more match played
card by card outside any evening, then the standings recomputed."""

from __future__ import annotations

import datetime
import random

from games.engine import Ruleset
from games.engine.seats import Seat
from games.engine.simulate import simulate_match

from .world import SHORT, build_world, file_by_points, play_record, season_match

MEMBERS = ("Łucja & Ewa", "bartek", "celina", "darek", "edek", "franek", "gosia", "<script>")
EVENING_DAYS = (datetime.date(2026, 10, 1), datetime.date(2026, 10, 8), datetime.date(2026, 10, 15))


def season_of_evenings(user_model, *, evenings=EVENING_DAYS, outside: bool = True):
    """build_world with ``MEMBERS`` (and organiser ``ada``, scorer ``sam``); returns the world."""
    from scoring import evening_services, recompute

    world = build_world(user_model, players=MEMBERS, options=SHORT, others=(), arbiter=None)
    ada = world.users["ada"]
    for index, day in enumerate(evenings):
        evening = evening_services.evening_create(
            actor=ada, season_id=world.season.pk, date=day, rounds=1, players=MEMBERS, seed=index
        )
        seated = evening_services.evening_round_seat(
            actor=ada,
            evening_id=evening.pk,
            tables=[MEMBERS[:4], MEMBERS[4:]] if index % 2 else [MEMBERS[::2], MEMBERS[1::2]],
        )
        for table in seated.tables.select_related("season_match__match"):
            file_to_end(table.season_match.match, 10 * index + table.number, ada)
    if outside:
        match = season_match(world, MEMBERS[:4], by="sam")
        play_to_end(match, 99, world.users["sam"])
    recompute.standings_recompute(season_id=world.season.pk)
    return world


def simulated_for(match, seed: int) -> dict:
    """A whole match at ``match``'s table, from its first dealer on (``games.engine.simulate``)."""
    seats = {seat: player.username for seat, player in zip("NESW", match.seat_players())}
    return simulate_match(
        random.Random(seed),
        ruleset=Ruleset.from_options(match.ruleset_options),
        players=seats,
        first_dealer=Seat[match.first_dealer],
    )


def play_to_end(match, seed: int, actor) -> None:
    play_record(match, simulated_for(match, seed), actor)


def file_to_end(match, seed: int, actor) -> None:
    """The simulated match filed from its paper sheet (``file_by_points``)."""
    file_by_points(match, simulated_for(match, seed), actor)
