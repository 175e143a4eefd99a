"""Helpers for the scoring tests: simulated records of the default ruleset (the world, filing
matches, the standings and ratings as plain values are tests/support's)."""

import os
import random

from support import SEATS, servers
from support.once import fresh_world, once_per_class  # noqa: F401 - re-exported
from support.world import play_record as play_live  # noqa: F401 - re-exported
from support.world import ratings_of, standings_of  # noqa: F401 - re-exported

from games.engine import Ruleset
from games.engine.simulate import simulate_match

PLAYERS = ("p1", "p2", "p3", "p4", "p5", "p6")


def scoring_world():
    """Club ``kk`` (admin ``ada``, scorer ``sam``, arbiter ``arb``, members ``p1``–``p6``), league
    ``Liga`` (the default ruleset), season ``2025``; ``outsider``, ``staff`` (tests/support's world
    with these names)."""
    from django.contrib.auth import get_user_model
    from support.world import build_world

    return build_world(get_user_model(), players=PLAYERS, arbiter="arb", options=None)


def record(seed: int, names, options: dict | None = None) -> dict:
    """A finished simulated match between ``names`` seated N, E, S, W (default ruleset unless
    ``options``; the first dealer drawn)."""
    return simulate_match(
        random.Random(seed), players=dict(zip(SEATS, names)), ruleset=Ruleset.from_options(options or {})
    )


def file_records(world, capture, tables) -> list:
    """For each ``(seed, "n e s w")`` of ``tables`` a simulated match (``record``) filed into the
    season by its scorer ``sam``, the on-commit work run by ``capture``; the season matches."""
    from scoring import services

    with capture(execute=True):
        return [
            services.season_record_import(
                actor=world.users["sam"], season_id=world.season.pk, record=record(seed, names.split())
            )
            for seed, names in tables
        ]


def evening_club(user_model, members: int, options: dict):
    """tests/support's world for evenings: admin ``ada`` (who seats and files, never seated),
    members ``m01``… (``members`` of them), outsider ``olek``; league ``Liga`` (``options``),
    season ``Zima``."""
    from support.world import build_world

    return build_world(
        user_model,
        players=tuple(f"m{k:02d}" for k in range(1, members + 1)),
        scorer=None,
        arbiter=None,
        others=("olek",),
        staff=None,
        options=options,
        season="Zima",
    )


def require_redis(url: str) -> None:
    """Skip the calling test when Redis does not answer at ``url``; under CI=true (or with
    CELERY_TEST_BROKER set) that is a failure."""
    servers.require_redis(url, mandatory=bool(os.environ.get("CELERY_TEST_BROKER")))


def world_and_three_filed(seeds: tuple[int, int, int]):
    """The fixtures of a module whose tests start from the world, and of its classes that need
    three finished matches in the season (``p1``–``p6`` at three tables, ``record(seed)`` each):
    ``built`` (the world, once per module: support.once), ``built_filed`` (the matches, once per
    class), ``world`` and ``filed`` (read again for each test). A module takes them as
    ``built, built_filed, world, filed = world_and_three_filed(seeds)``."""
    import pytest
    from django.test import TestCase
    from support.once import fresh, once_per_module

    def file_three(world):
        world = fresh_world(world)  # what a build caches on the users (user.player) must not outlive its rows
        tables = tuple(zip(seeds, ("p1 p2 p3 p4", "p2 p3 p4 p5", "p1 p2 p5 p6")))
        return file_records(world, TestCase.captureOnCommitCallbacks, tables)

    @pytest.fixture
    def world(built):
        return fresh_world(built)

    @pytest.fixture
    def filed(built_filed):
        return [fresh(match) for match in built_filed]

    return once_per_module(scoring_world), once_per_class(file_three), world, filed
