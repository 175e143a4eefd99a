"""What the spreadsheet downloads hold (issue 25, item 3): each as a ``Table`` — a sheet's title,
its columns (a header through gettext and the kind of value) and its rows of typed values
(numbers as numbers, dates as dates, booleans as booleans). ``scoring.workbooks`` writes them as
XLSX; the standings are also the rows of the CSV.

The standings are built from the JSON rows (``GET /seasons/{id}/standings/``), so a download
holds the same values as the JSON; the season's matches and deals and an evening's results are
read here (selectors: nothing is written).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Sum
from django.utils.translation import gettext_lazy as _

from games.models import DealScore, Match
from printing import formats

from .models import SeasonMatch

SEATS = ("N", "E", "S", "W")


@dataclass(frozen=True)
class Column:
    """A column: its header (lazy: translated when written) and the kind of its values — text,
    int, float, date, datetime or bool; ``decimals`` for a float's shown places."""

    header: Any
    kind: str = "text"
    decimals: int = 2


@dataclass(frozen=True)
class Table:
    title: Any
    columns: Sequence[Column]
    rows: list[list[Any]] = field(default_factory=list)


# --- the standings -----------------------------------------------------------------------------------

STANDING_COLUMNS = (  # (JSON key, column): the CSV's machine-readable columns, in its order
    ("position", Column(_("Place"), "int")),
    ("player", Column(_("Player"))),
    ("ranked", Column(_("Ranked"), "bool")),
    ("matches", Column(_("Matches"), "int")),
    ("wins", Column(_("Wins"), "int")),
    ("first", Column(_("1st places"), "int")),
    ("second", Column(_("2nd places"), "int")),
    ("third", Column(_("3rd places"), "int")),
    ("fourth", Column(_("4th places"), "int")),
    ("deals", Column(_("Deals"), "int")),
    ("balance", Column(_("Balance"), "int")),
    ("balance_per_match", Column(_("Balance per match"), "float")),
    ("best_match", Column(_("Best match"), "int")),
    ("worst_match", Column(_("Worst match"), "int")),
    ("kreski", Column(_("Kreski"), "int")),
    ("max_deals", Column(_("Max deals (R21)"), "int")),
    ("zero_odgrywki", Column(_("Odgrywki with no trick (R22)"), "int")),
    ("mu", Column(_("Rating μ"), "float", 3)),
    ("sigma", Column(_("Rating σ"), "float", 3)),
    ("ordinal", Column(_("Rating μ − 3σ"), "float", 3)),
    ("provisional", Column(_("Provisional rating"), "bool")),
    ("last_played", Column(_("Last played"), "datetime")),
)
STANDING_KEYS = [key for key, _column in STANDING_COLUMNS]


def standing_values(row: dict) -> list[Any]:
    """One JSON standings row flattened to ``STANDING_KEYS`` (``placements`` as first…fourth,
    ``rating`` as mu, sigma, ordinal), values as the JSON has them."""
    flat = dict(row)
    flat.update(zip(("first", "second", "third", "fourth"), row["placements"]))
    flat.update(row["rating"])
    return [flat[key] for key in STANDING_KEYS]


def standings_table(rows: list[dict]) -> Table:
    """The JSON standings rows as a table, the timestamps parsed back to datetimes."""
    return Table(
        _("Standings"),
        [column for _key, column in STANDING_COLUMNS],
        [[typed(value, column) for value, (_k, column) in zip(standing_values(row), STANDING_COLUMNS)] for row in rows],
    )


def typed(value: Any, column: Column) -> Any:
    """A JSON value as its column's kind: an ISO timestamp or date string back to a datetime or date."""
    if isinstance(value, str) and column.kind == "datetime":
        return datetime.datetime.fromisoformat(value)
    if isinstance(value, str) and column.kind == "date":
        return datetime.date.fromisoformat(value)
    return value


# --- a season's matches and deals ----------------------------------------------------------------------

