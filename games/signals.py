"""Signals the match commands send; other apps listen (data flows out of games, never in).

``match_result_changed`` is sent after the transaction commits, whenever a command leaves a
match finished or abandoned (``match_id``: the match's UUID, ``status``: its new status) — an
arbiter's ruling on a finished or abandoned match included — and when a ruling voids the last
deal of a finished match, re-opening it (``status`` then ``in_progress``; games/disputes.py).
"""

from django.dispatch import Signal

match_result_changed = Signal()
