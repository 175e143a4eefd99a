"""Read side of the live views (``api/streams.py``): what changed since a client last looked.

Plain synchronous selectors like those of ``selectors.py`` (which decides what a viewer may
see; nothing here decides it again). The streams call them in short bursts between waits and
never keep a transaction open across a wait.

On PostgreSQL the write side has one piece here too: ``moved_notice``, the notification a
command sends with its events, that tells every process's listener (``api/streams.py``) which
match it moved (docs/live-updates.md, "How a process hears of a commit").

Two feeds:

- a match's events (``match_batch``): the events after a ``seq``, redacted as ``events/`` does;
- a player's own feed (``feed_start``, ``feed_next``): notices derived from the events of the
  matches he sits in — ``match_started``, ``your_turn``, ``lead_decision`` (an offer awaits his
  decision as lead holder), ``deal_due`` (between deals, to the seat that deals next) and
  ``match_finished``. Each notice's ``id`` is the primary key of
  the ``MatchEvent`` that caused it: one global, increasing id a client resumes from.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import F, Q, QuerySet

from games.engine import Seat
from games.models import Match, MatchEvent, Player
from games.read import selectors
from games.read.selectors import Viewer

T = MatchEvent.Type
IN_PROGRESS = Match.Status.IN_PROGRESS
BATCH = 200  # events per read; a stream that is further behind reads again at once


# --- telling the listeners ---------------------------------------------------------------------

CHANNEL = "kierki_live"  # the PostgreSQL notification channel api/streams.py listens on


def notifying() -> bool:
    """Whether commands announce the matches they move (PostgreSQL, ``LIVE_NOTIFY``); else the live
    views poll."""
    return settings.LIVE_NOTIFY and connection.vendor == "postgresql"


def moved_notice(match: Match) -> tuple[str, str] | None:
    """The ``pg_notify(channel, payload)`` that tells every process's listener a command moved
    ``match`` (and the players seated in it), or None when commands do not announce. The command
    sends it in the statement that appends its events (``games.sql.events_append``), so
    PostgreSQL delivers it only if, and once, the events are committed, in commit order. No
    query: the locked match carries its seats."""
    if not notifying():
        return None
    return CHANNEL, moved_payload(match.pk, match.seat_player_ids())


def moved_payload(match_id: Any, player_ids: Iterable[int]) -> str:
    return " ".join([str(match_id), *map(str, player_ids)])


def moved_parse(payload: str) -> tuple[uuid.UUID, frozenset[int]]:
    """The match and the ids of its seated players, from ``moved_payload``'s text."""
    match_id, *players = payload.split()
    return uuid.UUID(match_id), frozenset(map(int, players))


def player_id(*, user) -> int | None:
    """The id of ``user``'s player profile, if he has one (a feed's notifications are by player)."""
    player = _player(user)
    return None if player is None else player.pk


# --- one match ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    events: list[dict[str, Any]]  # as selectors.match_events gives them
    version: int  # the match's version when read
    status: str

    @property
    def over(self) -> bool:
        return self.status != IN_PROGRESS


def match_batch(*, match_id: Any, user, after: int, limit: int = BATCH) -> Batch:
    """The events after seq ``after`` that ``user`` may see (``NotFound`` as for ``events/``), at most
    ``limit``, none past the version read with the match: the redaction is decided from that
    version's projection, so it must cover every event returned."""
    match, viewer = selectors.match_get(match_id=match_id, user=user)
    count = min(limit, match.version - after)
    events = selectors.match_events(match=match, viewer=viewer, after=after, limit=count)["events"] if count > 0 else []
    return Batch(events, match.version, match.status)


def match_version(*, match_id: Any, user) -> tuple[int, str]:
    """The match's version and status, if ``user`` may read it (else ``NotFound``)."""
    match, _ = selectors.match_get(match_id=match_id, user=user, detail=False)
    return match.version, match.status


def match_versions(match_ids: Iterable[uuid.UUID], *, in_progress: bool) -> dict[uuid.UUID, tuple[int, str]]:
    """Version and status of the given matches, and of every match in progress if asked (one query)."""
    wanted = Q(pk__in=list(match_ids))
    if in_progress:
        wanted |= Q(status=IN_PROGRESS)
    return {
        pk: (version, status)
        for pk, version, status in Match.objects.filter(wanted).values_list("pk", "version", "status")
    }


def seated_users(match_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, frozenset[int]]:
    """The ids of the users seated in each match (guests have none)."""
    fields = [f"{name}__user_id" for name in Match.SEAT_FIELDS]
    return {
        pk: frozenset(u for u in users if u is not None)
        for pk, *users in Match.objects.filter(pk__in=list(match_ids)).values_list("pk", *fields)
    }


# --- a player's own feed ------------------------------------------------------------------------


@dataclass(frozen=True)
class Notice:
    id: int  # the MatchEvent primary key that caused it
    type: str  # match_started | your_turn | lead_decision | deal_due | match_finished
    data: dict[str, Any]


