"""Signal receivers: they write deliveries inside the transaction of what they announce.

``events_appended`` runs on every card play, so ``on_events_appended`` returns before any query
unless the events can announce something (``events.may_matter``).
"""

from __future__ import annotations

from django.db.models.signals import post_save

from games.domain.signals import events_appended
from scoring.models import SeasonMatch
from scoring.signals import standings_changed

from . import services
from .events import may_matter


def on_events_appended(sender, *, match, events: list, result=None, **kwargs) -> None:
    """``result``: the command's ``games.write.results.CommandResult`` — the payloads are built from what
    the command produced (its events, its projection), not read back."""
    projection = result.projection if result is not None else None
    if may_matter(match, events, projection):
        services.match_events_announce(match=match, events_appended=events, projection=projection)


def on_season_match_created(sender, *, instance: SeasonMatch, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        services.season_match_announce(season_match=instance)


def on_standings_changed(sender, *, season_ids, **kwargs) -> None:
    services.standings_announce(season_ids=season_ids)


def connect() -> None:
    events_appended.connect(on_events_appended, dispatch_uid="webhooks.events_appended")
    post_save.connect(on_season_match_created, sender=SeasonMatch, dispatch_uid="webhooks.season_match_created")
    standings_changed.connect(on_standings_changed, dispatch_uid="webhooks.standings_changed")
