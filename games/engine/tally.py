"""Deals filed from a paper score sheet (RULES.md revision 1.1): a tally (R31, R32) or only
the points written on the sheet (R33).

One function per rule and sub-rule, named after it and tagged with its id, as in ``rules.py``;
``check_tally`` and ``check_points`` run them in the order R32 reports them. They count; they
never ask whether legal play could reach the split (R32: a sheet is trusted that far).

The points search (R33) is exact: it decides whether *some* tally valid under R32 gives the
points, and returns one. It works on what each player took beyond the three special hearts:
``a`` other hearts (10 in the deck), ``b`` other queens (3), ``c`` other kings and jacks (6),
whether he took QH, JH, KH, and ``l`` last tricks (2). A player's raw penalty (R14, R31) is
then ``2t + 2a + 5b + 3c + 7·QH + 5·JH + 21·KH + 9l``; those card terms always add up to 104
over the table, so the tricks add up to 13 by themselves, and each player's tricks
``t = (raw − cards)/2`` need only be a whole number ≥ max(1, ⌈cards held/4⌉, l). For fixed
everything-but-``a`` a player's possible ``a`` are 0…amax (the bound only grows with ``a``), so
the search keeps, per partial sum of the small counts, the largest sum of ``amax``: the other
hearts can be shared out iff that reaches 10.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import errors
from games.engine.cards import HEARTS as HEARTS_SUIT
from games.engine.cards import JACK, KING, KING_OF_HEARTS, QUEEN
from games.engine.ruleset import Kind
from games.engine.seats import SEAT_NAMES, SEATS, Seat

TRICKS = 13
HEARTS, QUEENS, KINGS_JACKS, LAST_TRICKS = 13, 4, 8, 2  # R32 (c): what the deck holds
ROZBOJNIK_KEYS = ("tricks", "hearts", "queens", "kings_jacks", "king_of_hearts", "last_tricks")  # R31
ODGRYWKA_KEYS = ("tricks",)  # R31
POOL = 130  # R14, R17
MAX_POINTS = (0, -POOL, -POOL, -POOL)  # R21, sorted descending: the Max taker's 0 and the others' −130


def _whole(value: Any) -> bool:
    """R32: counts are JSON integers — not ``3.0``, not booleans."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class SeatTally:
    """What one player took (R31); an odgrywka's tally knows only ``tricks``."""

    tricks: int
    hearts: int = 0
    queens: int = 0
    kings_jacks: int = 0
    king_of_hearts: bool = False
    last_tricks: int = 0

    def raw_penalty(self) -> int:
        """R31 (= R14): 2·tricks + 2·hearts + 5·queens + 3·kings_jacks + 16·[KH] + 9·last_tricks."""
        return (
            2 * self.tricks
            + 2 * self.hearts
            + 5 * self.queens
            + 3 * self.kings_jacks
            + 16 * self.king_of_hearts
            + 9 * self.last_tricks
        )

    def as_json(self, kind: Kind) -> dict[str, Any]:
        if kind is Kind.ODGRYWKA:
            return {"tricks": self.tricks}
        return {
            "tricks": self.tricks,
            "hearts": self.hearts,
            "queens": self.queens,
            "kings_jacks": self.kings_jacks,
            "king_of_hearts": self.king_of_hearts,
            "last_tricks": self.last_tricks,
        }


Tally = tuple[SeatTally, SeatTally, SeatTally, SeatTally]  # seat order N, E, S, W


def raw_points(kind: Kind, tally: Tally) -> list[int]:
    """R31: per seat, before multipliers: the rozbójnik penalty, or 10 per odgrywka trick (R17)."""
    if kind is Kind.ODGRYWKA:
        return [10 * t.tricks for t in tally]
    return [t.raw_penalty() for t in tally]


def tally_json(kind: Kind, tally: Tally) -> dict[str, dict[str, Any]]:
    return {name: t.as_json(kind) for name, t in zip(SEAT_NAMES, tally)}


# --- R32: when a tally is accepted ---------------------------------------------------------------

# A fault: an English template marked for translation and its values (``errors.KierkiError``).
Fault = tuple[str, dict[str, Any]]
_ = errors.gettext_noop


