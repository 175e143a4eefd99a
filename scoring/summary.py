"""The end-of-season summary: the champion, the final table, and the season's records (most
kreski, Max deals, the best single match, the most improved rating). Reads only: everything
comes from the standings read models (``StandingRow``, ``MatchLine``, ``RatingChange``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Max, Min

from .models import MatchLine, RatingChange, Season, SeasonStatusChange, StandingRow
from .rating import INITIAL


def season_summary(*, season: Season) -> dict[str, Any]:
    rows = list(StandingRow.objects.filter(season=season).select_related("player").order_by("order"))
    ranked = [row for row in rows if row.ranked]
    return {
        "season": season,
        "final": season.status == Season.Status.CLOSED,
        "champions": [row.player.username for row in ranked if row.position == 1],
        "table": rows,
        "most_kreski": _leaders(rows, "kreski"),
        "max_deals": [
            {"player": row.player.username, "count": row.max_deals}
            for row in sorted(rows, key=lambda r: (-r.max_deals, r.order))
            if row.max_deals
        ],
        "best_match": _best_match(season),
        "most_improved": _most_improved(season),
        "status_changes": list(SeasonStatusChange.objects.filter(season=season).order_by("created_at", "id")),
    }


def _leaders(rows: list[StandingRow], field: str) -> dict[str, Any] | None:
    """The players with the season's highest ``field`` (ties all named), or None if it is 0."""
    top = max((getattr(row, field) for row in rows), default=0)
    if not top:
        return None
    return {"players": [row.player.username for row in rows if getattr(row, field) == top], "count": top}


def _best_match(season: Season) -> dict[str, Any] | None:
    """The highest total of one player in one match (the earliest such, if tied)."""
    line = (
        MatchLine.objects.filter(season=season)
        .select_related("player", "season_match")
        .order_by("-total", "finished_at", "season_match_id")
        .first()
    )
    if line is None:
        return None
    return {
        "player": line.player.username,
        "total": line.total,
        "match": line.season_match.match_id,
        "finished_at": line.finished_at,
    }


def _most_improved(season: Season) -> dict[str, Any] | None:
    """The player whose rating ordinal (μ − 3σ) rose most over the season: from before his
    first season match (his league rating then, or the initial one) to after his last."""
    changes = RatingChange.objects.filter(season=season)
    spans = changes.values("player").annotate(first=Min("position"), last=Max("position")).order_by("player")
    best = None
    for span in spans:
        player = span["player"]
        after = changes.filter(player_id=player, position=span["last"]).values_list("mu", "sigma").get()
        before = (
            RatingChange.objects.filter(league_id=season.league_id, player_id=player, position__lt=span["first"])
            .order_by("-position")
            .values_list("mu", "sigma")
            .first()
        ) or (INITIAL.mu, INITIAL.sigma)
        gain = (after[0] - 3 * after[1]) - (before[0] - 3 * before[1])
        if best is None or gain > best[0] + 1e-9:
            best = (gain, player, before, after)
    if best is None:
        return None
    gain, player, before, after = best
    name = StandingRow.objects.filter(season=season, player_id=player).values_list("player__username", flat=True)
    return {
        "player": name.first(),
        "ordinal_before": round(before[0] - 3 * before[1], 3),
        "ordinal_after": round(after[0] - 3 * after[1], 3),
        "gain": round(gain, 3),
    }
