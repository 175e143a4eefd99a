"""The portable match record ``kierki-match/1`` (RECORD_FORMAT.md): decode and encode.

Decoding checks the *shape* only (keys, types, card spellings) and raises
``RecordFormatError`` naming the field; whether the record is *legal* is replay's job.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine.cards import BY_NAME, NAMES, Card
from games.engine.errors import RecordFormatError, RulesetError, gettext_noop
from games.engine.ruleset import Ruleset
from games.engine.seats import SEATS, Seat

FORMAT = "kierki-match/1"


@dataclass(frozen=True, slots=True)
class SaleRecord:
    """R26: the lead right sold; ``buyer`` as written (replay checks it is a seat)."""

    buyer: Any
    price: Any


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal as filed: ``hands`` and ``plays`` (played), or ``tally`` or ``points`` as written on
    a paper sheet (version 1.1, R31–R33; checked by replay, not here). ``entries`` counts the
    entries the deal carried: replay refuses a deal with none (bad_hands) or several (bad_tally)."""

    hands: tuple[tuple[Card, ...], ...]  # seat order N, E, S, W
    plays: tuple[Card, ...]
    sale: SaleRecord | None = None
    tally: Any = None
    points: Any = None
    entries: int = 1

    @property
    def entry(self) -> str:
        """played, tally or points (RECORD_FORMAT.md 1.1)."""
        return "tally" if self.tally is not None else "points" if self.points is not None else "played"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    ruleset: Ruleset
    players: dict[str, Any]
    first_dealer: Seat
    deals: tuple[DealRecord, ...]
    played_on: str | None = None  # "YYYY-MM-DD", the date of play (version 1.1)


def load(path: str | Path) -> MatchRecord:
    """Read and decode one record file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordFormatError(gettext_noop("not valid JSON: %(error)s"), error=str(exc)) from None
    return decode(data)


def decode(data: Any) -> MatchRecord:
    _expect(data, dict, "")
    if data.get("format", FORMAT) != FORMAT:
        raise RecordFormatError(
            gettext_noop("unknown format %(format)s (expected %(expected)s)"),
            field="format",
            format=repr(data["format"]),
            expected=repr(FORMAT),
        )
    return MatchRecord(
        ruleset=_ruleset(_key(data, "ruleset", dict, "")),
        players=_players(_key(data, "players", dict, "")),
        first_dealer=_seat(_key(data, "first_dealer", str, ""), "first_dealer"),
        deals=tuple(_deal(d, f"deals[{i}]") for i, d in enumerate(_key(data, "deals", list, ""))),
        played_on=_played_on(data.get("played_on")),
    )


def encode(record: MatchRecord) -> dict[str, Any]:
    data = {
        "format": FORMAT,
        "ruleset": {"name": record.ruleset.name, "options": record.ruleset.options()},
        "players": dict(record.players),
        "first_dealer": record.first_dealer.name,
    }
    if record.played_on is not None:
        data["played_on"] = record.played_on
    data["deals"] = [
        encode_filed_deal(d.entry, d.tally if d.tally is not None else d.points, d.sale)
        if d.entry != "played"
        else encode_deal(d.hands, d.plays, d.sale)
        for d in record.deals
    ]
    return data


def encode_deal(hands, plays, sale: SaleRecord | None = None) -> dict[str, Any]:
    deal: dict[str, Any] = {"hands": {s.name: [NAMES[c] for c in hands[s]] for s in SEATS}}
    if sale is not None:
        deal["sale"] = {"buyer": str(sale.buyer), "price": sale.price}
    deal["plays"] = [NAMES[c] for c in plays]
    return deal


def encode_filed_deal(entry: str, written: Any, sale: SaleRecord | None = None) -> dict[str, Any]:
    """A deal filed from a paper sheet: ``{"tally": …}`` or ``{"points": …}``, and its sale."""
    deal: dict[str, Any] = {entry: written}
    if sale is not None:
        deal["sale"] = {"buyer": str(sale.buyer), "price": sale.price}
    return deal


def _ruleset(data: dict) -> Ruleset:
    try:
        return Ruleset.from_options(
            _key(data, "options", dict, "ruleset", default={}),
            name=data.get("name", "rozbojnik-odgrywka"),
            version=data.get("version", 1),
        )
    except RulesetError as exc:
        raise RecordFormatError(exc.template, field=f"ruleset.{exc.field}", **exc.params) from None


def _players(data: dict) -> dict[str, Any]:
    for seat in SEATS:
        name = _key(data, seat.name, (str, int), "players")
        if name == "" or isinstance(name, bool):
            raise RecordFormatError(gettext_noop("must be a player's name or id"), field=f"players.{seat.name}")
    return {seat.name: data[seat.name] for seat in SEATS}


def _played_on(value: Any) -> str | None:
    """``played_on``: a date written YYYY-MM-DD, or absent."""
    if value is None:
        return None
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError
        dt.date.fromisoformat(value)
    except ValueError:
        raise RecordFormatError(f"must be a date written YYYY-MM-DD, got {value!r}", field="played_on") from None
    return value


def _deal(data: Any, where: str) -> DealRecord:
    _expect(data, dict, where)
    sale = data.get("sale")
    if sale is not None:
        _expect(sale, dict, f"{where}.sale")
        sale = SaleRecord(
            _key(sale, "buyer", (str, int), f"{where}.sale"), _key(sale, "price", object, f"{where}.sale")
        )
    played = "hands" in data or "plays" in data
    entries = played + ("tally" in data) + ("points" in data)
    if entries != 1 or not played:  # replay judges what a paper sheet wrote (R32, R33), and a deal with none
        return DealRecord(
            hands=(), plays=(), sale=sale, tally=data.get("tally"), points=data.get("points"), entries=entries
        )
    hands = _key(data, "hands", dict, where)
    return DealRecord(
        hands=tuple(_cards(_key(hands, s.name, list, f"{where}.hands"), f"{where}.hands.{s.name}") for s in SEATS),
        plays=_cards(_key(data, "plays", list, where), f"{where}.plays"),
        sale=sale,
    )


def _cards(items: list, where: str) -> tuple[Card, ...]:
    try:
        return tuple([BY_NAME[c] for c in items])
    except (KeyError, TypeError):
        for i, item in enumerate(items):
            if not isinstance(item, str) or item not in BY_NAME:
                raise RecordFormatError(
                    gettext_noop("not a card: %(card)s (rank 2-9/T/J/Q/K/A then suit S/H/D/C)"),
                    field=f"{where}[{i}]",
                    card=repr(item),
                ) from None
        raise


def _seat(value: str, where: str) -> Seat:
    try:
        return Seat.parse(value)
    except ValueError:
        raise RecordFormatError(
            gettext_noop("not a seat: %(seat)s (expected one of N, E, S, W)"), field=where, seat=repr(value)
        ) from None


_MISSING = object()


def _key(data: dict, key: str, kind, where: str, default: Any = _MISSING) -> Any:
    path = f"{where}.{key}" if where else key
    if key not in data:
        if default is not _MISSING:
            return default
        raise RecordFormatError(gettext_noop("missing"), field=path)
    return _expect(data[key], kind, path)


def _expect(value: Any, kind, where: str) -> Any:
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        names = names.replace("dict", "object").replace("list", "array").replace("str", "string")
        raise RecordFormatError(
            gettext_noop("must be %(expected)s, got %(got)s"),
            field=where or "record",
            expected=names,
            got=type(value).__name__,
        )
    return value
