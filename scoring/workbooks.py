"""XLSX workbooks of ``scoring.spreadsheet_tables.Table`` values, written with openpyxl (issue 25,
item 3): one sheet per table, a bold header row that stays frozen when scrolling, a filter on it,
columns as wide as their content, and typed cells.

- Numbers are numbers (fractions shown with their column's places), booleans real booleans
  (Excel shows them in its own language: PRAWDA/FAŁSZ in a Polish Excel, and they filter and
  count as such), dates dates.
- Times are written in ``settings.TIME_ZONE`` (a spreadsheet cell has no zone), and the header says
  which zone; dates and times use Excel's built-in short formats, which each Excel shows the way its
  locale writes dates (03.12.2026 in a Polish one).
- Text a spreadsheet would run as a formula (``scoring.spreadsheet_cells.is_formula_like``) is
  typed as text with Excel's quote prefix: shown as written, never run, still text after an edit.
- A character XML cannot hold (a control character in a name) is written as U+FFFD, not a 500.
"""

from __future__ import annotations

import datetime
import io
import zoneinfo
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.styles.numbers import BUILTIN_FORMATS
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from .spreadsheet_cells import is_formula_like
from .spreadsheet_tables import Column, Table

MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DATE_FORMAT = BUILTIN_FORMATS[14]  # Excel's short date: shown as the reader's locale writes dates
DATETIME_FORMAT = BUILTIN_FORMATS[22]  # the short date with hours and minutes, likewise
MIN_WIDTH, MAX_WIDTH = 6, 60
SHEET_TITLE_LENGTH = 31  # Excel's limit
SHEET_TITLE_FORBIDDEN = str.maketrans({char: " " for char in "[]:*?/\\"})


def workbook_bytes(tables: Iterable[Table]) -> bytes:
    """The tables as an XLSX file, one sheet each, in order."""
    book = Workbook()
    book.remove(book.active)
    for table in tables:
        write_sheet(book.create_sheet(sheet_title(table.title)), table)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def write_sheet(sheet: Worksheet, table: Table) -> None:
    headers = [header_text(column) for column in table.columns]
    sheet.append(headers)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    widths = [len(header) for header in headers]
    for r, row in enumerate(table.rows, start=2):
        for c, (value, column) in enumerate(zip(row, table.columns, strict=True), start=1):
            value = cell_value(value, column)
            write_cell(sheet, r, c, value, column)
            widths[c - 1] = max(widths[c - 1], shown_length(value, column))
    sheet.freeze_panes = "A2"  # the header row stays in view
    if table.rows:
        sheet.auto_filter.ref = sheet.dimensions
    for c, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(c)].width = min(max(width + 2, MIN_WIDTH), MAX_WIDTH)


def write_cell(sheet: Worksheet, row: int, col: int, value: Any, column: Column) -> None:
    cell = sheet.cell(row=row, column=col, value=value)
    if is_formula_like(value):  # openpyxl would store "=…" as a formula: text it is, and stays
        cell.data_type = "s"
        cell.quotePrefix = True
    elif column.kind == "float":
        cell.number_format = "0." + "0" * column.decimals if column.decimals else "0"
    elif column.kind == "date":
        cell.number_format = DATE_FORMAT
    elif column.kind == "datetime":
        cell.number_format = DATETIME_FORMAT


def cell_value(value: Any, column: Column) -> Any:
    """``value`` as a cell holds it: a time in the local zone without it, to the second (a cell
    keeps milliseconds only as a float's fraction of a day, which rounds either way), a date
    column's time as its local date, text without the characters XML cannot hold."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(zoneinfo.ZoneInfo(settings.TIME_ZONE)).replace(tzinfo=None)
        value = value.replace(microsecond=0)
        return value.date() if column.kind == "date" else value
    if isinstance(value, str):
        return ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
    return value


def header_text(column: Column) -> str:
    if column.kind == "datetime":  # a cell has no zone: the header names it
        return gettext("%(header)s (%(zone)s)") % {"header": column.header, "zone": settings.TIME_ZONE}
    return str(column.header)


def shown_length(value: Any, column: Column) -> int:
    """About how many characters the cell shows, for the column's width."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return 6
    if isinstance(value, datetime.datetime):
        return 16
    if isinstance(value, datetime.date):
        return 10
    if isinstance(value, float):
        return len(f"{value:.{column.decimals}f}")
    return max(len(line) for line in str(value).splitlines() or [""])


def sheet_title(title: Any) -> str:
    """A title Excel accepts: none of ``[]:*?/\\``, at most 31 characters."""
    return str(title).translate(SHEET_TITLE_FORBIDDEN)[:SHEET_TITLE_LENGTH]
