"""The match events, typed: one frozen dataclass per ``MatchEvent.Type``, the payload's keys
its fields, in the order they are stored.

Commands build them (``unit.emit(CardPlayed(seat="N", card="QS"))``) and the store writes
``event.TYPE`` and ``event.to_payload()``; every reader parses a stored row back with
``parse(type, payload)`` (``of_row(row)``) and folds it through ``projections.apply``. A key
misspelt or missing is then a ``TypeError`` where the event is built or read, not a
``KeyError`` somewhere downstream.

``to_payload()`` gives exactly the dict the commands stored before these classes existed (the
same keys, the same optional keys left out), so that the hash chain of every stored event
(``games.domain.chain``) is unchanged: tests/store/test_store_event_fixture.py replays such a log.

Versions: each class has a ``VERSION`` (1, or 2 for the five naming people: issue 28). Nothing
stores a version: a payload without the ``v`` key is version 1. A class that changes its payload raises its ``VERSION``,
writes ``"v": VERSION`` in ``to_payload()``, and registers an ``upcaster`` turning a payload of
the version before into one of its version; ``parse`` runs them in turn (docs/events.md).
Pure Python, no Django: the engine's style.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine.cards import Card
from games.engine.seats import SEAT_NAMES, Seat

VERSION_KEY = "v"  # in the payload of a version above 1 only: version 1 payloads (every stored one) lack it

Hands = Mapping[str, list[str]]  # seat name (N, E, S, W) -> card names
BySeat = Mapping[str, Any]  # seat name -> a number or a tally entry


def _check_hands(hands: Any) -> None:
    """Four hands of card names by seat (``Seat.parse``, ``Card.parse``): a stored payload changed
    outside the service is refused where it is read, not where a reader looks a card up
    (``log.stored``: 409, not 500)."""
    if not isinstance(hands, Mapping) or set(hands) != set(SEAT_NAMES):
        raise ValueError("hands are four lists of cards, by seat")
    for cards in hands.values():
        if not isinstance(cards, list):
            raise ValueError(f"{cards!r} is not a list of card names")
        for card in cards:
            Card.parse(card)


@dataclass(frozen=True)
class Event:
    """A match event. Subclasses set ``TYPE`` (a ``MatchEvent.Type`` value) and ``VERSION``, and
    name in ``OPTIONAL`` the fields left out of the payload when None."""

    TYPE: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    OPTIONAL: ClassVar[tuple[str, ...]] = ()

    def to_payload(self) -> dict[str, Any]:
        payload = {}
        for name in _field_names(type(self)):
            value = getattr(self, name)
            if value is not None or name not in self.OPTIONAL:
                payload[name] = value
        return self.versioned(payload)

    def fields(self) -> dict[str, Any]:
        """The payload without its version: what a summary shows of the event."""
        payload = self.to_payload()
        payload.pop(VERSION_KEY, None)
        return payload

    def versioned(self, payload: dict[str, Any]) -> dict[str, Any]:
        """``payload`` with the class's version when it is above 1 (version 1 payloads have no ``v``)."""
        if self.VERSION > 1:
            payload[VERSION_KEY] = self.VERSION
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Event:
        """The event of a payload of this class's ``VERSION`` (``parse`` upcasts older ones first)."""
        if not isinstance(payload, Mapping):
            raise TypeError(f"{cls.TYPE}: a payload is an object, not {type(payload).__name__}")
        return cls(**{k: v for k, v in payload.items() if k != VERSION_KEY})


@functools.cache
def _field_names(cls: type[Event]) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


# --- the events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchCreated(Event):
    """Four players (``seats``: N, E, S, W), the first dealer, the pinned ruleset (``name``,
    ``version``, ``options``), who deals (``server`` or ``recorded``), the scorer, and the date of
    play when it is not the filing's (ISO date; left out otherwise). People are person references
    (``PERSON_FIELDS``)."""

    TYPE = "match_created"
    VERSION = 2
    OPTIONAL = ("played_on",)
    seats: Mapping[str, str]
    first_dealer: str
    ruleset: Mapping[str, Any]
    dealing: str
    scorer: str | None
    played_on: str | None = None


@dataclass(frozen=True)
class DealStarted(Event):
    """The next deal dealt: its schedule, and either the hands (a recorded match) or the
    commitment to the hands the server dealt and keeps secret until the deal ends."""

    TYPE = "deal_started"
    OPTIONAL = ("commitment", "hands")
    number: int
    kind: str
    dealer: str
    leader: str
    compensating: bool
    commitment: str | None = None
    hands: Hands | None = None

    def __post_init__(self) -> None:
        if self.hands is not None:
            _check_hands(self.hands)


