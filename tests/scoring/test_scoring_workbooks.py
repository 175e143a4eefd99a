"""The workbook writer and the excel-pl cells (issue 25, item 3) on plain values: what a cell holds
whatever the data, without a request."""

import datetime
import io

import openpyxl
import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scoring.spreadsheet_cells import excel_pl_cell, is_formula_like
from scoring.spreadsheet_tables import Column, Table
from scoring.workbooks import workbook_bytes


def read_back(table: Table) -> openpyxl.worksheet.worksheet.Worksheet:
    return openpyxl.load_workbook(io.BytesIO(workbook_bytes([table]))).active


@pytest.mark.parametrize(
    "value, cell",
    [
        (1.5, "1,5"),
        (-0.4, "-0,4"),  # the hyphen-minus: the only minus a Polish Excel reads as a number
        (117.67, "117,67"),
        (2.0, "2"),
        (1e-9, "0"),  # never "1e-09", which Excel would read as text
        (12, 12),
        (-3, -3),
        (True, "tak"),
        (False, "nie"),
        (None, ""),
        ("=1+1", "'=1+1"),
        ("-1", "'-1"),
        ("ala", "ala"),
    ],
)
def test_an_excel_pl_cell_has_a_decimal_comma_tak_nie_and_no_formula(value, cell):
    with translation.override("pl"):
        assert excel_pl_cell(value) == cell


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_every_fraction_reads_back_from_its_excel_pl_cell(value):
    text = excel_pl_cell(value)
    assert "." not in text and "e" not in text
    assert float(text.replace(",", ".")) == pytest.approx(value, abs=1e-6)


@given(st.text(max_size=40))
def test_any_text_is_written_as_text_and_never_as_a_formula(name):
    sheet = read_back(Table("T", [Column("Name")], [[name]]))

    cell = sheet["A2"]
    assert cell.data_type != "f"
    if is_formula_like(name):
        assert cell.data_type == "s" and cell.quotePrefix


def test_a_control_character_is_replaced_not_a_failure_and_a_sheet_title_is_one_excel_accepts():
    sheet = read_back(Table("Tabela [1/2]: * ? " + "x" * 40, [Column("Name")], [["a\x01b"]]))

    assert sheet["A2"].value == "a\ufffdb"
    assert sheet.title.startswith("Tabela  1 2") and len(sheet.title) == 31
    assert not set(sheet.title) & set("[]:*?/\\")


def test_a_times_zone_is_the_servers_and_named_in_the_header(settings):
    settings.TIME_ZONE = "Europe/Warsaw"
    moment = datetime.datetime(2026, 12, 3, 7, 56, tzinfo=datetime.UTC)  # 08:56 in Warsaw (CET)

    sheet = read_back(Table("T", [Column("Last played", "datetime"), Column("Day", "date")], [[moment, moment]]))

    assert sheet["A1"].value == "Last played (Europe/Warsaw)"
    assert sheet["A2"].value == datetime.datetime(2026, 12, 3, 8, 56)
    assert sheet["B2"].value == datetime.datetime(2026, 12, 3) and sheet["B2"].is_date
