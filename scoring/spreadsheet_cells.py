"""Cells for spreadsheets: what every export a spreadsheet opens (the CSVs, and any later XLSX)
writes in place of a raw value (issue 30, finding 6).

A spreadsheet runs a text cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK(...)`` sends a click elsewhere, ``=1+1`` computes), and some read a leading tab or
carriage return past before looking. OWASP's rule (CSV Injection): such a cell is prefixed with a
single quote, which the spreadsheet shows as text and does not display. Only text is touched:
numbers, booleans and empty cells are written as they are, so a negative balance stays a number.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a spreadsheet may safely read it: text that would start a formula, quoted."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def spreadsheet_row(values: Iterable[Any]) -> list[Any]:
    """``spreadsheet_cell`` on each cell of a row."""
    return [spreadsheet_cell(value) for value in values]