@dataclass(frozen=True)
class LeadOffered(Event):
    """R26, R28: ``buyer`` offers ``price`` tricks for the lead right."""

    TYPE = "lead_offered"
    buyer: str
    price: int


@dataclass(frozen=True)
class LeadSold(Event):
    """R28: the holder accepts the offer at ``offer_index`` among the standing ones."""

    TYPE = "lead_sold"
    offer_index: int
    buyer: str
    price: int


@dataclass(frozen=True)
class LeadKept(Event):
    """R28: the holder keeps the lead."""

    TYPE = "lead_kept"


@dataclass(frozen=True)
class CardPlayed(Event):
    TYPE = "card_played"
    seat: str
    card: str

    def __post_init__(self) -> None:
        Seat.parse(self.seat)
        Card.parse(self.card)


@dataclass(frozen=True)
class HandsRevealed(Event):
    """A server-dealt deal ended: its hands and salt, which hash to its commitment."""

    TYPE = "hands_revealed"
    number: int
    hands: Hands
    salt: str

    def __post_init__(self) -> None:
        _check_hands(self.hands)


@dataclass(frozen=True)
class MatchAbandoned(Event):
    TYPE = "match_abandoned"
    reason: str


@dataclass(frozen=True)
class RulingRecorded(Event):
    """An arbiter's ruling on dispute ``dispute`` about deal ``deal``: ``no_change``,
    ``deal_voided`` or ``score_adjusted`` (then ``points`` by seat; None otherwise), and the
    ``override`` reason of points outside the analysis (left out when there is none)."""

    TYPE = "ruling_recorded"
    VERSION = 2
    OPTIONAL = ("override",)
    dispute: int
    ruling: str
    deal: int
    points: BySeat | None
    reason: str
    arbiter: str
    override: str | None = None


@dataclass(frozen=True)
class ResultConfirmed(Event):
    """A seated player (``by``, at ``seat``) signs the finished sheet: the result whose digest is
    ``result`` (``confirmation.result_digest``; left out by the events stored before it was kept:
    the read model stamps those with the result in force then, ``projections.sign_offs_of``)."""

    TYPE = "result_confirmed"
    VERSION = 2
    OPTIONAL = ("result",)
    seat: str
    by: str
    result: str | None = None


@dataclass(frozen=True)
class MatchWithdrawn(Event):
    TYPE = "match_withdrawn"
    VERSION = 2
    reason: str
    by: str


@dataclass(frozen=True)
class MatchReinstated(Event):
    TYPE = "match_reinstated"
    VERSION = 2
    reason: str
    by: str


@dataclass(frozen=True)
class Sale:
    """The lead sale of a filed compensating odgrywka (R26, R28)."""

    buyer: str
    price: int


@dataclass(frozen=True)
class DealTallied(Event):
    """R31–R33: a whole deal filed from a paper sheet. ``entry`` says which of ``tally`` (by seat,
    what each took) and ``points`` (by seat) it carries; the payload holds that one only, under
    its name, and ``sale`` when the sheet gave one."""

    TYPE = "deal_tallied"
    number: int
    kind: str
    entry: str
    tally: BySeat | None = None
    points: BySeat | None = None
    sale: Sale | None = None

    def to_payload(self) -> dict[str, Any]:
        payload = {"number": self.number, "kind": self.kind, "entry": self.entry, self.entry: getattr(self, self.entry)}
        if self.sale is not None:
            payload["sale"] = {"buyer": self.sale.buyer, "price": self.sale.price}
        return self.versioned(payload)

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> DealTallied:
        fields = {k: v for k, v in payload.items() if k != VERSION_KEY}
        sale = fields.pop("sale", None)
        return cls(**fields, sale=None if sale is None else Sale(**sale))


@dataclass(frozen=True)
class DealCorrected(DealTallied):
    """Issue 23, item 3: the latest deal filed from a paper sheet, filed again in its place (R31–R33,
    R7 through ``MatchState.correct_last_deal``) — the payload of a ``deal_tallied``, the entry
    that now counts for deal ``number``. A subclass for its payload only: whoever reads a log
    must tell it from a new deal (check it before ``DealTallied``)."""

    TYPE = "deal_corrected"


# --- people ---------------------------------------------------------------------------------------

# Issue 28: the fields naming a person, by type. From version 2 they hold the person's public id
# (``Player.public_id``: random, meaning nothing by itself); version 1 payloads, stored before,
# hold his username, or a guest's display name. Both are *person references*: whoever shows one
# resolves it through the player table (``games.read.people``), where a name can be erased.
PERSON_FIELDS: dict[str, tuple[str, ...]] = {
    "match_created": ("seats", "scorer"),
    "ruling_recorded": ("arbiter",),
    "result_confirmed": ("by",),
    "match_withdrawn": ("by",),
    "match_reinstated": ("by",),
}


