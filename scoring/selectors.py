"""Reads: club roles, the season figures the standings are ranked from, player profiles, and
the series the charts draw."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction

from django.db.models import Count, Max, Min, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from games.engine import Kind
from games.models import DealScore, Match, Player

from .models import MatchLine, Membership, Rating, RatingChange, StandingRow
from .rating import Skill
from .standings import Line, Tally

Role = Membership.Role
FILING_ROLES = (Role.SCORER, Role.ARBITER, Role.ADMIN)  # may file any season match of the club
# a standings.Line's fields after its match and player: MatchLine columns of the same names
LINE_RESULT = ("total", "deals", "kreski", "max_deals", "zero_odgrywki", "place", "finished_at")
TALLY_SUMS = tuple(name for name in Tally._fields if name != "player")  # StandingRow columns of the same names


# --- roles -------------------------------------------------------------------------------------


def club_role(user, club_id) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club_id=club_id, user=user).values_list("role", flat=True).first()


def is_club_admin(user, club_id) -> bool:
    return club_role(user, club_id) == Role.ADMIN


# --- what standings are built from ---------------------------------------------------------------


def season_tallies(season_id, players: Iterable | None = None) -> list[tuple[Tally, str, Skill]]:
    """Each player's season sums (the SQL twin of ``standings.tally``), his name, and his
    rating after his last match of the season — of ``players`` only when given."""
    lines = MatchLine.objects.filter(season_id=season_id)
    if players is not None:
        lines = lines.filter(player_id__in=list(players))
    rows = (
        lines.values("player")
        .annotate(
            matches=Count("id"),
            wins=Count("id", filter=Q(place=1)),
            first=Count("id", filter=Q(place=1)),
            second=Count("id", filter=Q(place=2)),
            third=Count("id", filter=Q(place=3)),
            fourth=Count("id", filter=Q(place=4)),
            deals=Sum("deals"),
            balance=Sum("total"),
            best_match=Max("total"),
            worst_match=Min("total"),
            kreski=Sum("kreski"),
            max_deals=Sum("max_deals"),
            zero_odgrywki=Sum("zero_odgrywki"),
            last_played=Max("finished_at"),
        )
        .order_by()
    )
    tallies = [Tally(**row) for row in rows]
    last = RatingChange.objects.filter(player=OuterRef("pk"), season_id=season_id).order_by("-position")
    named = {
        pk: (name, Skill(mu, sigma))
        for pk, name, mu, sigma in (
            Player.objects.filter(pk__in=[t.player for t in tallies])
            .annotate(mu=Subquery(last.values("mu")[:1]), sigma=Subquery(last.values("sigma")[:1]))
            .values_list("pk", "username", "mu", "sigma")
        )
    }
    return [(tally, *named[tally.player]) for tally in tallies]


def standing_tallies(season_id) -> dict[int, tuple[Tally, str, Skill]]:
    """The sums, name and rating each of the season's current rows holds, by player."""
    return {
        row["player"]: (
            Tally(**{name: row[name] for name in Tally._fields}),
            row["player__username"],
            Skill(row["mu"], row["sigma"]),
        )
        for row in StandingRow.objects.filter(season_id=season_id).values(
            "player", "player__username", "mu", "sigma", *TALLY_SUMS
        )
    }


def season_lines(season_id, players: Iterable | None = None) -> list[Line]:
    """The season's match lines, of ``players`` only when given."""
    lines = MatchLine.objects.filter(season_id=season_id)
    if players is not None:
        lines = lines.filter(player_id__in=list(players))
    return [
        Line(*row)
        for row in lines.order_by("finished_at", "season_match_id", "seat").values_list(
            "season_match_id", "player_id", *LINE_RESULT
        )
    ]


# --- what the API shows ----------------------------------------------------------------------------


def standing_rows(season_id):
    return StandingRow.objects.filter(season_id=season_id).select_related("player").order_by("order")


def season_uncounted(season_id) -> dict[str, list]:
    """The season's matches left out of its standings by the table or an arbiter: finished ones
    awaiting confirmation, and withdrawn ones (``standings.counts`` decides what counts)."""
    matches = Match.objects.filter(season_match__season_id=season_id).order_by("created_at", "pk")
    return {
        "awaiting_confirmation": list(
            matches.filter(status=Match.Status.FINISHED, confirmed=False, withdrawn=False).values_list("pk", flat=True)
        ),
        "withdrawn": list(matches.filter(withdrawn=True).values_list("pk", flat=True)),
    }


MATCHES_SHOWN = 100