def tally_entry_shape(kind: Kind, entry: Any) -> Fault | None:
    """R32 (a), one seat: exactly the keys of R31 for the kind, whole counts ≥ 0, a boolean KH.
    The fault, or None."""
    keys = ODGRYWKA_KEYS if kind is Kind.ODGRYWKA else ROZBOJNIK_KEYS
    if not isinstance(entry, dict):
        return _("R32: the entry must be an object of counts"), {}
    if set(entry) != set(keys):
        return _("R32: the keys must be exactly %(keys)s"), {"keys": ", ".join(keys)}
    for key in keys:
        value = entry[key]
        if key == "king_of_hearts":
            if not isinstance(value, bool):
                return _("R32: king_of_hearts must be true or false"), {}
        elif not _whole(value) or value < 0:
            return _("R32: %(key)s must be a whole number 0 or more, got %(value)s"), {"key": key, "value": repr(value)}
    return None


def tally_entry_counts(kind: Kind, entry: dict[str, Any]) -> Fault | None:
    """R32 (b), one seat: no tricks ⇒ every count 0 and no king of hearts; last_tricks ≤ tricks."""
    if kind is Kind.ODGRYWKA:
        return None
    if entry["tricks"] == 0 and any(entry[k] for k in ROZBOJNIK_KEYS[1:]):
        return _("R32: a player with no trick took nothing"), {}
    if entry["last_tricks"] > entry["tricks"]:
        return _("R32: last_tricks cannot exceed tricks"), {}
    return None


def tally_sums(kind: Kind, tally: Tally) -> Fault | None:
    """R32 (c): tricks 13; in a rozbójnik hearts 13, queens 4, kings_jacks 8, one KH, last_tricks 2."""
    wanted = [("tricks", TRICKS)]
    if kind is Kind.ROZBOJNIK:
        wanted += [
            ("hearts", HEARTS),
            ("queens", QUEENS),
            ("kings_jacks", KINGS_JACKS),
            ("king_of_hearts", 1),
            ("last_tricks", LAST_TRICKS),
        ]
    for key, total in wanted:
        got = sum(int(getattr(t, key)) for t in tally)
        if got != total:
            return _("R32: %(key)s add up to %(got)s, not %(total)s"), {"key": key, "got": got, "total": total}
    return None


def tally_cards_add_up(kind: Kind, tally: Tally) -> Fault | None:
    """R32 (d): some taker of QH and of JH makes every player's cards fit: other hearts, other
    queens, other kings and jacks ≥ 0, and his distinct cards ≤ 4 × his tricks."""
    if kind is Kind.ODGRYWKA:
        return None
    for qh_taker in SEATS:
        for jh_taker in SEATS:
            if all(_cards_fit(t, s == qh_taker, s == jh_taker) for s, t in zip(SEATS, tally)):
                return None
    return _("R32: the cards do not add up: no split of the deck into these tricks gives these counts"), {}


def _cards_fit(t: SeatTally, qh: bool, jh: bool) -> bool:
    kh = t.king_of_hearts
    return (
        t.hearts - qh - jh - kh >= 0
        and t.queens - qh >= 0
        and t.kings_jacks - jh - kh >= 0
        and t.hearts + t.queens + t.kings_jacks - qh - jh - kh <= 4 * t.tricks
    )


def check_tally(kind: Kind, data: Any) -> Tally:
    """R32 in order: (a) and (b) seat by seat (the error names the first seat at fault), then a key
    that is not a seat, (c), (d). The tally, or ``BadTally``."""
    if not isinstance(data, dict):
        raise errors.BadTally(detail=_("a tally gives an object of counts for each of N, E, S, W"))
    for seat in SEATS:
        entry = data.get(seat.name)
        fault = (_("R32: the seat is missing"), {}) if entry is None else tally_entry_shape(kind, entry)
        fault = fault or tally_entry_counts(kind, entry)
        if fault:
            raise errors.BadTally(seat=seat, detail=fault[0], **fault[1])
    strangers = sorted(map(str, set(data) - set(SEAT_NAMES)))
    if strangers:
        raise errors.BadTally(detail=_("R32 (a): %(key)s is not a seat"), key=repr(strangers[0]))
    tally: Tally = tuple(SeatTally(**data[name]) for name in SEAT_NAMES)  # type: ignore[assignment]
    fault = tally_sums(kind, tally) or tally_cards_add_up(kind, tally)
    if fault:
        raise errors.BadTally(detail=fault[0], **fault[1])
    return tally


# --- R33: points-only deals ------------------------------------------------------------------------


def points_shape(data: Any) -> tuple[int, ...]:
    """R33: exactly the four seats, each with a JSON integer."""
    if not isinstance(data, dict) or set(data) != set(SEAT_NAMES) or not all(_whole(data[name]) for name in SEAT_NAMES):
        raise errors.BadTally(detail=_("R33: points give a whole number for each of N, E, S, W"))
    return tuple(data[name] for name in SEAT_NAMES)


