"""Stage 3 of the standings recompute (``scoring.recompute``): a season's tallies summed in SQL
(``selectors.season_tallies``), ranked by ``standings.rank`` and written as its ``StandingRow``
rows (delete + insert)."""

from __future__ import annotations

from functools import partial

from . import rating as ratings
from . import selectors
from .models import Season, StandingRow
from .standings import rank


def write(season: Season, changed: set | None) -> int:
    """Rank the season and rewrite its rows. Only the ``changed`` players are summed again (all
    of them when None, or when the season has no rows yet); the others' sums, names and ratings
    are those of their current rows."""
    kept = {} if changed is None else selectors.standing_tallies(season.pk)
    if changed is not None and not kept:
        changed = None
    kept = {player: line for player, line in kept.items() if player not in (changed or ())}
    tallies = kept | {
        tally.player: (tally, name, skill)
        for tally, name, skill in selectors.season_tallies(season.pk, players=changed)
    }
    names = {player: name for player, (_, name, _) in tallies.items()}
    skills = {player: skill for player, (_, _, skill) in tallies.items()}
    rows = rank(
        [tally for tally, _, _ in tallies.values()],
        partial(selectors.season_lines, season.pk),
        min_matches=season.min_matches,
        skills=skills,
        names=names,
    )
    StandingRow.objects.filter(season=season).delete()
    StandingRow.objects.bulk_create(
        [
            StandingRow(
                season=season,
                player_id=row.tally.player,
                order=order,
                position=row.position,
                ranked=row.ranked,
                balance_per_match=round(float(row.tally.per_match), 2),
                **{name: getattr(row.tally, name) for name in selectors.TALLY_SUMS},
                **{name: getattr(row.skill, name) for name in ratings.STORED},
            )
            for order, row in enumerate(rows, start=1)
        ]
    )
    return len(rows)