MATCH_COLUMNS = (
    Column(_("Match")),
    Column(_("Played on"), "date"),
    Column(_("Evening"), "date"),
    Column(_("Round"), "int"),
    Column(_("Table"), "int"),
    Column(_("Status")),
    *(Column(seat) for seat in SEATS),
    Column(_("Points N"), "int"),
    Column(_("Points E"), "int"),
    Column(_("Points S"), "int"),
    Column(_("Points W"), "int"),
    Column(_("Deals"), "int"),
    Column(_("Confirmed"), "bool"),
    Column(_("Withdrawn"), "bool"),
)
DEAL_COLUMNS = (
    Column(_("Match")),
    Column(_("Deal"), "int"),
    Column(_("Kind")),
    Column(_("Seat")),
    Column(_("Player")),
    Column(_("Tricks"), "int"),
    Column(_("Points"), "int"),
    Column(_("Kreski"), "int"),
)


def season_match_tables(season_id: int) -> list[Table]:
    """The season's matches (one row each, in the order they were filed: players and points by
    seat, finished deals, confirmed, withdrawn) and their finished deals (one row per deal and
    seat), as a club member reads them in the records export."""
    filed = (
        SeasonMatch.objects.filter(season_id=season_id)
        .select_related("match__north", "match__east", "match__south", "match__west", "evening_table__round__evening")
        .order_by("pk")
    )
    points = match_points(season_id)
    matches = [match_row(one, points.get(one.match_id, {})) for one in filed]
    deals = (
        DealScore.objects.filter(match__season_match__season_id=season_id)
        .select_related("player")
        .order_by("match__season_match__pk", "number", "seat")
    )
    deal_rows = [
        [
            str(d.match_id),
            d.number,
            formats.kind_label(d.kind),
            d.seat,
            formats.person(d.player),
            d.tricks,
            d.points,
            d.kreski,
        ]
        for d in deals
    ]
    return [Table(_("Matches"), MATCH_COLUMNS, matches), Table(_("Deals"), DEAL_COLUMNS, deal_rows)]


def match_points(season_id: int) -> dict:
    """match id → seat → (Σ points, finished deals) over the season's finished deals."""
    found: dict = {}
    rows = (
        DealScore.objects.filter(match__season_match__season_id=season_id)
        .values("match_id", "seat")
        .annotate(total=Sum("points"), deals=Count("id"))
        .values_list("match_id", "seat", "total", "deals")
        .order_by()
    )
    for match_id, seat, total, deals in rows:
        found.setdefault(match_id, {})[seat] = (total, deals)
    return found


def match_row(filed: SeasonMatch, points: dict) -> list[Any]:
    match: Match = filed.match
    table = getattr(filed, "evening_table", None)
    return [
        str(match.pk),
        match.played_on or match.created_at,  # no date of play on the record: the day it was filed
        table.round.evening.date if table else None,
        table.round.number if table else None,
        table.number if table else None,
        match.get_status_display(),
        *(formats.person(player) for player in match.seat_players()),
        *(points.get(seat, (0, 0))[0] for seat in SEATS),
        max((deals for _total, deals in points.values()), default=0),
        match.confirmed,
        match.withdrawn,
    ]


# --- an evening's results ----------------------------------------------------------------------------

RANKING_COLUMNS = (
    Column(_("Place"), "int"),
    Column(_("Player")),
    Column(_("Tables"), "int"),
    Column(_("Points"), "int"),
)
RESULT_COLUMNS = (
    Column(_("Round"), "int"),
    Column(_("Table"), "int"),
    Column(_("Seat")),
    Column(_("Player")),
    Column(_("Points"), "int"),
    Column(_("Status")),
    Column(_("Confirmed"), "bool"),
    Column(_("Withdrawn"), "bool"),
)


def evening_results_tables(results: dict) -> list[Table]:
    """``scoring.evening_selectors.evening_results`` as two tables: the evening's ranking, and
    each round's tables one row per seat."""
    ranking = [[place, row["name"], row["tables"], row["points"]] for place, row in enumerate(results["ranking"], 1)]
    seats = [
        [
            one["number"],
            table["number"],
            seat["seat"],
            seat["name"],
            seat["points"],
            table["match"].get_status_display(),
            table["match"].confirmed,
            table["match"].withdrawn,
        ]
        for one in results["rounds"]
        for table in one["tables"]
        for seat in table["seats"]
    ]
    return [Table(_("Ranking"), RANKING_COLUMNS, ranking), Table(_("Tables"), RESULT_COLUMNS, seats)]