@dataclass
class Feed:
    notices: list[Notice] = field(default_factory=list)
    seen: dict[uuid.UUID, int] = field(default_factory=dict)  # his matches in progress → version read


def feed_start(*, user, after_id: int | None) -> Feed:
    """On (re)connecting: with ``after_id`` (the last id the client saw) the ``match_started`` and
    ``match_finished`` notices after it; then, always, what each match in progress he sits in
    expects of him now (``your_turn`` / ``lead_decision`` / ``deal_due``). Those repeat on every connect, with
    the id they had: clients drop ids they have handled."""
    feed = Feed()
    player = _player(user)
    if player is None:
        return feed
    mine = _seated(player)
    if after_id is not None:
        created = MatchEvent.objects.filter(id__gt=after_id, type=T.MATCH_CREATED, match__in=mine).values_list(
            "id", "match_id"
        )
        feed.notices += [Notice(pk, "match_started", {"match": match_id}) for pk, match_id in created]
        ended = MatchEvent.objects.filter(
            id__gt=after_id, seq=F("match__version"), match__in=mine.exclude(status=IN_PROGRESS)
        ).select_related("match__projection")
        feed.notices += [_finished(event.id, event.match) for event in ended]
    for match in mine.filter(status=IN_PROGRESS).select_related(*_DETAIL):
        feed.seen[match.pk] = match.version
        notice = _obligation(match, player, _event_id(match, match.version))
        if notice is not None:
            feed.notices.append(notice)
    feed.notices.sort(key=lambda notice: notice.id)
    return feed


def feed_next(*, user, seen: dict[uuid.UUID, int]) -> Feed:
    """The notices since ``seen`` (each of his matches → the version last read): matches that moved,
    and matches in progress he sits in that ``seen`` does not know (``match_started`` first)."""
    feed = Feed()
    player = _player(user)
    if player is None:
        return feed
    matches = _seated(player).filter(Q(status=IN_PROGRESS) | Q(pk__in=list(seen))).select_related(*_DETAIL)
    for match in matches:
        before = seen.get(match.pk)
        if match.status == IN_PROGRESS:
            feed.seen[match.pk] = match.version
        if before == match.version:
            continue
        if before is None:
            feed.notices.append(Notice(_event_id(match, 1), "match_started", {"match": match.pk}))
        last = _event_id(match, match.version)
        notice = _finished(last, match) if match.status != IN_PROGRESS else _obligation(match, player, last)
        if notice is not None:
            feed.notices.append(notice)
    feed.notices.sort(key=lambda notice: notice.id)
    return feed


_DETAIL = ("north", "east", "south", "west", "scorer", "projection")


def _player(user) -> Player | None:
    return Player.objects.filter(user=user).first() if user.is_authenticated else None


def _seated(player: Player) -> QuerySet[Match]:
    return Match.objects.filter(Q(north=player) | Q(east=player) | Q(south=player) | Q(west=player))


def _event_id(match: Match, seq: int) -> int:
    return MatchEvent.objects.filter(match=match, seq=seq).values_list("id", flat=True).get()


def _obligation(match: Match, player: Player, event_id: int) -> Notice | None:
    """What the match expects of ``player`` now: a decision on lead offers, or a card."""
    seat = next(seat for seat, pid in zip(Seat, match.seat_player_ids()) if pid == player.pk)
    state = selectors.match_state(match=match, viewer=Viewer(Viewer.PLAYER, seat))
    deal = state["deal"]
    if deal is None:
        return _deal_due(match, seat, state["next_deal"], event_id)
    common = {"match": match.pk, "version": match.version, "seat": seat.name, "deal": deal["number"]}
    sale = deal["lead_sale"]
    holder = sale["holder"] == seat.name
    if sale["can_sell"] and holder and sale["offers"]:
        return Notice(event_id, "lead_decision", {**common, "offers": sale["offers"]})
    if deal["to_play"] == seat.name:
        return Notice(
            event_id,
            "your_turn",
            {**common, "legal_cards": deal["legal_cards"], "can_sell": sale["can_sell"] and holder},
        )
    return None


def _deal_due(match: Match, seat: Seat, due: dict[str, Any] | None, event_id: int) -> Notice | None:
    """Between deals, ``deal_due`` to the seat that deals next (the engine's schedule: the
    match's ``next_deal``), so that a table app knows to deal or file it (issue 29, item 7)."""
    if due is None or due["dealer"] != seat.name:
        return None
    return Notice(
        event_id,
        "deal_due",
        {"match": match.pk, "version": match.version, "seat": seat.name, "deal": due["number"], "next_deal": due},
    )


def _finished(event_id: int, match: Match) -> Notice:
    summary = match.projection.summary
    return Notice(
        event_id,
        "match_finished",
        {
            "match": match.pk,
            "status": match.status,
            "version": match.version,
            "totals": summary["totals"],
            "winners": summary["winners"],
        },
    )
