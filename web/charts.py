"""Charts as accessible SVG drawn on the server, no script: pure functions from series to an SVG
string. Each chart is ``role="img"`` with its ``<title>`` and ``<desc>`` (the page shows the
numbers in a table beside it: ``web/_chart.html``). Colours are Okabe and Ito's colour-blind-safe
palette and each series has its own dash pattern and marker too, so none is told by colour
alone. Only presentation attributes, no ``style=`` (the Content-Security-Policy refuses inline
style). Text is escaped; numbers are in the reader's language (a decimal comma in Polish) with a
real minus sign (U+2212). The viewBox is a phone's width: the SVG scales to 100 % of its box."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 320  # about the width a 360 px phone gives the page: the text stays at its own size
PLOT_HEIGHT = 180
LEFT, RIGHT, TOP, BOTTOM = 44, 14, 26, 36
FONT = 12
LEGEND_ROW = 20
LEGEND_COLUMN = (WIDTH - LEFT) // 2
NAME_CHARS = 16  # a longer name is cut in a two-column legend (the table beside it has it whole)
MARKERS_UP_TO = 40  # more points than this: lines only (the dash patterns still tell them apart)
MINUS = "\u2212"
INK, GRID, AXIS = "#222222", "#dddddd", "#555555"
BAND = "#56B4E9"
# (colour, dash pattern, marker) of the series in turn: Okabe–Ito's palette
STYLES = (
    ("#0072B2", "", "circle"),
    ("#D55E00", "7 3", "square"),
    ("#009E73", "2 3", "triangle"),
    ("#CC79A7", "9 3 2 3", "diamond"),
    ("#E69F00", "4 4", "circle-open"),
    ("#000000", "1 2", "square-open"),
    ("#56B4E9", "12 4", "triangle-open"),
    ("#999999", "5 2 1 2", "cross"),
)
MAX_SERIES = len(STYLES)


class Series(NamedTuple):
    """One line: its name and one value per x (None: no point there)."""

    name: str
    values: Sequence[float | None]


def number(value: float, places: int = 0, *, signed: bool = False) -> str:
    """``value`` in the active language's format with a real minus: −12,5 in Polish; ``signed``
    shows + before a positive value."""
    value = value if isinstance(value, int) else float(value)  # a Fraction, a Decimal: as a float
    shown = number_format(abs(value), places)
    if round(value, places) < 0:
        return MINUS + shown
    return ("+" + shown) if signed and round(value, places) > 0 else shown


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values (1, 2 or 5 times a power of ten apart) covering ``low``..``high``; a range
    narrower than 0.01 is widened by 1 each way (no chart here tells such values apart)."""
    if high - low < 0.01:
        low, high = low - 1, high + 1
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(power * m for m in (1, 2, 5, 10) if power * m >= raw)
    first = math.floor(low / step) * step
    if first > low:  # low / step underflowed to -0.0 (a value of a few 1e-324)
        first -= step
    ticks = []
    value = first
    while value < high + step * 0.5:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


def _attrs(**values) -> str:
    return " ".join(f'{name.rstrip("_").replace("_", "-")}="{escape(value)}"' for name, value in values.items())


def _text(x: float, y: float, text: str, *, anchor: str = "middle", size: int = FONT) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{INK}">{escape(text)}</text>'


