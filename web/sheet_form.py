"""The score-sheet page's row: what a table typed for the next deal, read field by field, checked
through the engine and turned into the tally (R31) or points (R33) that ``games.write.services.deal_tally``
files. Nothing here writes.

Each fault is placed next to the field (or the column total) it concerns, in the reader's
language, with the Polish name of the column ("kiery", never ``hearts``): the engine's own R32 checks
(``games.engine.tally``) are asked per seat and per column, and its English key is replaced by the
label. What only the whole deal can tell (R32 (d), R33) is the row's message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from games.domain.messages import violation_detail
from games.engine.errors import RuleViolation
from games.engine.match import MatchState
from games.engine.ruleset import Kind
from games.engine.tally import ODGRYWKA_KEYS, ROZBOJNIK_KEYS, SeatTally, tally_entry_counts, tally_sums

SEATS = ("N", "E", "S", "W")
TALLY, POINTS = "tally", "points"  # R31, R33: how a row is entered
MAX_COUNT = 99  # more than any count a deal has: a longer number is a typing slip, not a count

# The paper sheet's column names (docs/paper-sheets.md); Polish first, the key stays English.
LABELS = {
    "tricks": pgettext_lazy("score sheet column", "tricks"),
    "hearts": pgettext_lazy("score sheet column", "hearts"),
    "queens": pgettext_lazy("score sheet column", "queens"),
    "kings_jacks": pgettext_lazy("score sheet column", "kings and jacks"),
    "king_of_hearts": pgettext_lazy("score sheet column", "king of hearts"),
    "last_tricks": pgettext_lazy("score sheet column", "last tricks"),
    "points": pgettext_lazy("score sheet column", "points"),
}


@dataclass
class Row:
    """One typed row: the raw text of every field (kept as typed, shown back on any error), the
    faults by field name (``"N-hearts"``, ``"sum-hearts"``, ``"row"``) and the sums per column."""

    kind: Kind
    entry: str
    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    sums: dict[str, int] = field(default_factory=dict)
    tally: dict[str, dict[str, Any]] | None = None
    points: dict[str, int] | None = None

    @property
    def keys(self) -> tuple[str, ...]:
        return row_keys(self.kind)

    @property
    def ok(self) -> bool:
        return not self.errors


def row_keys(kind: Kind) -> tuple[str, ...]:
    """R31: the counts a tally gives for the kind (an odgrywka's only tricks)."""
    return ODGRYWKA_KEYS if kind is Kind.ODGRYWKA else ROZBOJNIK_KEYS


def field_names(kind: Kind) -> list[str]:
    """Every input of a row, ``<seat>-<key>``: the counts and the points."""
    return [f"{seat}-{key}" for seat in SEATS for key in (*row_keys(kind), "points")]


def row_read(*, kind: Kind, data) -> Row:
    """The row as typed (``data``: the POSTed form); faults of single fields, then the columns'
    sums (R32 (a)–(c)), each next to its field."""
    entry = POINTS if data.get("entry") == POINTS else TALLY
    values = {name: str(data.get(name, "")).strip()[:20] for name in field_names(kind)}
    for seat in SEATS:
        if data.get(f"{seat}-king_of_hearts"):
            values[f"{seat}-king_of_hearts"] = "on"
    row = Row(kind=kind, entry=entry, values=values)
    if entry == POINTS:
        _read_points(row)
    else:
        _read_tally(row)
    return row


def _read_tally(row: Row) -> None:
    counts: dict[str, dict[str, Any]] = {}
    for seat in SEATS:
        entry: dict[str, Any] = {}
        for key in row.keys:
            if key == "king_of_hearts":
                entry[key] = row.values[f"{seat}-{key}"] == "on"
                continue
            number = _count(row, f"{seat}-{key}", key, blank=0)
            entry[key] = 0 if number is None else number
        counts[seat] = entry
    for key in row.keys:
        row.sums[key] = sum(int(counts[seat][key]) for seat in SEATS)
    if row.errors:
        return
    for seat in SEATS:
        fault = tally_entry_counts(row.kind, counts[seat])  # R32 (b)
        if fault:
            name = "last_tricks" if "last_tricks" in fault[0] else "tricks"
            row.errors[f"{seat}-{name}"] = _seat_fault(fault[0])
    if row.errors:
        return
    tally = tuple(SeatTally(**counts[seat]) for seat in SEATS)
    fault = tally_sums(row.kind, tally)  # R32 (c): next to the column's total
    if fault:
        key, params = fault[1]["key"], fault[1]
        row.errors[f"sum-{key}"] = gettext("%(label)s add up to %(got)s, not %(total)s (R32)") % {
            "label": LABELS[key],
            "got": params["got"],
            "total": params["total"],
        }
        return
    row.tally = counts


def _read_points(row: Row) -> None:
    points = {}
    for seat in SEATS:
        number = _count(row, f"{seat}-points", "points", blank=None, signed=True)
        if number is not None:
            points[seat] = number
    row.sums["points"] = sum(points.values())
    if not row.errors:
        row.points = points


def _count(row: Row, name: str, key: str, *, blank: int | None, signed: bool = False) -> int | None:
    """A field's whole number (``blank`` when left empty; None and a fault when it is not one)."""
    text = row.values[name]
    if text == "" and blank is not None:
        return blank
    try:
        number = int(text.replace("−", "-"))
    except ValueError:
        number = None
    limit = 1000 if signed else MAX_COUNT
    if number is None or abs(number) > limit or (number < 0 and not signed):
        message = (
            gettext("%(label)s: write a whole number")
            if signed
            else gettext("%(label)s: write a whole number, 0 or more")
        )
        row.errors[name] = message % {"label": LABELS[key]}
        return None
    return number


def _seat_fault(template: str) -> str:
    """R32 (b) in the reader's words, with the Polish column names."""
    if "last_tricks" in template:
        return gettext("%(last)s cannot be more than %(tricks)s (R32)") % {
            "last": LABELS["last_tricks"],
            "tricks": LABELS["tricks"],
        }
    return gettext("no trick, nothing taken: every count 0 and no king of hearts (R32)")


def row_check(*, row: Row, state: MatchState) -> Row:
    """The engine's verdict on the whole row (R32 (d), R33, the deal due), without filing it: the
    state is a value, filing it here stores nothing."""
    if not row.ok:
        return row
    try:
        state.file_deal(tally=row.tally, points=row.points)
    except RuleViolation as violation:
        row.errors["row"] = violation_detail(violation)
    return row