def people_of(payload: Mapping[str, Any], type: str) -> list[str]:
    """The person references of a stored payload of ``type`` (any version), in field order."""
    found: list[str] = []
    for name in PERSON_FIELDS.get(type, ()):
        value = payload.get(name)
        values = value.values() if isinstance(value, Mapping) else [value]
        found.extend(v for v in values if isinstance(v, str))
    return found


def with_people(payload: Mapping[str, Any], type: str, ids: Mapping[str, str]) -> dict[str, Any]:
    """``payload`` with each person reference found in ``ids`` replaced by its value, at the
    current version (``v``): how an erasure redacts a version 1 payload (``games.write.redaction``)."""
    out = dict(payload)
    for name in PERSON_FIELDS.get(type, ()):
        value = out.get(name)
        if isinstance(value, Mapping):
            out[name] = {k: ids.get(v, v) for k, v in value.items()}
        elif isinstance(value, str):
            out[name] = ids.get(value, value)
    version = EVENTS.classes[type].VERSION
    if version > 1:
        out[VERSION_KEY] = version
    return out


# --- the registry --------------------------------------------------------------------------------------

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class Registry:
    """Event classes by type, and the upcasters from each old payload version to the next."""

    def __init__(self, classes: tuple[type[Event], ...] = ()):
        self.classes: dict[str, type[Event]] = {}
        self.upcasters: dict[tuple[str, int], Upcaster] = {}
        for cls in classes:
            self.register(cls)

    def register(self, cls: type[Event]) -> type[Event]:
        if cls.TYPE in self.classes:
            raise ValueError(f"event type {cls.TYPE!r} is registered already")
        self.classes[cls.TYPE] = cls
        return cls

    def upcaster(self, type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Register ``function(payload) -> payload`` turning a ``type`` payload of version
        ``from_version`` into one of ``from_version + 1``."""

        def register(function: Upcaster) -> Upcaster:
            self.upcasters[(type, from_version)] = function
            return function

        return register

    def parse(self, type: str, payload: Mapping[str, Any], version: int | None = None) -> Event:
        """The typed event of a stored ``(type, payload)``; ``version`` when known, else the
        payload's ``v`` (1 without it). Older versions go through the upcasters first."""
        try:
            cls = self.classes[type]
        except KeyError:
            raise ValueError(f"unknown event type {type!r}") from None
        if version is None:
            version = payload.get(VERSION_KEY, 1) if isinstance(payload, Mapping) else 1
        if version > cls.VERSION:
            raise ValueError(f"{type} version {version} is newer than this code's {cls.VERSION}")
        while version < cls.VERSION:
            try:
                upcast = self.upcasters[(type, version)]
            except KeyError:
                raise ValueError(f"no upcaster for {type} version {version}") from None
            payload, version = upcast(dict(payload)), version + 1
        return cls.from_payload(payload)


EVENTS = Registry(
    (
        MatchCreated,
        DealStarted,
        LeadOffered,
        LeadSold,
        LeadKept,
        CardPlayed,
        HandsRevealed,
        MatchAbandoned,
        RulingRecorded,
        ResultConfirmed,
        MatchWithdrawn,
        MatchReinstated,
        DealTallied,
        DealCorrected,
    )
)
TYPES = tuple(EVENTS.classes)

# Every event class, for an exhaustive ``match`` (``projections.apply`` ends in ``assert_never``).
AnyEvent = (
    MatchCreated
    | DealStarted
    | LeadOffered
    | LeadSold
    | LeadKept
    | CardPlayed
    | HandsRevealed
    | MatchAbandoned
    | RulingRecorded
    | ResultConfirmed
    | MatchWithdrawn
    | MatchReinstated
    | DealTallied
    | DealCorrected
)


def _people_by_name(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 → 2 of the five types naming people: the keys and shapes are the same, a name
    stands where an id stands now, and a reference is either (``games.read.people`` resolves
    both), so the payload is taken as it is — the version alone changes."""
    return payload


for _type in PERSON_FIELDS:
    EVENTS.upcaster(_type, 1)(_people_by_name)


def parse(type: str, payload: Mapping[str, Any], version: int | None = None) -> Event:
    return EVENTS.parse(type, payload, version)


def of_row(row: Any) -> Event:
    """The typed event of a stored row (a ``MatchEvent``, or anything with ``type`` and ``payload``)."""
    return EVENTS.parse(row.type, row.payload)
