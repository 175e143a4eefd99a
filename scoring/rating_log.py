"""Stage 2 of the standings recompute (``scoring.recompute``): the league's rating log
(``RatedMatch``/``RatingChange``) keeps its longest prefix that is still right — the matches in
finish order, none of them scored anew — and the rest is replayed with openskill
(``rating.rate``); usually only the new matches are appended. ``Rating`` holds each player's
current rating in the league."""

from __future__ import annotations

from django.db.models import Count, Max, Q

from . import rating as ratings
from .bulk import CHUNK, chunks, insert_rows
from .match_lines import Scored
from .models import MatchLine, RatedMatch, Rating, RatingChange, SeasonMatch


def rate(league_id: int, scored: Scored, full: bool) -> tuple[int, dict[int, set]]:
    """Bring the league's rating log in line with its finished matches in finish order: keep the
    longest prefix still right, replay the rest (normally: append the new matches). Returns how
    many matches were rated, and per season the players whose rating changes differ from before."""
    log = RatedMatch.objects.filter(league_id=league_id)
    logged, top = log.aggregate(n=Count("pk"), top=Max("position")).values()
    start = 0 if full else _stale_from(league_id, scored, logged, top)
    if start == logged and not scored.finished:
        return 0, {}
    after = Q()
    if start:
        boundary = log.filter(position=start - 1).values_list("season_match__finished_at", "season_match_id").get()
        after = Q(finished_at__gt=boundary[0]) | Q(finished_at=boundary[0], pk__gt=boundary[1])
    segment = list(
        SeasonMatch.objects.filter(after, season__league_id=league_id, finished_at__isnull=False)
        .order_by("finished_at", "pk")
        .values_list("pk", "season_id")
    )
    replaced = RatingChange.objects.filter(league_id=league_id, position__gte=start)
    old = {
        (sm, player): (mu, sigma, season)
        for sm, player, mu, sigma, season in replaced.values_list(
            "season_match_id", "player_id", "mu", "sigma", "season_id"
        )
    }
    placed = {sm_id: scored.placed[sm_id] for sm_id, _ in segment if sm_id in scored.placed}
    for chunk in chunks([sm_id for sm_id, _ in segment if sm_id not in placed]):  # lines scored before
        for sm_id, player, place in (
            MatchLine.objects.filter(season_match_id__in=chunk)
            .order_by("seat")
            .values_list("season_match_id", "player_id", "place")
        ):
            placed.setdefault(sm_id, []).append((player, place))
    touched = {player for _, player in old} | {player for seats in placed.values() for player, _ in seats}
    skills, counts = _skills_before(league_id, start, logged, touched)
    replaced.delete()
    log.filter(position__gte=start).delete()
    changes, changed = [], {}
    for position, (sm_id, season_id) in enumerate(segment, start=start):
        for player, skill in ratings.rate(skills, placed[sm_id]).items():
            skills[player] = skill
            counts[player] += 1
            changes.append((league_id, season_id, sm_id, position, player, skill.mu, skill.sigma))
            if old.pop((sm_id, player), None) != (skill.mu, skill.sigma, season_id):
                changed.setdefault(season_id, set()).add(player)
    for (_, player), (_, _, season_id) in old.items():  # changes that are gone
        changed.setdefault(season_id, set()).add(player)
    insert_rows(
        RatedMatch,
        ("league", "season_match", "position"),
        [(league_id, sm_id, position) for position, (sm_id, _) in enumerate(segment, start=start)],
    )
    insert_rows(RatingChange, ("league", "season", "season_match", "position", "player", "mu", "sigma"), changes)
    _write_ratings(league_id, skills, counts)
    return len(segment), changed


def _stale_from(league_id: int, scored: Scored, logged: int, top: int | None) -> int:
    """The first log position that no longer holds the right match: a gap (a match taken out),
    a match scored anew, or where the earliest newly finished match belongs (normally the end)."""
    start = logged if top is None or top + 1 == logged else _first_gap(league_id)
    if scored.unrated_from is not None:
        start = min(start, scored.unrated_from)
    if scored.finished and start:
        first_at, first_id = min(scored.finished)
        last_at, last_id = (
            RatedMatch.objects.filter(league_id=league_id, position=start - 1)
            .values_list("season_match__finished_at", "season_match_id")
            .get()
        )
        if (last_at, last_id) > (first_at, first_id):  # it finished before matches already rated: rare
            start = RatedMatch.objects.filter(
                Q(season_match__finished_at__lt=first_at)
                | Q(season_match__finished_at=first_at, season_match_id__lt=first_id),
                league_id=league_id,
                position__lt=start,
            ).count()
    return start


def _first_gap(league_id: int) -> int:
    positions = RatedMatch.objects.filter(league_id=league_id).order_by("position").values_list("position", flat=True)
    return next((i for i, position in enumerate(positions) if position != i), len(positions))


def _skills_before(league_id: int, start: int, logged: int, players: set[int]):
    """The skill and rated-match count of each of ``players`` before log position ``start``:
    from the current ratings when only new matches are appended, else from the log's earlier
    changes. A player with none has no skill (``rating.INITIAL`` applies) and a count of 0."""
    skills: dict[int, ratings.Skill] = {}
    counts = dict.fromkeys(players, 0)
    if start == logged:
        for player, mu, sigma, matches in Rating.objects.filter(
            league_id=league_id, player_id__in=list(players)
        ).values_list("player_id", "mu", "sigma", "matches"):
            skills[player], counts[player] = ratings.Skill(mu, sigma), matches
        return skills, counts
    earlier = RatingChange.objects.filter(league_id=league_id, position__lt=start, player_id__in=list(players))
    for player, mu, sigma in earlier.order_by("position").values_list("player_id", "mu", "sigma"):
        skills[player] = ratings.Skill(mu, sigma)
        counts[player] += 1
    return skills, counts


def _write_ratings(league_id: int, skills: dict, counts: dict) -> None:
    """Upsert the current rating of each player counted; drop those left with no match."""
    gone = [player for player, count in counts.items() if count == 0]
    Rating.objects.filter(league_id=league_id, player_id__in=gone).delete()
    Rating.objects.bulk_create(
        [
            Rating(
                league_id=league_id,
                player_id=player,
                matches=count,
                **{name: getattr(skills[player], name) for name in ratings.STORED},
            )
            for player, count in counts.items()
            if count
        ],
        update_conflicts=True,
        unique_fields=["league", "player"],
        update_fields=[*ratings.STORED, "matches"],
        batch_size=CHUNK,
    )