def _polygon(points: Sequence[tuple[float, float]], attributes: str) -> str:
    return f'<polygon points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}" {attributes}/>'


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: float = 1, dash: str = "") -> str:
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
        f'stroke-width="{width}"{dashes}/>'
    )


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    fill = "#ffffff" if kind.endswith("-open") else colour
    shape = kind.removesuffix("-open")
    common = f'fill="{fill}" stroke="{colour}" stroke-width="1.5"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.2" {common}/>'
    if shape == "square":
        return f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" {common}/>'
    if shape == "triangle":
        return _polygon([(x, y - 3.8), (x + 3.6, y + 2.8), (x - 3.6, y + 2.8)], common)
    if shape == "diamond":
        return _polygon([(x, y - 4), (x + 4, y), (x, y + 4), (x - 4, y)], common)
    return (  # a cross
        f'<path d="M{x - 3.5:.1f},{y - 3.5:.1f}L{x + 3.5:.1f},{y + 3.5:.1f}M{x - 3.5:.1f},{y + 3.5:.1f}'
        f'L{x + 3.5:.1f},{y - 3.5:.1f}" stroke="{colour}" stroke-width="2" fill="none"/>'
    )


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _open(key: str, title: str, desc: str, height: float) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="100%" '
        f'role="img" aria-labelledby="{escape(key)}-title {escape(key)}-desc" class="chart" '
        f'font-family="sans-serif" id="{escape(key)}">',
        f'<title id="{escape(key)}-title">{escape(title)}</title>',
        f'<desc id="{escape(key)}-desc">{escape(desc)}</desc>',
    ]


def _ticks_of(series: Sequence[Series], band, zero: bool) -> list[float]:
    values = [v for one in series for v in one.values if v is not None]
    values += [v for pair in band or () for v in pair]
    if zero:
        values.append(0)
    if not values:
        return [0, 1]
    return nice_ticks(min(values), max(values))


def line_chart(
    *,
    key: str,
    title: str,
    desc: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    band: Sequence[tuple[float, float]] | None = None,
    band_name: str = "",
    x_title: str = "",
    y_title: str = "",
    signed: bool = False,
    zero: bool = True,
) -> SafeString:
    """Lines over the same x positions (``x_labels``, equally spaced; at most five are printed),
    the first ``MAX_SERIES`` of ``series``, with an optional shaded ``band`` (low, high per x)
    behind them, and a legend below. ``key`` names the chart's ids (unique on the page)."""
    series = list(series)[:MAX_SERIES]
    legend_items = len(series) + (1 if band else 0)
    height = TOP + PLOT_HEIGHT + BOTTOM + LEGEND_ROW * math.ceil(legend_items / _columns(legend_items)) + 4
    out = _open(key, title, desc, height)
    ticks = _ticks_of(series, band, zero)
    low, high = ticks[0], ticks[-1]
    count = len(x_labels)
    right = WIDTH - RIGHT

    def at_x(index: int) -> float:
        return LEFT + (right - LEFT) * (index / (count - 1) if count > 1 else 0.5)

    def at_y(value: float) -> float:
        return TOP + PLOT_HEIGHT * (high - value) / (high - low)

    if y_title:
        out.append(_text(4, TOP - 10, y_title, anchor="start"))
    for tick in ticks:  # the grid and the y labels
        y = at_y(tick)
        colour, width = (AXIS, 1.2) if tick == 0 else (GRID, 1)
        out.append(_line(LEFT, y, right, y, colour, width))
        out.append(_text(LEFT - 5, y + 4, number(tick, _places_of(ticks), signed=signed), anchor="end"))
    out.append(_line(LEFT, TOP, LEFT, TOP + PLOT_HEIGHT, AXIS))
    bottom = TOP + PLOT_HEIGHT
    shown = sorted({round(i * (count - 1) / 4) for i in range(5)}) if count > 5 else range(count)
    for index in shown:  # the x labels
        anchor = "middle" if count == 1 else ("start" if index == 0 else ("end" if index == count - 1 else "middle"))
        out.append(_text(at_x(index), bottom + 14, x_labels[index], anchor=anchor))
    if x_title:
        out.append(_text(right, bottom + 28, x_title, anchor="end"))
    if band and count:
        edge = [(at_x(i), at_y(hi)) for i, (_, hi) in enumerate(band)]
        edge += [(at_x(i), at_y(lo)) for i, (lo, _) in reversed(list(enumerate(band)))]
        out.append(_polygon(edge, f'fill="{BAND}" fill-opacity="0.25" stroke="none"'))
    for (colour, dash, marker), one in zip(STYLES, series):
        out.append(f'<g class="series" {_attrs(data_name=one.name)}>')
        points = [(at_x(i), at_y(v)) for i, v in enumerate(one.values) if v is not None]
        if len(points) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            dashes = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dashes}/>')
        if len(points) <= MARKERS_UP_TO:
            out.extend(_marker(marker, x, y, colour) for x, y in points)
        out.append("</g>")
    out.extend(_legend(series, band_name if band else "", bottom + BOTTOM + 4))
    out.append("</svg>")
    return mark_safe("".join(out))


