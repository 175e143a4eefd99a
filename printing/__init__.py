"""PDFs to print for the tables and the notice board, rendered with ReportLab from plain data
(names, numbers, dicts): the blank and the filled score sheet, the season standings, an
evening's seating. Nothing here reads the database; ``scoring.printouts`` gathers the data."""

from .documents import render_score_sheet, render_seating, render_standings, render_summary
from .table_sheets import render_table_sheets

__all__ = ["render_score_sheet", "render_seating", "render_standings", "render_summary", "render_table_sheets"]
