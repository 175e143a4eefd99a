"""The club world the database tests act in, and short simulated matches (two regular deals)
entered through the live commands.

``build_world`` makes the one world every area starts from (the ``world`` fixture of
support/fixtures.py is its default); an area that needs other names or more users passes them,
or adds to the world its fixture got.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine import Ruleset, Seat
from games.engine.simulate import simulate_match
from support import PLAYERS, SEATS

SHORT = {"regular_deals": ["R", "O"]}  # two regular deals (and what they make due): quick to play


@dataclass
class World:
    """A club with a league and an open season, and the users the tests act as (by name)."""

    users: dict
    club: object
    league: object
    season: object
    other_club: object = None


def build_world(
    user_model,
    *,
    players: tuple[str, ...] = PLAYERS,
    scorer: str | None = "sam",
    arbiter: str | None = "ari",
    members: tuple[str, ...] = (),
    others: tuple[str, ...] = ("outsider",),
    staff: str | None = "staff",
    options: dict | None = SHORT,
    season: str = "2025",
) -> World:
    """Club ``kk`` ("Klub Kierkowy"): admin ``ada``, ``scorer``, ``arbiter`` (None: none), ``players``
    and ``members`` as members; ``others`` (no part of it); ``staff`` (is_staff, no part of it).
    League ``Liga`` (the ruleset of ``options``: SHORT unless given, None the default one), season
    ``season``. Users have no password: hashing one is slow."""
    from scoring import services as leagues

    make = user_model.objects.create_user
    officials = [name for name in (scorer, arbiter) if name]
    users = {name: make(name) for name in ("ada", *officials, *players, *members, *others)}
    if staff:
        users[staff] = make(staff, is_staff=True)
    club = leagues.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    roles = [(scorer, "scorer"), (arbiter, "arbiter"), *((name, "member") for name in (*players, *members))]
    for name, role in roles:
        if name:
            leagues.membership_set(actor=users["ada"], club_id=club.pk, username=name, role=role)
    ruleset = {"options": options} if options is not None else None
    league = leagues.league_create(actor=users["ada"], club_id=club.pk, name="Liga", ruleset=ruleset)
    made = leagues.season_create(actor=users["ada"], league_id=league.pk, name=season)
    return World(users, club, league, made)


def people(user_model, names, *, staff: str = "staff", scorers=("scorer",)) -> dict:
    """Users by name, without a club: ``names``, ``staff`` (is_staff) and ``scorers`` (of ``names``)
    in the scorers group, who may create matches (no password: hashing one is slow)."""
    from django.contrib.auth.models import Group

    make = user_model.objects.create_user
    made = {name: make(name) for name in names}
    made[staff] = make(staff, is_staff=True)
    group = Group.objects.get_or_create(name="scorers")[0]
    for name in scorers:
        made[name].groups.add(group)
    return made


def season_match(
    world: World, players: tuple[str, ...] = PLAYERS, *, by: str = "sam", dealing="recorded", first_dealer="N", **fields
):
    """A match of the season created by ``by`` (recorded unless ``dealing``: its scorer),
    ``players`` in N, E, S, W; ``fields`` go to ``season_match_create``."""
    from scoring import services as leagues

    return leagues.season_match_create(
        actor=world.users[by],
        season_id=world.season.pk,
        seats=dict(zip(SEATS, players)),
        first_dealer=first_dealer,
        dealing=dealing,
        **fields,
    )


def state_of(match):
    """The engine state from the read model of ``match`` (a match or its id)."""
    from games.engine.match import restore
    from games.models import MatchProjection

    return restore(MatchProjection.objects.get(pk=getattr(match, "pk", match)).snapshot)


def legal_play(match) -> tuple[str, str]:
    """(seat, card): the seat on turn of ``match`` (a match or its id) and its first legal card."""
    deal = state_of(match).deal
    seat = deal.to_play
    return seat.name, str(deal.legal_cards(seat)[0])


def play_legal_cards(match, actor, count: int) -> None:
    """``actor`` plays ``count`` cards, each the first legal card of the seat on turn."""
    from games.write import services as games

    for _ in range(count):
        seat, card = legal_play(match)
        games.card_play(match_id=match.pk, actor=actor, card=card, seat=seat)


def simulated(seed: int, players: tuple[str, ...] = PLAYERS, options: dict | None = SHORT) -> dict:
    """A finished match (SHORT unless ``options``) between ``players`` (seats N, E, S, W), first dealer N."""
    return simulate_match(
        random.Random(seed),
        players=dict(zip(SEATS, players)),
        first_dealer=Seat.N,
        ruleset=Ruleset.from_options(options or {}),
    )


def play_record(match, record: dict, actor, *, deals: int | None = None, cards: int | None = None) -> None:
    """The scorer enters ``record``'s deals (the first ``deals`` of them) through the live commands;
    of the last deal entered only ``cards`` cards when given."""
    from games.write import services as games

    chosen = record["deals"][:deals]
    for index, deal in enumerate(chosen):
        games.deal_start(match_id=match.pk, actor=actor, hands=deal["hands"])
        if "sale" in deal:
            offered = games.lead_offer(
                match_id=match.pk, actor=actor, price=deal["sale"]["price"], seat=deal["sale"]["buyer"]
            )
            games.lead_decide(match_id=match.pk, actor=actor, offer=offered.events[0].seq)
        plays = deal["plays"][:cards] if index == len(chosen) - 1 and cards is not None else deal["plays"]
        for card in plays:
            games.card_play(match_id=match.pk, actor=actor, card=card)


def file_by_points(match, record: dict, actor) -> None:
    """``record``'s deals filed into ``match`` from the paper sheet by ``actor``, one command a deal:
    each deal's points as the sheet has them (R33) and its sale."""
    from games.engine import record as records
    from games.engine.replay import replay
    from games.write import services as games

    for deal, filed in zip(replay(records.decode(record)).summary()["deals"], record["deals"]):
        games.deal_tally(match_id=match.pk, actor=actor, points=sheet_points(deal), sale=filed.get("sale"))


def sheet_points(deal: dict) -> dict:
    """A summary's deal's points as its sheet has them (R33): after the multiplier, before the sale's
    transfer (R27), which the summary's points include. Only a compensating odgrywka is sold (R26):
    there they are 10 a trick (R17) times the multiplier (R22)."""
    if deal["kind"] != "odgrywka":
        return deal["points"]
    return {seat: 10 * tricks * deal["multiplier"] for seat, tricks in deal["tricks"].items()}


def standings_of(season) -> list[dict]:
    """The stored standings of ``season`` (a season or its id), every column but the id, in order."""
    from scoring.models import StandingRow

    return list(
        StandingRow.objects.filter(season_id=getattr(season, "pk", season))
        .order_by("order")
        .values(*[f.name for f in StandingRow._meta.concrete_fields if f.name != "id"])
    )


def ratings_of(league) -> dict:
    """The ratings of ``league`` (a league or its id): current, log, history, as plain values."""
    from scoring.models import RatedMatch, Rating, RatingChange

    league_id = getattr(league, "pk", league)
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