def _places_of(ticks: Sequence[float]) -> int:
    """Decimals enough to tell the ticks apart (0 for whole steps)."""
    step = abs(ticks[1] - ticks[0]) if len(ticks) > 1 else 1
    return 0 if step >= 1 else min(3, -math.floor(math.log10(step)))


def _columns(items: int) -> int:
    """Up to three legend entries one under another (their names whole), more in two columns."""
    return 1 if items <= 3 else 2


def _legend(series: Sequence[Series], band_name: str, top: float) -> list[str]:
    out = []
    items = [(style, one.name) for style, one in zip(STYLES, series)]
    if band_name:
        items.append((None, band_name))
    columns = _columns(len(items))
    for index, (style, name) in enumerate(items):
        x = LEFT + LEGEND_COLUMN * (index % columns) - 36
        y = top + LEGEND_ROW * (index // columns) + 8
        if style is None:
            out.append(f'<rect x="{x:.1f}" y="{y - 5:.1f}" width="24" height="10" fill="{BAND}" fill-opacity="0.25"/>')
        else:
            colour, dash, marker = style
            out.append(_line(x, y, x + 24, y, colour, 2, dash))
            out.append(_marker(marker, x + 12, y, colour))
        out.append(_text(x + 30, y + 4, _short(name) if columns > 1 else name, anchor="start"))
    return out


class Bar(NamedTuple):
    label: str
    value: float
    note: str = ""  # printed after the label, e.g. how many deals the value is the mean of


BAR_ROW = 44


def bar_chart(
    *, key: str, title: str, desc: str, bars: Sequence[Bar], places: int = 0, signed: bool = True
) -> SafeString:
    """Horizontal bars from a zero line, one row per bar: its label above, its value at its end."""
    height = TOP + BAR_ROW * max(len(bars), 1) + 8
    out = _open(key, title, desc, height)
    values = [bar.value for bar in bars] + [0]
    low, high = min(values), max(values)
    span = (high - low) or 1
    room = 56  # beside a bar's end: its value
    left, right = LEFT - 30 + (room if low < 0 else 0), WIDTH - RIGHT - (room if high > 0 else 0)

    def at_x(value: float) -> float:
        return left + (right - left) * (value - low) / span

    zero = at_x(0)
    for index, ((colour, _, _), bar) in enumerate(zip(STYLES, bars)):
        y = TOP + BAR_ROW * index
        out.append(_text(LEFT - 30, y + 2, bar.label + (f" · {bar.note}" if bar.note else ""), anchor="start"))
        start, end = sorted((zero, at_x(bar.value)))
        out.append(
            f'<rect x="{start:.1f}" y="{y + 8:.1f}" width="{max(end - start, 1):.1f}" height="16" fill="{colour}" '
            f'{_attrs(data_label=bar.label)} data-value="{bar.value}"/>'
        )
        shown = number(bar.value, places, signed=signed)
        if bar.value < 0:
            out.append(_text(start - 4, y + 20, shown, anchor="end"))
        else:
            out.append(_text(end + 4, y + 20, shown, anchor="start"))
    out.append(_line(zero, TOP - 4, zero, TOP + BAR_ROW * max(len(bars), 1), AXIS))
    out.append("</svg>")
    return mark_safe("".join(out))
