"""``GET /api/v1/clubs/{id}/export/``: the club's own archive (``kierki-club/1``, a ZIP;
``scoring.club_export``), for the club's admins. Errors are problem+json even when the client asked
for the ZIP: 401 signed out, 403 for a member who is not an admin, 404 for no such club."""

from __future__ import annotations

import tempfile

from django.http import FileResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.views import APIView

from scoring import services
from scoring.club_export import club_export

from .leagues import error_responses
from .problems import PROBLEM_CONTENT_TYPE

ZIP = "application/zip"


class ZipRenderer(BaseRenderer):
    media_type = ZIP
    format = "zip"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return data


class ClubExportView(APIView):
    renderer_classes = [ZipRenderer, JSONRenderer]

    def finalize_response(self, request, response, *args, **kwargs):
        """Errors are problem+json, whatever the Accept header asked for."""
        if response.status_code >= 400:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), PROBLEM_CONTENT_TYPE
            response.content_type = PROBLEM_CONTENT_TYPE
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(
        operation_id="clubs_export",
        tags=["clubs"],
        summary="The club's own archive (ZIP, club admins)",
        description="One ZIP (`kierki-club/1`): every ended match of the club's seasons as a `kierki-match/1` "
        "record and its event log as hashed, the members and their roles (no e-mails), leagues, seasons, "
        "evenings, standings, disputes, and a checkpoint signed now. `manage.py club_archive import` reads it "
        "into an empty instance (docs/club-admin.md).",
        responses={
            (200, ZIP): OpenApiResponse(OpenApiTypes.BINARY, description="The archive."),
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request, pk=None):
        club = services.club_for_admin(request.user, pk)
        spool = tempfile.TemporaryFile()  # a big club's archive is not held in memory
        club_export(club=club, out=spool)
        spool.seek(0)
        return FileResponse(spool, content_type=ZIP, as_attachment=True, filename=f"{club.slug}-kierki.zip")
