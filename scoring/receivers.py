"""Signal receivers: a season match's result changed → its season's standings are recomputed.

``match_result_changing`` (inside the command's transaction) marks the season match to be scored
again and writes the outbox row, both committing with the events; ``match_result_changed``
(after the commit) dispatches the recompute. A recompute must not be lost, a message may be.
"""

from __future__ import annotations

from . import outbox, recompute
from .models import SeasonMatch


def on_match_result_changing(sender, *, match_id, status, **kwargs) -> None:
    season_id = recompute.season_match_ended(match_id=match_id)
    if season_id is not None:
        outbox.request(season_id)


def on_match_result_changed(sender, *, match_id, status, **kwargs) -> None:
    season_id = SeasonMatch.objects.filter(match_id=match_id).values_list("season_id", flat=True).first()
    if season_id is not None:
        outbox.dispatch(season_id)  # a failure is logged: the match is committed, the outbox keeps its row