def is_max_points(points: tuple[int, ...]) -> bool:
    """R33: 0, −130, −130, −130 (in any seat order) is always a Max deal (R21)."""
    return tuple(sorted(points, reverse=True)) == MAX_POINTS


def points_raw(kind: Kind, points: tuple[int, ...]) -> list[int]:
    """R33 outside Max: the raw points (before the multiplier) the written points stand for, or
    ``BadTally`` where no division by the multiplier (R20, R22: one more than the players with 0)
    gives whole points of the deal's sign adding up to 130."""
    empty = points.count(0)
    if empty == 4 or (kind is Kind.ROZBOJNIK and empty == 3):
        raise errors.BadTally(detail=_("R33: three players without a trick in a rozbójnik is a Max (0, -130 × 3)"))
    multiplier = empty + 1
    sign = -1 if kind is Kind.ROZBOJNIK else 1
    raw = []
    for p in points:
        if p * sign < 0 or p % multiplier:
            raise errors.BadTally(
                detail=_("R33: %(points)s is not a deal's points × %(multiplier)s"), points=p, multiplier=multiplier
            )
        raw.append(p * sign // multiplier)
    if sum(raw) != POOL:
        raise errors.BadTally(
            detail=_("R33: the points before the multiplier add up to %(sum)s, not 130"), sum=sum(raw)
        )
    return raw


def check_points(kind: Kind, data: Any) -> tuple[tuple[int, ...], Tally]:
    """R33: the points, and one tally valid under R32 that gives them (a witness, not what
    happened: every such tally has the same players without a trick); else ``BadTally``."""
    points = points_shape(data)
    if kind is Kind.ROZBOJNIK and is_max_points(points):
        taker = points.index(0)
        return points, tuple(
            SeatTally(TRICKS, HEARTS, QUEENS, KINGS_JACKS, True, LAST_TRICKS) if s == taker else SeatTally(0)
            for s in SEATS
        )  # type: ignore[return-value]
    raw = points_raw(kind, points)
    if kind is Kind.ODGRYWKA:
        if any(r % 10 for r in raw):
            raise errors.BadTally(detail=_("R33: odgrywka points come in tens of tricks"))
        return points, tuple(SeatTally(r // 10) for r in raw)  # type: ignore[return-value]
    tally = rozbojnik_tally_for(raw)
    if tally is None:
        raise errors.BadTally(detail=_("R33: no tally gives these points"))
    return points, tally


# The exact search. A player's "small" choice packs (QH, JH, KH, l, b, c) in a mixed radix wide
# enough that adding two choices adds the fields; WITHIN marks the sums the deck allows.
_RADIX = (3, 3, 3, 5, 7, 13)  # QH, JH, KH, l, b, c
_LIMIT = (1, 1, 1, LAST_TRICKS, 3, 6)  # one each of QH, JH, KH; 2 last tricks, 3 other queens, 6 other K/J
OTHER_HEARTS = 10


def _weights() -> tuple[int, ...]:
    weights, weight = [], 1
    for radix in _RADIX:
        weights.append(weight)
        weight *= radix
    return tuple(weights)


_WEIGHTS = _weights()
_SIZE = _WEIGHTS[-1] * _RADIX[-1]


def _pack(fields) -> int:
    return sum(f * w for f, w in zip(fields, _WEIGHTS))


def _unpack(key: int) -> tuple[int, ...]:
    fields = []
    for radix in _RADIX:
        key, f = divmod(key, radix)
        fields.append(f)
    return tuple(fields)


WITHIN = bytes(all(f <= lim for f, lim in zip(_unpack(key), _LIMIT)) for key in range(_SIZE))
TARGET = _pack(_LIMIT)
_CHOICES = tuple(
    (qh, jh, kh, l, b, c)
    for qh in (0, 1)
    for jh in (0, 1)
    for kh in (0, 1)
    for l in range(LAST_TRICKS + 1)
    for b in range(4)
    for c in range(7)
)


def _max_other_hearts(room: int, cards: int, last: int) -> int:
    """The most other hearts a player can take with ``room`` raw points left for them and his
    tricks (t = room/2 − a ≥ max(1, ⌈(a + cards)/4⌉, last)); −1 if not even none fits."""
    best = -1
    for a in range(OTHER_HEARTS + 1):
        if room // 2 - a < max(1, -(-(a + cards) // 4), last):
            break
        best = a
    return best


def _choices(raw: int) -> dict[int, int]:
    """Every small choice a player of raw penalty ``raw`` can make, with his amax of other hearts."""
    options = {}
    for qh, jh, kh, l, b, c in _CHOICES:
        room = raw - (5 * b + 3 * c + 7 * qh + 5 * jh + 21 * kh + 9 * l)
        if room < 2 or room & 1:
            continue
        amax = _max_other_hearts(room, b + c + qh + jh + kh, l)
        if amax >= 0:
            options[_pack((qh, jh, kh, l, b, c))] = amax
    return options


def _combine(left: dict[int, tuple[int, tuple]], options: dict[int, int]) -> dict[int, tuple[int, tuple]]:
    """Partial sums after one more player: per sum of small choices, the best sum of amax."""
    within, size = WITHIN, _SIZE
    out: dict[int, tuple[int, tuple]] = {}
    for key, (value, path) in left.items():
        for choice, amax in options.items():
            total = key + choice
            if total < size and within[total]:
                best = out.get(total)
                if best is None or best[0] < value + amax:
                    out[total] = (value + amax, path + (choice,))
    return out


_BALANCED = {2: (1, 0), 3: (2, 0, 1), 4: (0, 3, 1, 2)}  # places in size order: left half first


def rozbojnik_tally_for(raw: list[int]) -> Tally | None:
    """R33, exact: a tally valid under R32 whose raw penalties (R31) are ``raw``, or None.

    Players with 0 took no trick; the others are split in two halves whose partial sums meet in
    the middle."""
    takers = [s for s in SEATS if raw[s]]
    if any(raw[s] < 2 for s in takers):
        return None
    options = [_choices(raw[s]) for s in takers]
    if not all(options):
        return None
    # Balance the halves: the player with the most choices goes with the one with the fewest.
    by_size = sorted(range(len(takers)), key=lambda i: len(options[i]))
    order = [by_size[i] for i in _BALANCED[len(takers)]]
    takers, options = [takers[i] for i in order], [options[i] for i in order]
    half = 2 if len(takers) == 4 else 1
    left: dict[int, tuple[int, tuple]] = {0: (0, ())}
    for choice in options[:half]:
        left = _combine(left, choice)
    right: dict[int, tuple[int, tuple]] = {0: (0, ())}
    for choice in options[half:]:
        right = _combine(right, choice)
    for key, (value, path) in left.items():
        other = right.get(TARGET - key)
        if other is not None and value + other[0] >= OTHER_HEARTS:
            return _tally_of(raw, takers, options, path + other[1])
    return None


def _tally_of(raw: list[int], takers: list[Seat], options: list[dict[int, int]], path: tuple) -> Tally:
    """The tally the search found: the other hearts handed out up to each player's amax."""
    tally = [SeatTally(0)] * 4
    hearts_left = OTHER_HEARTS
    for seat, choice, option in zip(takers, path, options):
        qh, jh, kh, l, b, c = _unpack(choice)
        a = min(option[choice], hearts_left)
        hearts_left -= a
        cards = 2 * a + 5 * b + 3 * c + 7 * qh + 5 * jh + 21 * kh + 9 * l
        tally[seat] = SeatTally((raw[seat] - cards) // 2, a + qh + jh + kh, b + qh, c + jh + kh, bool(kh), l)
    return tuple(tally)  # type: ignore[return-value]


def played_tally(kind: Kind, plays, winners, last_tricks: tuple[int, int]) -> Tally:
    """R31: the tally of a played deal — what each player took, counted from its tricks
    (``plays`` in order, ``winners`` the seat that took each trick)."""
    counts = [dict.fromkeys(ROZBOJNIK_KEYS, 0) for _ in SEATS]
    for index, winner in enumerate(winners):
        took = counts[winner]
        took["tricks"] += 1
        took["last_tricks"] += index + 1 in last_tricks
        for card in plays[4 * index : 4 * index + 4]:
            rank, suit = card % 13, card // 13
            took["hearts"] += suit == HEARTS_SUIT
            took["queens"] += rank == QUEEN
            took["kings_jacks"] += rank in (KING, JACK)
            took["king_of_hearts"] = took["king_of_hearts"] or card == KING_OF_HEARTS
    if kind is Kind.ODGRYWKA:
        return tuple(SeatTally(c["tricks"]) for c in counts)  # type: ignore[return-value]
    return tuple(
        SeatTally(c["tricks"], c["hearts"], c["queens"], c["kings_jacks"], bool(c["king_of_hearts"]), c["last_tricks"])
        for c in counts
    )  # type: ignore[return-value]
