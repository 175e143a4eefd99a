"""A table's blank score sheet for the evening (issue 23, item 4), A4 landscape: round and table,
the players by seat, the first dealer and each deal's dealer (R6), a column per tally count (R31)
and the points for every seat, rows enough for the compensating deals real matches need (R7)
and a continuation sheet beyond, the QR code to the table's score-sheet page; a withdrawn
match says so across its sheet. ``render_table_sheets`` prints any number of tables in one PDF.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import segno
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Spacer, Table

from .documents import SEATS, build_pdf, grid_table, paragraph, styles
from .fonts import registered

FIRST_ROWS = 24  # 8 regular deals and 16 compensating: the demo evening's longest match had 21 deals
MORE_ROWS = 24  # the continuation sheet: deals 25–48
COUNT_COLUMNS = ("tricks", "hearts", "queens", "kings_jacks", "king_of_hearts", "last_tricks", "points")
SEAT_ORDER = "NESW"


def dealer_of(first_dealer: str, number: int) -> str:
    """R6: deal ``number``'s dealer is n − 1 places clockwise from the first dealer."""
    return SEAT_ORDER[(SEAT_ORDER.index(first_dealer) + number - 1) % 4]


def column_abbreviations() -> dict[str, str]:
    """The tally's columns as the sheet heads them (short enough for 9 mm)."""
    return {
        "tricks": pgettext("sheet column, short", "L"),
        "hearts": pgettext("sheet column, short", "K"),
        "queens": pgettext("sheet column, short", "D"),
        "kings_jacks": pgettext("sheet column, short", "KW"),
        "king_of_hearts": pgettext("sheet column, short", "K♥"),
        "last_tricks": pgettext("sheet column, short", "OL"),
        "points": pgettext("sheet column, short", "Pkt"),
    }


def qr_drawing(url: str, size: float = 28 * mm) -> Drawing:
    """The QR code drawn as squares (segno's matrix; no image library)."""
    qr = segno.make(url, error="m")
    matrix = [list(row) for row in qr.matrix_iter(border=2)]
    cell = size / len(matrix)
    drawing = Drawing(size, size)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                drawing.add(Rect(x * cell, size - (y + 1) * cell, cell, cell, fillColor=colors.black, strokeColor=None))
    return drawing


def _grid(sheet: Mapping[str, Any], first: int, count: int) -> Table:
    regular, bold = registered()
    short = column_abbreviations()
    seats_row: list[Any] = [
        pgettext("sheet column, short", "No."),
        pgettext("sheet column, short", "R/O"),
        pgettext("sheet column, short", "Dealer"),
    ]
    keys_row: list[Any] = ["", "", ""]
    spans = [("SPAN", (i, 0), (i, 1)) for i in range(3)]
    for index, seat in enumerate(SEATS):
        start = 3 + index * len(COUNT_COLUMNS)
        seats_row += [f"{seat}: {sheet['players'].get(seat, '')}"] + [""] * (len(COUNT_COLUMNS) - 1)
        keys_row += [short[key] for key in COUNT_COLUMNS]
        spans.append(("SPAN", (start, 0), (start + len(COUNT_COLUMNS) - 1, 0)))
        spans.append(("LINEBEFORE", (start, 0), (start, -1), 1.5, colors.black))
    rows = [seats_row, keys_row]
    for number in range(first, first + count):
        rows.append([number, "", dealer_of(sheet["first_dealer"], number)] + [""] * (4 * len(COUNT_COLUMNS)))
    widths = [11 * mm, 11 * mm, 11 * mm] + ([7.4 * mm] * 6 + [13 * mm]) * 4
    return grid_table(
        rows,
        widths,
        header_rows=2,
        height=5.0 * mm,
        extra=[*spans, ("FONT", (0, 1), (-1, 1), bold, 7), ("FONT", (0, 0), (-1, 0), bold, 8)],
    )


def _heading(sheet: Mapping[str, Any], style, *, continuation: bool, legend: str) -> list:
    title = _("Round %(round)s · table %(table)s") % {"round": sheet["round"], "table": sheet["table"]}
    if continuation:
        title += " · " + _("continuation sheet")
    seats = " · ".join(f"{seat}: {sheet['players'].get(seat, '')}" for seat in SEATS)
    facts = _(
        "First dealer: %(seat)s. Regular deals in order: %(kinds)s; a compensating deal (*) comes right"
        " after the deal that calls for it."
    ) % {
        "seat": sheet["first_dealer"],
        "kinds": " ".join(sheet["regular_deals"]),
    }
    text = [
        paragraph(title, style["title"]),
        paragraph(sheet.get("subtitle", ""), style["subtitle"]),
        paragraph(seats, style["body"]),
    ]
    text += [paragraph(facts, style["small"]), paragraph(legend, style["small"])]
    if sheet.get("withdrawn"):
        text.append(paragraph(sheet["withdrawn"], style["heading"]))
    qr = qr_drawing(sheet["url"]) if sheet.get("url") else ""
    head = Table([[text, qr]], colWidths=[235 * mm, 32 * mm])
    head.setStyle([("VALIGN", (0, 0), (-1, -1), "TOP")])
    return [head]


def render_table_sheets(*, title: str, sheets: Sequence[Mapping[str, Any]]) -> bytes:
    """One PDF: per table its sheet (rows 1–24) and a continuation sheet (rows 25–48).

    Each of ``sheets``: ``round``, ``table``, ``players`` (seat → name), ``first_dealer``,
    ``regular_deals`` (letters), ``subtitle`` (club, season, Polish date), ``url`` (its page, for the
    QR code), ``withdrawn`` (the mark, or empty)."""
    style = styles()
    short = column_abbreviations()
    legend = _("Columns per player: %(columns)s.") % {
        "columns": ", ".join(
            f"{short[key]} = {label}"
            for key, label in (
                ("tricks", pgettext("score sheet column", "tricks")),
                ("hearts", pgettext("score sheet column", "hearts")),
                ("queens", pgettext("score sheet column", "queens")),
                ("kings_jacks", pgettext("score sheet column", "kings and jacks")),
                ("king_of_hearts", pgettext("score sheet column", "king of hearts")),
                ("last_tricks", pgettext("score sheet column", "last tricks")),
                ("points", pgettext("score sheet column", "points")),
            )
        )
    }
    story: list = []
    for index, sheet in enumerate(sheets):
        if index:
            story.append(PageBreak())
        story += _heading(sheet, style, continuation=False, legend=legend)
        story += [Spacer(1, 2 * mm), _grid(sheet, 1, FIRST_ROWS), PageBreak()]
        story += _heading(sheet, style, continuation=True, legend=legend)
        story += [Spacer(1, 2 * mm), _grid(sheet, FIRST_ROWS + 1, MORE_ROWS)]
    if not story:
        story.append(paragraph(_("No table is seated in this round."), style["body"]))
    return build_pdf(story, title=title, pagesize=landscape(A4))
