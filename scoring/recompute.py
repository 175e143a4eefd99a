"""The standings recompute: what the Celery tasks (``scoring.tasks``), the outbox and the
``rebuild_standings`` command run. ``standings_recompute`` rebuilds a season's standings from the
per-deal read model of games (``DealScore``) in one transaction, under a lock on the league row
(ratings are league-wide, so two seasons of one league never rate at once) and on the season row:

1. *score* (``match_lines``): every season match of the league that ended since it was scored —
   its ``scored_version`` is empty: never scored, or marked again by ``season_match_ended`` when
   a ruling changed it — gets its ``MatchLine`` rows rewritten: one per player for a match that
   counts (``standings.counts``), none for an abandoned one or one a ruling re-opened;
2. *rate* (``rating_log``): the league's rating log (``RatedMatch``/``RatingChange``) keeps its
   longest prefix that is still right (the matches in finish order, none of them scored anew)
   and replays the rest with openskill (``rating.rate``) — usually it only appends the new
   matches;
3. *rank* (``standing_rows``): the season's tallies are summed in SQL, ranked by
   ``standings.rank`` and written (delete + insert).

Only the players whose lines or ratings changed are summed again; the others' sums are taken
from the season's current rows (a full recompute sums everyone). Other seasons of the league
whose lines or ratings changed on the way (a ruling, a match scored out of turn) get their rows
rewritten in the same transaction. Running it twice, or twice at once, gives the same rows: it
is a function of the event store alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from . import match_lines, outbox, rating_log, standing_rows
from .models import League, Season, SeasonMatch
from .signals import standings_changed


def season_match_ended(*, match_id) -> int | None:
    """A match ended (or a ruling changed its result): mark its season match to be scored again
    if it was scored already, and return its season (None: not a season match). Called inside
    the command's transaction (``scoring.receivers``), so the mark commits with the change."""
    SeasonMatch.objects.filter(match_id=match_id, scored_version__isnull=False).update(scored_version=None)
    return SeasonMatch.objects.filter(match_id=match_id).values_list("season_id", flat=True).first()


@dataclass(frozen=True)
class Recompute:
    season_id: int
    rows: int  # standing rows written
    scored: int  # season matches (re)scored
    rated: int  # matches (re)rated
    others: frozenset[int]  # other seasons whose lines or ratings changed (their rows rewritten too)


def standings_recompute(*, season_id: int, full: bool = False) -> Recompute | None:
    """Bring the season's standings (and its league's lines and ratings) up to date with the
    event store; ``full`` rescores and rerates the whole league from scratch. None when the
    season does not exist."""
    with transaction.atomic():
        league_id = Season.objects.filter(pk=season_id).values_list("league_id", flat=True).first()
        if league_id is None:
            return None
        League.objects.select_for_update().filter(pk=league_id).values_list("pk").get()  # ratings: one at a time
        season = Season.objects.select_for_update().get(pk=season_id)
        outbox.take(season_id)  # the requests this run answers: deleted with its commit, kept if it dies
        scored = match_lines.score(league_id, full)
        rated, rerated = rating_log.rate(league_id, scored, full)
        touched = _merge(scored.players, rerated)  # season -> players whose lines or ratings changed
        rows = standing_rows.write(season, None if full else touched.get(season.pk, set()))
        others = frozenset(touched) - {season.pk}
        for other in Season.objects.select_for_update().filter(pk__in=others).order_by("pk"):
            standing_rows.write(other, touched[other.pk])
        Season.objects.filter(pk__in=others).update(computed_at=timezone.now())
        Season.objects.filter(pk=season.pk).update(computed_at=timezone.now(), recomputes=F("recomputes") + 1)
        # webhooks announce it: the season asked for (after a full rebuild only if it changed) and the others
        rewritten = others | ({season.pk} if not full or season.pk in touched else set())
        standings_changed.send(sender=Season, season_ids=sorted(rewritten))
    return Recompute(season_id, rows, scored.count, rated, others)


def _merge(*maps: dict[int, set]) -> dict[int, set]:
    merged: dict[int, set] = {}
    for one in maps:
        for key, values in one.items():
            merged.setdefault(key, set()).update(values)
    return merged


def standings_rebuild(*, season_ids: Iterable[int], progress: Callable[[int], None] | None = None) -> int:
    """A full recompute of each season (its league's lines and ratings rebuilt from scratch the
    first time a league comes up); ``progress`` is called after each. Returns the count."""
    seasons = list(
        Season.objects.filter(pk__in=list(season_ids)).order_by("league_id", "pk").values_list("pk", "league_id")
    )
    leagues_done: set[int] = set()
    for season_id, league_id in seasons:
        standings_recompute(season_id=season_id, full=league_id not in leagues_done)
        leagues_done.add(league_id)
        if progress is not None:
            progress(season_id)
    return len(seasons)
