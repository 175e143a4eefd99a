"""The read model of the sign-offs: the summary's ``confirmations`` and ``withdrawal``, a fold
over the stream. Sign-offs change no game state: ``projections.apply`` passes them by."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.domain import confirmation
from games.domain import event_types as kinds
from games.domain.chain import timestamp
from games.domain.projections import NO_CHANGE
from games.domain.stream import Recorded

SIGN_OFFS = (kinds.ResultConfirmed, kinds.MatchWithdrawn, kinds.MatchReinstated)
SIGN_OFF_TYPES = tuple(kind.TYPE for kind in SIGN_OFFS)  # for queries on the log (scoring's match lines)
# The events that never change a finished result: a dispute's other events are not in the log.
RESULT_KEEPING = (*SIGN_OFFS, kinds.HandsRevealed, kinds.MatchAbandoned)


def sign_offs_of(stream: Iterable[Recorded], earlier: dict[str, Any] | None = None) -> dict[str, Any]:
    """The summary's ``confirmations`` (each ``result_confirmed``: ``seat``, ``by``, ``result``,
    ``seq``, ``time``) and ``withdrawal`` (the ``match_withdrawn`` in force: ``reason``, ``by``,
    ``seq``, ``time``; None once reinstated), from ``earlier`` (a stored summary) and ``stream``.

    A signature stored before signatures named their result signed the result in force then: one
    in ``earlier`` gets ``earlier``'s result; one in ``stream`` followed by an event that may
    change the result (a deal's, a ruling other than ``no_change``) gets ``SUPERSEDED``; the
    others sign the current result (``confirmation.signed_now``)."""
    earlier = earlier or {}
    confirmations = [dict(c) for c in earlier.get("confirmations") or []]
    if any("result" not in c for c in confirmations):  # digested only then: most rewrites end a deal
        signed_before = confirmation.result_of(earlier)
        confirmations = [{"result": signed_before, **c} for c in confirmations]
    withdrawal = earlier.get("withdrawal")
    for item in stream:
        event = item.event
        if not isinstance(event, SIGN_OFFS):
            if may_change_the_result(event):
                confirmations = [{"result": confirmation.SUPERSEDED, **c} for c in confirmations]
            continue
        mark = {**item.event.fields(), "seq": item.seq, "time": timestamp(item.recorded_at)}
        if isinstance(event, kinds.ResultConfirmed):
            confirmations.append(mark)
        else:
            withdrawal = mark if isinstance(event, kinds.MatchWithdrawn) else None
    return {"confirmations": confirmations, "withdrawal": withdrawal}


def may_change_the_result(event: kinds.Event) -> bool:
    if isinstance(event, kinds.RulingRecorded):
        return event.ruling != NO_CHANGE
    return not isinstance(event, RESULT_KEEPING)
