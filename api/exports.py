"""Renderers of the downloads (CSV, XLSX, NDJSON) and the rule they share: only the rows are a
download — an error is problem+json and OPTIONS describes the endpoint in JSON, whatever was asked.

The standings CSV is machine-readable by default (``,``, ``.`` decimals, English column keys,
``True``/``False``); ``?dialect=excel-pl`` writes it as a Polish Excel opens it (issue 25, item 3):
``;``, a UTF-8 BOM, decimal commas, Polish headers, "tak"/"nie". The XLSX renderers write
``scoring.spreadsheet_tables`` tables through ``scoring.workbooks``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator, Iterable, Iterator

from asgiref.sync import sync_to_async
from django.http import StreamingHttpResponse
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer

from scoring import workbooks
from scoring.spreadsheet_cells import excel_pl_cell, spreadsheet_row
from scoring.spreadsheet_tables import STANDING_COLUMNS, STANDING_KEYS, standing_values, standings_table

from .problems import PROBLEM_CONTENT_TYPE

EXCEL_PL = "excel-pl"
EXPORT_FORMATS = {"csv", "xlsx", "ndjson", "ndjson-bytes"}
XLSX_RESPONSE = OpenApiResponse(OpenApiTypes.BINARY, description="An XLSX workbook (Excel, LibreOffice).")


class CSVQuery(serializers.Serializer):
    dialect = serializers.ChoiceField(
        choices=[EXCEL_PL],
        required=False,
        help_text="excel-pl: as a Polish Excel opens it — `;` between cells, a UTF-8 BOM, decimal commas, "
        'Polish headers, "tak"/"nie". Without it: `,`, decimal points, the JSON keys as headers.',
    )


class StandingsCSVRenderer(BaseRenderer):
    """The standings as CSV: one header line, then one line per row (``?format=csv`` or
    ``Accept: text/csv``); the view checked ``?dialect=`` (``CSVQuery``) before rendering."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        request = (renderer_context or {}).get("request")
        if request is not None and request.query_params.get("dialect") == EXCEL_PL:
            return excel_pl_csv(data["rows"])
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(STANDING_KEYS)  # errors never come here: ProblemsWhenExporting renders them as JSON
        # Member names are text a spreadsheet could run as a formula (issue 30, finding 6).
        writer.writerows(spreadsheet_row(standing_values(row)) for row in data["rows"])
        return out.getvalue().encode(self.charset)


def excel_pl_csv(rows: list[dict]) -> bytes:
    """The standings rows as a Polish Excel opens a CSV (it reads the BOM as UTF-8, ``;`` as the
    separator of its locale, ``1,5`` as a number)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    with translation.override("pl"):  # the dialect is Polish, whatever the reader's language
        writer.writerow([str(column.header) for _key, column in STANDING_COLUMNS])
        writer.writerows([excel_pl_cell(value) for value in standing_values(row)] for row in rows)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


class XLSXRenderer(BaseRenderer):
    """An XLSX workbook (``?format=xlsx`` or ``Accept: application/vnd.openxmlformats-…sheet``) of
    the view's ``scoring.spreadsheet_tables.Table`` list."""

    media_type = workbooks.MEDIA_TYPE
    format = "xlsx"
    charset = None
    render_style = "binary"

    def tables(self, data) -> list:
        return data

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return workbooks.workbook_bytes(self.tables(data))


class StandingsXLSXRenderer(XLSXRenderer):
    """The JSON standings (``GET /seasons/{id}/standings/``) as one sheet of the same rows."""

    def tables(self, data) -> list:
        return [standings_table(data["rows"])]


class ProblemsWhenExporting:
    """A view mixin: an error asked for as a download is problem+json (a client reads it as every
    other error of the API; the schema says so), and OPTIONS describes the endpoint in JSON."""

    def finalize_response(self, request, response, *args, **kwargs):
        renderer = getattr(request, "accepted_renderer", None)
        # No renderer: the negotiation itself failed (``?format=x``: a 404), and DRF would render that
        # error with the action's first renderer, CSV for standings/csv/ (issue 30, finding 7).
        exporting = renderer is None or getattr(renderer, "format", None) in EXPORT_FORMATS
        if exporting and response.status_code >= 400:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), PROBLEM_CONTENT_TYPE
            response.content_type = PROBLEM_CONTENT_TYPE
        elif exporting and request.method == "OPTIONS":
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)


def attachment(response, filename: str):
    """``response`` as a download saved under ``filename``."""
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def streamed(request, chunks: Iterator[str], content_type: str) -> StreamingHttpResponse:
    """``chunks`` sent as they are made, under either server. Django reads a synchronous iterator
    whole before it sends a byte under ASGI (``make run``, uvicorn), and an asynchronous one whole
    under WSGI (gunicorn): each gets the kind it streams."""
    under_asgi = getattr(request, "scope", None) is not None  # an ASGIRequest has the ASGI scope
    return StreamingHttpResponse(pulled(chunks) if under_asgi else chunks, content_type=content_type)


async def pulled(chunks: Iterable[str]) -> AsyncIterator[str]:
    """Each chunk made in Django's one thread for synchronous code (the ORM's connection and a
    server-side cursor stay with the thread that opened them)."""
    step = sync_to_async(next, thread_sensitive=True)
    chunks, done = iter(chunks), object()
    while (chunk := await step(chunks, done)) is not done:
        yield chunk
