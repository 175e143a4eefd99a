"""PDF endpoints: a match's score sheet, a season's standings and summary, an evening's seating
(``scoring.printouts`` renders them). What the caller may not read is a 404, as everywhere;
errors are problem+json even when the client asked for a PDF."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authentication import SessionAuthentication
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.views import APIView

from games.domain.exceptions import NotFound
from games.domain.ids import int_id
from games.read import selectors as games_selectors
from scoring import evening_selectors, printouts
from scoring.models import Season

from .authentication import BearerTokenAuthentication, PlayerTokenAuthentication
from .leagues import error_responses
from .problems import PROBLEM_CONTENT_TYPE

PDF = "application/pdf"


class PDFRenderer(BaseRenderer):
    media_type = PDF
    format = "pdf"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return data


class _PDFView(APIView):
    renderer_classes = [PDFRenderer, JSONRenderer]

    def finalize_response(self, request, response, *args, **kwargs):
        """Errors are problem+json, whatever the Accept header asked for."""
        if response.status_code >= 400:  # also when content negotiation itself failed (no renderer chosen)
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), PROBLEM_CONTENT_TYPE
            response.content_type = PROBLEM_CONTENT_TYPE
        return super().finalize_response(request, response, *args, **kwargs)


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=PDF)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


PDF_RESPONSE = {(200, PDF): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF (A4).")}


def pdf_operation(operation_id: str, tag: str, summary: str, description: str | None = None):
    """The schema of a PDF download: the PDF, or problem+json (401, or 404 for what the caller may not read)."""
    return extend_schema(
        operation_id=operation_id,
        tags=[tag],
        summary=summary,
        description=description,
        responses={**PDF_RESPONSE, **error_responses(401, 404)},
    )


class MatchSheetView(_PDFView):
    """``GET /api/v1/matches/{id}/sheet.pdf``."""

    authentication_classes = [PlayerTokenAuthentication, BearerTokenAuthentication, SessionAuthentication]

    @pdf_operation(
        "matches_sheet_pdf",
        "matches",
        "The match's score sheet (PDF)",
        "Blank (players, seats, the regular deals and room for compensating deals, the point values) until a deal "
        "has finished; then filled from the replay summary, with the winners once the match is over. 404 for a "
        "match you may not read.",
    )
    def get(self, request, pk=None):
        match, _viewer = games_selectors.match_get(match_id=pk, user=request.user)
        return pdf_response(printouts.match_sheet_pdf(match=match), f"match-{match.pk}-sheet.pdf")


def _season(pk) -> Season:
    season = (
        Season.objects.select_related("league__club").filter(pk=int_id(pk)).first() if int_id(pk) is not None else None
    )
    if season is None:
        raise NotFound(gettext("no season %(id)s") % {"id": pk})
    return season


class SeasonStandingsPDFView(_PDFView):
    """``GET /api/v1/seasons/{id}/standings.pdf``."""

    @pdf_operation("seasons_standings_pdf", "seasons", "The season's standings (PDF)")
    def get(self, request, pk=None):
        season = _season(pk)
        return pdf_response(printouts.season_standings_pdf(season=season), f"season-{season.pk}-standings.pdf")


class SeasonSummaryPDFView(_PDFView):
    """``GET /api/v1/seasons/{id}/summary.pdf``."""

    @pdf_operation("seasons_summary_pdf", "seasons", "The end-of-season summary (PDF)")
    def get(self, request, pk=None):
        season = _season(pk)
        return pdf_response(printouts.season_summary_pdf(season=season), f"season-{season.pk}-summary.pdf")


class EveningSeatingPDFView(_PDFView):
    """``GET /api/v1/evenings/{id}/seating.pdf``."""

    @pdf_operation(
        "evenings_seating_pdf",
        "evenings",
        "The evening's seating (PDF)",
        "Every round seated so far: its tables with the players by seat and the first dealer, and who sits out. "
        "404 for an evening you may not read (only the club's members and staff).",
    )
    def get(self, request, pk=None):
        evening = evening_selectors.evening_visible(request.user, pk)
        if evening is None:
            raise NotFound(gettext("no evening %(evening)s") % {"evening": pk})
        return pdf_response(printouts.evening_seating_pdf(evening=evening), f"evening-{evening.pk}-seating.pdf")