def player_profile(player: Player, *, include_unconfirmed: bool = False) -> dict:
    """A player's latest matches (with his balance and place), season balances and ratings. Only
    the matches whose result counts (confirmed by the table, not withdrawn: issue 11) unless
    ``include_unconfirmed``: then every match, each saying whether it is confirmed or withdrawn."""
    seated = Q(north=player) | Q(east=player) | Q(south=player) | Q(west=player)
    if not include_unconfirmed:
        seated &= Q(confirmed=True, withdrawn=False)
    matches = list(
        Match.objects.filter(seated)
        .order_by("-created_at")
        .values(
            "id",
            "status",
            "created_at",
            "season_match__season_id",
            "confirmed",
            "withdrawn",
            "north_id",
            "east_id",
            "south_id",
            "west_id",
        )[:MATCHES_SHOWN]
    )
    ids = [m["id"] for m in matches]
    totals = dict(
        DealScore.objects.filter(match_id__in=ids, player=player)
        .values("match_id")
        .annotate(total=Sum("points"))
        .values_list("match_id", "total")
        .order_by()
    )
    lines = {
        sm_match: (place, finished_at)
        for sm_match, place, finished_at in MatchLine.objects.filter(
            season_match__match_id__in=ids, player=player
        ).values_list("season_match__match_id", "place", "finished_at")
    }
    seats = ("N", "E", "S", "W")
    match_rows = []
    for m in matches:
        place, finished_at = lines.get(m["id"], (None, None))
        seat = next(s for s, key in zip(seats, ("north_id", "east_id", "south_id", "west_id")) if m[key] == player.pk)
        match_rows.append(
            {
                "match": m["id"],
                "status": m["status"],
                "created_at": m["created_at"],
                "season": m["season_match__season_id"],
                "seat": seat,
                "balance": totals.get(m["id"], 0),
                "place": place,
                "finished_at": finished_at,
                "confirmed": m["confirmed"],
                "withdrawn": m["withdrawn"],
            }
        )
    seasons = list(
        StandingRow.objects.filter(player=player).select_related("season__league").order_by("-season__created_at")
    )
    ratings = []
    for rating in Rating.objects.filter(player=player).select_related("league").order_by("league__name"):
        history = (
            RatingChange.objects.filter(player=player, league=rating.league)
            .order_by("position")
            .values_list("season_match__match_id", "season_match__finished_at", "mu", "sigma")
        )
        ratings.append(
            {
                "rating": rating,
                "history": [
                    {"match": match_id, "finished_at": at, "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma}
                    for match_id, at, mu, sigma in history
                ],
            }
        )
    return {"player": player, "matches": match_rows, "seasons": seasons, "ratings": ratings}


# --- what the charts draw (web/charts.py, printing/charts.py) -----------------------------------


def season_balance_series(season_id) -> dict:
    """Each player's balance (Σ points, R9) after each evening of the season, in standings order.
    A point is a day: the evening's date, or for a match played outside any evening the day it
    finished (in the current time zone). Only the matches that count (``MatchLine``); a player
    keeps his balance over the days he did not play, so his last value is his standings balance."""
    by_day: dict = defaultdict(lambda: defaultdict(int))
    for player, total, finished_at, evening_day in MatchLine.objects.filter(season_id=season_id).values_list(
        "player_id", "total", "finished_at", "season_match__evening_table__round__evening__date"
    ):
        by_day[evening_day or timezone.localdate(finished_at)][player] += total
    days = sorted(by_day)
    players = []
    for pk, name in standing_rows(season_id).values_list("player_id", "player__username"):
        running, balances = 0, []
        for day in days:
            running += by_day[day].get(pk, 0)
            balances.append(running)
        players.append({"player": pk, "name": name, "balances": balances})
    return {"days": days, "players": players}


def player_rating_series(player: Player) -> list[dict]:
    """The player's rating after each of his rated matches, per league (by name): μ and σ as
    openskill left them (``rating_log``), the displayed rating μ − 3σ, and when the match finished."""
    changes = (
        RatingChange.objects.filter(player=player)
        .order_by("league__name", "league_id", "position")
        .values_list("league_id", "league__name", "season_match__finished_at", "mu", "sigma")
    )
    leagues: dict[int, dict] = {}
    for league, name, finished_at, mu, sigma in changes:
        entry = leagues.setdefault(league, {"league": league, "name": name, "points": []})
        skill = Skill(mu, sigma)
        entry["points"].append({"finished_at": finished_at, "mu": mu, "sigma": sigma, "ordinal": skill.ordinal})
    return list(leagues.values())


def player_kind_results(player: Player) -> list[dict]:
    """The player's deals by kind (R4) in the matches that count (confirmed, not withdrawn: as
    ``player_profile`` shows them): how many, their points (rulings counted) and the mean per deal."""
    counted = DealScore.objects.filter(player=player, match__confirmed=True, match__withdrawn=False)
    rows = {
        kind: (deals, points)
        for kind, deals, points in counted.values("kind")
        .annotate(deals=Count("id"), points=Sum("points"))
        .values_list("kind", "deals", "points")
        .order_by()
    }
    results = []
    for kind in Kind:
        deals, points = rows.get(kind.value, (0, 0))
        results.append(
            {"kind": kind.value, "deals": deals, "points": points, "mean": Fraction(points, deals) if deals else None}
        )
    return results
