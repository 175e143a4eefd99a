"""The documents: each ``render_*`` takes plain data and returns the PDF's bytes (A4)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from . import formats
from .charts import line_drawing
from .fonts import registered

SEATS = ("N", "E", "S", "W")
KIND_LETTERS = {"rozbojnik": "R", "odgrywka": "O", "R": "R", "O": "O"}
GRID = colors.HexColor("#555555")
SHADE = colors.HexColor("#eeeeee")


# --- the building blocks -----------------------------------------------------------------------------


def _styles() -> dict[str, ParagraphStyle]:
    regular, bold = registered()
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=16, leading=20, spaceAfter=4),
        "subtitle": ParagraphStyle("subtitle", fontName=regular, fontSize=10, leading=13, spaceAfter=6),
        "heading": ParagraphStyle("heading", fontName=bold, fontSize=12, leading=15, spaceBefore=8, spaceAfter=4),
        "body": ParagraphStyle("body", fontName=regular, fontSize=9, leading=12),
        "small": ParagraphStyle("small", fontName=regular, fontSize=7.5, leading=9.5),
    }


def _text(value: Any, style: ParagraphStyle) -> Paragraph:
    return Paragraph(escape("" if value is None else str(value)), style)


def _table(
    rows: list[list[Any]],
    widths: Sequence[float],
    *,
    header_rows: int = 1,
    height: float | None = None,
    extra: Iterable[tuple] = (),
) -> Table:
    regular, bold = registered()
    table = Table(
        rows,
        colWidths=list(widths),
        rowHeights=None if height is None else [height] * len(rows),
        repeatRows=header_rows,
    )
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), regular, 9),
                ("FONT", (0, 0), (-1, header_rows - 1), bold, 9),
                ("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE),
                ("GRID", (0, 0), (-1, -1), 0.5, GRID),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ALIGN", (1, 0), (-1, -1), "CENTER"),
                *extra,
            ]
        )
    )
    return table


def _build(story: list, *, title: str, pagesize=A4) -> bytes:
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=pagesize,
        title=title,
        author="Kierki",
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
    )
    document.build(story)
    return out.getvalue()


# The building blocks under public names, for the other documents of this package (table_sheets.py).
styles, paragraph, grid_table, build_pdf = _styles, _text, _table, _build


def _number(value: Any) -> str:
    return formats.number(value)


# --- the score sheet (zapis) ---------------------------------------------------------------------------


def render_score_sheet(
    *,
    title: str,
    players: Mapping[str, str],
    first_dealer: str,
    regular_deals: Sequence[str],
    reminder: Sequence[str],
    subtitle: str = "",
    deals: Sequence[Mapping] = (),
    totals: Mapping[str, int] | None = None,
    winners: Sequence[str] = (),
    compensating_rows: int = 8,
) -> bytes:
    """A table's score sheet. Blank (no ``deals``): the regular deals in order (``regular_deals``:
    "R"/"O") with empty cells, then ``compensating_rows`` empty rows for compensating deals (R7).
    Filled: one row per finished deal as the replay summary has it (``kind``, ``dealer``,
    ``compensating``, ``multiplier``, ``points`` and ``kreski`` by seat), with the totals and the
    winners. ``reminder``: the point values printed at the foot."""
    style = _styles()
    head = [_("Deal"), _("Kind"), _("Dealer"), *[f"{seat}: {players.get(seat, '')}" for seat in SEATS]]
    rows: list[list[Any]] = [[_text(cell, style["body"]) if i > 2 else cell for i, cell in enumerate(head)]]
    shaded = []
    if deals:
        for deal in deals:
            kind = KIND_LETTERS.get(deal["kind"], deal["kind"]) + ("*" if deal.get("compensating") else "")
            multiplier = deal.get("multiplier") or 1
            rows.append(
                [
                    deal["number"],
                    kind + (f" ×{multiplier}" if multiplier > 1 else ""),
                    deal.get("dealer", ""),
                    *[_score_cell(deal["points"][seat], deal["kreski"][seat]) for seat in SEATS],
                ]
            )
    else:
        for number, letter in enumerate(regular_deals, start=1):
            rows.append([number, letter, first_dealer if number == 1 else "", "", "", "", ""])
        for _row in range(compensating_rows):
            rows.append(["", _("R/O") + " *", "", "", "", "", ""])
            shaded.append(len(rows) - 1)
    totals_row = [_("Total"), "", "", *[formats.signed(totals.get(seat)) if totals else "" for seat in SEATS]]
    rows.append(totals_row)
    extra = [
        ("FONT", (0, len(rows) - 1), (-1, len(rows) - 1), registered()[1], 10),
        ("LINEABOVE", (0, len(rows) - 1), (-1, len(rows) - 1), 1.5, colors.black),
    ]
    extra += [("BACKGROUND", (0, i), (-1, i), colors.HexColor("#f7f7f7")) for i in shaded]
    widths = [20 * mm, 16 * mm, 22 * mm] + [30 * mm] * 4  # "Rozdanie", "Rozdający": the Polish headers fit
    story = [_text(title, style["title"])]
    if subtitle:
        story.append(_text(subtitle, style["subtitle"]))
    story.append(
        _text(
            _("First dealer: %(seat)s.  * = compensating deal; kreski as | after the points.") % {"seat": first_dealer},
            style["body"],
        )
    )
    story.append(Spacer(1, 3 * mm))
    story.append(_table(rows, widths, height=None if deals else 8 * mm, extra=extra))
    if winners:
        story.append(Spacer(1, 3 * mm))
        story.append(
            _text(
                _("Winner: %(names)s") % {"names": ", ".join(players.get(seat, seat) for seat in winners)},
                style["heading"],
            )
        )
    story.append(Spacer(1, 4 * mm))
    story.append(
        KeepTogether([_text(_("Point values"), style["heading"]), *[_text(line, style["small"]) for line in reminder]])
    )
    return _build(story, title=title)


def _score_cell(points: int, kreski: int) -> str:
    return formats.signed(points) + (" " + "|" * kreski if kreski else "")


# --- the standings and the season summary -------------------------------------------------------------

STANDING_COLUMNS = (
    "position",
    "player",
    "matches",
    "wins",
    "balance",
    "balance_per_match",
    "kreski",
    "max_deals",
    "ordinal",
)


def _standing_table(rows: Sequence[Mapping], style) -> Table:
    head = [
        _("Pos."),
        _("Player"),
        _("Matches"),
        _("Wins"),
        _("Balance"),
        _("Per match"),
        _("Kreski"),
        _("Max"),
        _("Rating"),
    ]
    body = [
        [
            _number(row.get("position")) if row.get("ranked", True) else "–",
            _text(row["player"], style["body"]),
            row["matches"],
            row["wins"],
            formats.signed(row["balance"]),
            formats.signed(row["balance_per_match"], 2),
            row["kreski"],
            row["max_deals"],
            formats.number(row["ordinal"], 1),
        ]
        for row in rows
    ]
    widths = [12 * mm, 48 * mm, 16 * mm, 18 * mm, 18 * mm, 20 * mm, 15 * mm, 12 * mm, 18 * mm]
    numbers = ("ALIGN", (2, 1), (-1, -1), "RIGHT")  # numbers right-aligned, as on the pages
    return _table([head, *body], widths, extra=[("ALIGN", (1, 1), (1, -1), "LEFT"), numbers])


def render_standings(*, title: str, rows: Sequence[Mapping], subtitle: str = "") -> bytes:
    """The season's standings: ``rows`` in display order, each with ``position`` (None when
    unranked), ``ranked``, ``player``, ``matches``, ``wins``, ``balance``, ``balance_per_match``,
    ``kreski``, ``max_deals`` and ``ordinal``."""
    style = _styles()
    story = [_text(title, style["title"])]
    if subtitle:
        story.append(_text(subtitle, style["subtitle"]))
    if rows:
        story.append(_standing_table(rows, style))
    else:
        story.append(_text(_("No finished matches yet."), style["body"]))
    return _build(story, title=title)


def render_summary(
    *,
    title: str,
    facts: Sequence[tuple[str, str]],
    rows: Sequence[Mapping],
    subtitle: str = "",
    chart: Mapping | None = None,
) -> bytes:
    """The end-of-season summary: ``facts`` as (label, text) lines, then the final table, then
    ``chart`` when given: its ``title`` and a line chart of its ``series`` ((name, values) pairs)
    over its ``x_labels``, with its ``y_title`` (``charts.line_drawing``)."""
    style = _styles()
    story = [_text(title, style["title"])]
    if subtitle:
        story.append(_text(subtitle, style["subtitle"]))
    for label, text in facts:
        story.append(Paragraph(f"<b>{escape(label)}:</b> {escape(text)}", style["body"]))
    story.append(Spacer(1, 4 * mm))
    story.append(_standing_table(rows, style) if rows else _text(_("No finished matches."), style["body"]))
    if chart and chart["series"] and chart["x_labels"]:
        drawing = line_drawing(x_labels=chart["x_labels"], series=chart["series"], y_title=chart.get("y_title", ""))
        story.append(KeepTogether([_text(chart["title"], style["heading"]), drawing]))
    return _build(story, title=title)


# --- an evening's seating --------------------------------------------------------------------------------


def render_seating(
    title: str,
    rounds: Sequence[Sequence[Mapping]],
    sit_outs: Sequence[Sequence[str]] | None = None,
    *,
    subtitle: str = "",
    repeats: Sequence[tuple[int, int]] | None = None,
) -> bytes:
    """Who sits where, round by round: ``rounds[i]`` lists round i+1's tables, each
    ``{"table": 1, "seats": {"N": name, "E": …, "S": …, "W": …}, "first_dealer": "N"}`` and
    optionally ``"met_before": [{"players": [a, b], "tonight": 1, "earlier": 0}, …]`` (printed
    under the table); ``sit_outs[i]`` (optional) names who sits round i+1 out; ``repeats[i]``
    (optional) is the evening's repeats once round i+1 was seated and their lower bound."""
    style = _styles()
    story = [_text(title, style["title"])]
    if subtitle:
        story.append(_text(subtitle, style["subtitle"]))
    for index, tables in enumerate(rounds):
        head = [_("Table"), *SEATS, _("First dealer")]
        body = [
            [
                table["table"],
                *[_text(table["seats"].get(seat, ""), style["body"]) for seat in SEATS],
                table.get("first_dealer", ""),
            ]
            for table in tables
        ]
        block = [
            _text(_("Round %(number)d") % {"number": index + 1}, style["heading"]),
            _table([head, *body], [14 * mm, 35 * mm, 35 * mm, 35 * mm, 35 * mm, 26 * mm]),
        ]
        if repeats and index < len(repeats):
            count, bound = repeats[index]
            block.append(
                _text(
                    _("Repeats this evening: %(repeats)s (the fewest possible with no pair three times: %(bound)s)")
                    % {"repeats": count, "bound": bound},
                    style["body"],
                )
            )
        for table in tables:
            if table.get("met_before"):
                block.append(_text(_met_before_line(table), style["body"]))
        out = list(sit_outs[index]) if sit_outs and index < len(sit_outs) else []
        if out:
            block.append(_text(_("Sitting out: %(names)s") % {"names": ", ".join(out)}, style["body"]))
        story.append(KeepTogether(block))
    if not rounds:
        story.append(_text(_("No round is seated yet."), style["body"]))
    return _build(story, title=title)


def _met_before_line(table: Mapping) -> str:
    """ "Table 2 · pairs who played together before: a – b (tonight: 1×); …"."""
    pairs = []
    for met in table["met_before"]:
        counts = []
        if met.get("tonight"):
            counts.append(_("tonight: %(count)s×") % {"count": met["tonight"]})
        if met.get("earlier"):
            counts.append(_("earlier evenings: %(count)s×") % {"count": met["earlier"]})
        pairs.append(f"{met['players'][0]} – {met['players'][1]} ({', '.join(counts)})")
    return f"{_('Table')} {table['table']} · {_('Pairs who played together before:')} {'; '.join(pairs)}"
