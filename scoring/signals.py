"""Signals scoring sends; other apps listen (webhooks).

- ``standings_changed`` is sent *inside* the transaction of a standings recompute, after the
  rows are written (``season_ids``: the seasons whose standings it rewrote — the season asked
  for, unless a full rebuild found nothing changed in it, and every other season of the league
  whose lines or ratings changed). A receiver that writes commits or rolls back with them.
"""

from django.dispatch import Signal

standings_changed = Signal()
