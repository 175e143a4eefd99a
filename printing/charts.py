"""A line chart for the PDFs, drawn with ReportLab's graphics: the season summary's balance after
each evening. The same palette, dash patterns, markers, ticks and number format as the pages'
SVG (``web.charts``), so the printed chart reads like the one on the screen."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.graphics.shapes import Drawing, Line, PolyLine, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.units import mm

from web.charts import MAX_SERIES, STYLES, Series, nice_ticks, number

from .fonts import registered

WIDTH, PLOT_HEIGHT = 180 * mm, 70 * mm
LEFT, RIGHT, TOP, BOTTOM = 14 * mm, 4 * mm, 9 * mm, 10 * mm
LEGEND_ROW, LEGEND_COLUMNS = 5 * mm, 4
FONT_SIZE = 8
# ReportLab's marker names for web.charts' markers (an open one is drawn white inside)
MARKERS = {"circle": "Circle", "square": "Square", "triangle": "Triangle", "diamond": "Diamond", "cross": "Cross"}
GRID, AXIS = colors.HexColor("#dddddd"), colors.HexColor("#555555")


def line_drawing(
    *, x_labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], y_title: str = ""
) -> Drawing:
    """Lines over equally spaced ``x_labels`` (at most five printed), the first ``MAX_SERIES`` of
    ``series`` ((name, one value per x) pairs), with their legend under the plot."""
    regular, _ = registered()
    series = [Series(*one) for one in series][:MAX_SERIES]
    legend_rows = -(-len(series) // LEGEND_COLUMNS)
    height = TOP + PLOT_HEIGHT + BOTTOM + LEGEND_ROW * legend_rows
    drawing = Drawing(WIDTH, height)
    values = [v for one in series for v in one.values if v is not None] + [0]
    ticks = nice_ticks(min(values), max(values))
    low, high, count = ticks[0], ticks[-1], len(x_labels)
    base = LEGEND_ROW * legend_rows + BOTTOM  # the plot's bottom (ReportLab's y grows upwards)

    def at_x(index: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (index / (count - 1) if count > 1 else 0.5)

    def at_y(value: float) -> float:
        return base + PLOT_HEIGHT * (value - low) / (high - low)

    def text(x: float, y: float, words: str, anchor: str = "middle") -> String:
        return String(x, y, words, fontName=regular, fontSize=FONT_SIZE, textAnchor=anchor)

    if y_title:
        drawing.add(text(0, base + PLOT_HEIGHT + 5 * mm, y_title, "start"))
    for tick in ticks:
        y = at_y(tick)
        drawing.add(Line(LEFT, y, WIDTH - RIGHT, y, strokeColor=AXIS if tick == 0 else GRID, strokeWidth=0.6))
        drawing.add(text(LEFT - 1.5 * mm, y - 2.5, number(tick, signed=True), "end"))
    drawing.add(Line(LEFT, base, LEFT, base + PLOT_HEIGHT, strokeColor=AXIS, strokeWidth=0.6))
    shown = sorted({round(i * (count - 1) / 4) for i in range(5)}) if count > 5 else range(count)
    for index in shown:
        anchor = "start" if index == 0 and count > 1 else ("end" if index == count - 1 and count > 1 else "middle")
        drawing.add(text(at_x(index), base - 4 * mm, x_labels[index], anchor))
    for (colour, dash, marker), one in zip(STYLES, series):
        stroke = colors.HexColor(colour)
        points = [(at_x(i), at_y(v)) for i, v in enumerate(one.values) if v is not None]
        if len(points) > 1:
            flat = [coordinate for point in points for coordinate in point]
            drawing.add(PolyLine(flat, strokeColor=stroke, strokeWidth=1.2, strokeDashArray=_dashes(dash)))
        for x, y in points:
            drawing.add(_marker(marker, x, y, stroke))
    for index, ((colour, dash, marker), one) in enumerate(zip(STYLES, series)):
        x = (WIDTH / LEGEND_COLUMNS) * (index % LEGEND_COLUMNS)
        y = LEGEND_ROW * (legend_rows - 1 - index // LEGEND_COLUMNS) + 1.5 * mm
        stroke = colors.HexColor(colour)
        drawing.add(Line(x, y, x + 8 * mm, y, strokeColor=stroke, strokeWidth=1.2, strokeDashArray=_dashes(dash)))
        drawing.add(_marker(marker, x + 4 * mm, y, stroke))
        drawing.add(text(x + 10 * mm, y - 2.5, one.name, "start"))
    return drawing


def _dashes(pattern: str) -> list[float] | None:
    return [float(part) for part in pattern.split()] if pattern else None


def _marker(kind: str, x: float, y: float, colour) -> object:
    shape = MARKERS[kind.removesuffix("-open")]
    fill = colors.white if kind.endswith("-open") or shape == "Cross" else colour
    return makeMarker(shape, x=x, y=y, size=5, fillColor=fill, strokeColor=colour, strokeWidth=0.8)
