"""Helpers for the scoring tests: simulated records, filing them into a season, reading the
standings back as plain values."""

import random
from dataclasses import dataclass

from games.engine import Ruleset
from games.engine.simulate import simulate_match
from scoring.models import RatedMatch, Rating, RatingChange, StandingRow

SEATS = ("N", "E", "S", "W")


@dataclass
class ClubWorld:
    users: dict
    club: object
    league: object
    season: object


def record(seed: int, names, options: dict | None = None) -> dict:
    """A finished simulated match between ``names`` seated N, E, S, W (default ruleset unless
    ``options``)."""
    return simulate_match(
        random.Random(seed), players=dict(zip(SEATS, names)), ruleset=Ruleset.from_options(options or {})
    )


def standings_of(season_id) -> list[dict]:
    """The stored standings, every column, in order."""
    return list(
        StandingRow.objects.filter(season_id=season_id)
        .order_by("order")
        .values(*[f.name for f in StandingRow._meta.concrete_fields if f.name not in ("id",)])
    )


def ratings_of(league_id) -> dict:
    return {
        "current": sorted(
            Rating.objects.filter(league_id=league_id).values_list(
                "player_id", "mu", "sigma", "ordinal", "provisional", "matches"
            )
        ),
        "log": list(
            RatedMatch.objects.filter(league_id=league_id)
            .order_by("position")
            .values_list("position", "season_match_id")
        ),
        "history": sorted(
            RatingChange.objects.filter(league_id=league_id).values_list(
                "season_match_id", "position", "season_id", "player_id", "mu", "sigma"
            )
        ),
    }


def play_live(match, record_data: dict, actor, *, deals: int | None = None) -> None:
    """Replay ``record_data`` through the live commands (a scorer at a recorded table)."""
    from games import services as games

    for deal in record_data["deals"][:deals]:
        games.deal_start(match_id=match.pk, actor=actor, hands=deal["hands"])
        if "sale" in deal:
            offered = games.lead_offer(
                match_id=match.pk, actor=actor, price=deal["sale"]["price"], seat=deal["sale"]["buyer"]
            )
            games.lead_decide(match_id=match.pk, actor=actor, offer=offered.events[0].seq)
        for card in deal["plays"]:
            games.card_play(match_id=match.pk, actor=actor, card=card)


def require_redis(url: str) -> None:
    """Skip the calling test when Redis does not answer at ``url``; under CI=true (or with
    CELERY_TEST_BROKER set) that is a failure."""
    import os

    import pytest
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        reason = f"needs Redis at {url}: {exc}"
        if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"} or os.environ.get("CELERY_TEST_BROKER"):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
