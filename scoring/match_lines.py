"""Stage 1 of the standings recompute (``scoring.recompute``): each season match of a league that
ended since it was scored gets its ``MatchLine`` rows rewritten from the per-deal read model of
games (``DealScore``) — one per player for a match that counts (``standings.counts``), none for
an abandoned, unconfirmed or withdrawn one, or one a ruling re-opened."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Min, OuterRef, Q, Subquery, Sum

from games.domain.projections import SIGN_OFF_TYPES
from games.models import DealScore, Match, MatchEvent

from . import rating as ratings
from .bulk import chunks, insert_rows
from .models import MatchLine, RatedMatch, SeasonMatch
from .selectors import LINE_RESULT
from .standings import counts


@dataclass
class Scored:
    count: int = 0  # season matches scored
    players: dict = field(default_factory=dict)  # season -> players whose lines changed
    finished: list = field(default_factory=list)  # (finished_at, season match id) of those now finished
    placed: dict = field(default_factory=dict)  # season match id -> [(player, place)] per seat, as written
    unrated_from: int | None = None  # the first log position whose match was scored again


LINE_FIELDS = ("season_match", "season", "player", "seat", *LINE_RESULT)  # a MatchLine row, in this order


def score(league_id: int, full: bool) -> Scored:
    """(Re)write the lines of the league's season matches that ended, or were re-opened by a
    ruling, since they were scored (all of them when ``full``): a finished match gets one line
    per player, an abandoned or re-opened one none. Each season match row is updated (so
    locked) *before* its match's status and deals are read: a ruling committed after that
    marks it again (``season_match_ended``) only once this transaction is over, so no change
    slips between the version recorded and the lines written."""
    due = ~Q(match__status=Match.Status.IN_PROGRESS) | Q(finished_at__isnull=False)  # or re-opened by a ruling
    todo = SeasonMatch.objects.filter(due, season__league_id=league_id)
    if not full:
        todo = todo.filter(scored_version__isnull=True)
    todo = list(todo.order_by("pk").values_list("pk", flat=True))
    scored = Scored(count=len(todo))
    for chunk in chunks(todo):
        _score_chunk(chunk, scored)
    return scored


def _date_by_play(finished: dict[int, Any]) -> None:
    """A match filed with its date of play (``played_on``: a paper sheet filed later) is dated by it,
    at 00:00 UTC, in standings (``last_played``) and the rating order; others by their last event."""
    played = SeasonMatch.objects.filter(pk__in=list(finished), match__played_on__isnull=False).values_list(
        "pk", "match__played_on"
    )
    for sm_id, played_on in played:
        moment = datetime.datetime.combine(played_on, datetime.time(0, 0), tzinfo=datetime.UTC)
        SeasonMatch.objects.filter(pk=sm_id).update(finished_at=moment)


def _score_chunk(ids: list[int], scored: Scored) -> None:
    version = Subquery(Match.objects.filter(pk=OuterRef("match_id")).values("version")[:1])
    SeasonMatch.objects.filter(pk__in=ids).update(scored_version=version)  # locks them: see score
    current = list(
        SeasonMatch.objects.filter(pk__in=ids).values_list(
            "pk", "season_id", "match_id", "match__status", "match__confirmed", "match__withdrawn"
        )
    )
    finished = {
        sm_id: match_id
        for sm_id, _, match_id, status, confirmed, withdrawn in current
        if counts(status=status, confirmed=confirmed, withdrawn=withdrawn)
    }  # those that count
    season_of = {sm_id: season_id for sm_id, season_id, *_ in current}
    # the last event of play or ruling: signing the sheet or withdrawing it does not move a match in the rating order
    last_event = Subquery(
        MatchEvent.objects.filter(match_id=OuterRef("match_id"))
        .exclude(type__in=SIGN_OFF_TYPES)
        .order_by("-seq")
        .values("created_at")[:1]
    )
    SeasonMatch.objects.filter(pk__in=list(finished)).update(finished_at=last_event)
    _date_by_play(finished)
    SeasonMatch.objects.filter(pk__in=[i for i in ids if i not in finished]).update(finished_at=None)
    ended = dict(SeasonMatch.objects.filter(pk__in=list(finished)).values_list("pk", "finished_at"))
    sm_of_match = {match_id: sm_id for sm_id, match_id in finished.items()}
    per_player = (
        DealScore.objects.filter(match_id__in=list(sm_of_match))
        .values("match_id", "player_id", "seat")
        .annotate(
            total=Sum("points"),
            deals=Count("id"),
            kreski=Sum("kreski"),
            max_deals=Count("id", filter=Q(kind="rozbojnik", tricks=13)),
            zero_odgrywki=Count("id", filter=Q(kind="odgrywka", tricks=0)),
        )
        .order_by("match_id", "seat")
        .values_list("match_id", "player_id", "seat", "total", "deals", "kreski", "max_deals", "zero_odgrywki")
    )
    by_match: dict[Any, list[tuple]] = {}
    for match_id, *values in per_player:
        by_match.setdefault(match_id, []).append(values)
    new: dict[int, tuple] = {}
    for match_id, players in by_match.items():
        sm_id = sm_of_match[match_id]
        places = ratings.placements([total for _, _, total, *_ in players])
        new[sm_id] = tuple(
            (sm_id, season_of[sm_id], *values, place, ended[sm_id]) for values, place in zip(players, places)
        )
        scored.placed[sm_id] = [(player, place) for (player, *_), place in zip(players, places)]
    old: dict[int, tuple] = {}
    for line in (
        MatchLine.objects.filter(season_match_id__in=ids)
        .order_by("season_match_id", "seat")
        .values_list(*[f"{name}_id" if name in ("season_match", "season", "player") else name for name in LINE_FIELDS])
    ):
        old[line[0]] = old.get(line[0], ()) + (line,)
    changed = [sm_id for sm_id in ids if old.get(sm_id) != new.get(sm_id)]
    for sm_id in changed:
        scored.players.setdefault(season_of[sm_id], set()).update(
            line[2] for line in old.get(sm_id, ()) + new.get(sm_id, ())
        )
    rated = set(RatedMatch.objects.filter(season_match_id__in=list(finished)).values_list("season_match_id", flat=True))
    scored.finished += [(ended[sm_id], sm_id) for sm_id in finished if sm_id not in rated]
    MatchLine.objects.filter(season_match_id__in=ids).delete()
    insert_rows(MatchLine, LINE_FIELDS, [line for lines in new.values() for line in lines])
    # a match scored anew is rated anew, from its place in the log on
    first = RatedMatch.objects.filter(season_match_id__in=changed).aggregate(first=Min("position"))["first"]
    if first is not None:
        scored.unrated_from = first if scored.unrated_from is None else min(first, scored.unrated_from)
