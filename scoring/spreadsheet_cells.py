"""Cells for spreadsheets: what every export a spreadsheet opens (the CSVs and the XLSX
workbooks) writes in place of a raw value (issue 30, finding 6; issue 25, item 3).

A spreadsheet runs a text cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK(...)`` sends a click elsewhere, ``=1+1`` computes), and some read a leading tab or
carriage return past before looking. ``is_formula_like`` is the one place that says which text
that is; each format neutralises it its own way. A CSV cell gets OWASP's rule (CSV Injection): a
single quote in front, which the spreadsheet shows as text and does not display. An XLSX cell is
typed as text with Excel's quote prefix (``scoring.workbooks``), so it shows as written and is
still text after an edit. Only text is touched: numbers, booleans and empty cells are written as
they are, so a negative balance stays a number.

``excel_pl_cell`` writes a value as a Polish Excel reads a CSV cell (``?dialect=excel-pl``):
a decimal comma, "tak"/"nie" for booleans, an empty cell for none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
DECIMALS = 6  # places an excel-pl CSV keeps of a fraction (the JSON's floats are rounded to 3 or fewer)


def is_formula_like(value: Any) -> bool:
    """Whether a spreadsheet would run ``value`` as a formula: text starting with ``FORMULA_STARTS``."""
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a spreadsheet may safely read it from a CSV: text that would start a formula, quoted."""
    return "'" + value if is_formula_like(value) else value


def spreadsheet_row(values: Iterable[Any]) -> list[Any]:
    """``spreadsheet_cell`` on each cell of a row."""
    return [spreadsheet_cell(value) for value in values]


def excel_pl_cell(value: Any) -> Any:
    """A CSV cell for a Polish Excel: neutralised text, "tak"/"nie" (in the active language),
    fractions with a decimal comma (a hyphen-minus stays: Excel reads no other minus as a number)."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{DECIMALS}f}".rstrip("0").rstrip(".").replace(".", ",")
    return spreadsheet_cell(value)
