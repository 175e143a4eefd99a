from django.urls import path
from rest_framework import routers
from rest_framework.permissions import AllowAny
from rest_framework.reverse import reverse

from . import (
    analysis_views,
    annotation_views,
    audit_views,
    club_exports,
    members,
    printouts,
    privacy,
    streams,
    token_views,
    webhooks,
)
from .evenings import EveningViewSet
from .leagues import ClubViewSet, LeagueViewSet, PlayerViewSet, SeasonViewSet
from .versioning import V1
from .views import MatchViewSet, PingView, ProblemTypeListView, ProblemTypeView, TokenView

# Links of the root beside the router's collections: name → URL name. Resources reached through
# another one are URI templates (``{id}``): a match's stream, a club's webhooks, a webhook.
ROOT_LINKS = {
    "auth-token": "auth-token",
    "auth-tokens": "auth-tokens",
    "ping": "ping",
    "problems": "problem-list",
    "disputes": "dispute-list",
    "me-stream": "me-stream",
    "schema": "schema",
    "docs": "docs",
    "redoc": "redoc",
    "invitations": "invitation-claim",
    "seat-invitations": "seat-invitation-list",
}
ROOT_TEMPLATES = {
    "match-stream": "match-stream",
    "match-events": "match-events-wait",
    "club-webhooks": "club-webhooks",
    "webhooks": "webhook-detail",
}


class PublicAPIRootView(routers.APIRootView):
    """The API root: readable by anyone; lists every resource, the schema and the docs."""

    permission_classes = [AllowAny]

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        for name, url_name in ROOT_LINKS.items():
            response.data[name] = reverse(url_name, request=request)
        for name, url_name in ROOT_TEMPLATES.items():
            response.data[name] = reverse(url_name, args=["0"], request=request).replace("/0/", "/{id}/")
        return response


class Router(routers.DefaultRouter):
    APIRootView = PublicAPIRootView


router = Router()
router.register("matches", MatchViewSet, basename="match")
router.register("clubs", ClubViewSet, basename="club")
router.register("leagues", LeagueViewSet, basename="league")
router.register("seasons", SeasonViewSet, basename="season")
router.register("players", PlayerViewSet, basename="player")
router.register("evenings", EveningViewSet, basename="evening")


def pdf(stem: str, version: str) -> str:
    """A PDF's path: ``…/standings.pdf`` in v1, a ``/`` segment ``…/standings/pdf/`` in v2 (beside
    ``…/standings/csv/`` and ``…/standings/xlsx/``)."""
    return f"{stem}.pdf" if version == V1 else f"{stem}/pdf/"


def patterns(version: str) -> list:
    """The API's URLs in ``version``: the same views and names, v2's paths as docs/api.md maps them."""
    return [
        path("auth/token/", TokenView.as_view(), name="auth-token"),
        path("auth/tokens/", token_views.TokenListView.as_view(), name="auth-tokens"),
        path("auth/tokens/<str:token_id>/", token_views.TokenDetailView.as_view(), name="auth-token-detail"),
        path("ping/", PingView.as_view(), name="ping"),
        path("problems/", ProblemTypeListView.as_view(), name="problem-list"),
        path("problems/<str:code>/", ProblemTypeView.as_view(), name="problem-detail"),
        # Live updates (api/streams.py, async: serve them with uvicorn). The long-poll goes ahead of the
        # router's events and state actions, which they call once they have waited.
        path("matches/<str:pk>/stream/", streams.match_stream, name="match-stream"),
        path("matches/<str:pk>/events/", streams.events_long_poll, name="match-events-wait"),
        path("matches/<str:pk>/state/", streams.state_long_poll, name="match-state-wait"),
        # The commands, each answered by its router action; with ?wait= the answer brings the actor's next move.
        *(
            path(
                f"matches/<str:pk>/{segment}/",
                streams.command_then_wait,
                {"action": action},
                name=f"match-{segment}-wait",
            )
            for segment, action in (
                ("deals", "deals"),
                ("plays", "plays"),
                ("lead-offers", "lead_offers"),
                ("lead-decision", "lead_decision"),
            )
        ),
        path("me/stream/", streams.me_stream, name="me-stream"),
        # Privacy requests (api/privacy.py, docs/privacy.md)
        path("me/data/", privacy.MyDataView.as_view(), name="me-data"),
        path("me/erasure/", privacy.MyErasureView.as_view(), name="me-erasure"),
        path("players/<str:pk>/data/", privacy.PlayerDataView.as_view(), name="player-data"),
        path("players/<str:pk>/erasure/", privacy.PlayerErasureView.as_view(), name="player-erasure"),
        path("players/<str:pk>/name/", privacy.PlayerNameView.as_view(), name="player-name"),
        # Audit, disputes and rulings (api/audit_views.py); time travel is the state action's ?at=.
        path("matches/<str:pk>/audit/", audit_views.MatchAuditView.as_view(), name="match-audit"),
        path("matches/<str:pk>/analysis/", analysis_views.MatchAnalysisView.as_view(), name="match-analysis"),
        path(
            "matches/<str:pk>/deals/<int:number>/annotations/",
            annotation_views.DealAnnotationView.as_view(),
            name="match-deal-annotations",
        ),
        path("matches/<str:pk>/disputes/", audit_views.MatchDisputesView.as_view(), name="match-disputes"),
        path("disputes/", audit_views.DisputeListView.as_view(), name="dispute-list"),
        path("disputes/<str:pk>/", audit_views.DisputeDetailView.as_view(), name="dispute-detail"),
        path("disputes/<str:pk>/ruling/", audit_views.RulingView.as_view(), name="dispute-ruling"),
        # Webhooks of a club (api/webhooks.py)
        path("clubs/<str:pk>/webhooks/", webhooks.ClubWebhooksView.as_view(), name="club-webhooks"),
        path("clubs/<str:pk>/export/", club_exports.ClubExportView.as_view(), name="club-export"),
        path("webhooks/<str:pk>/", webhooks.WebhookView.as_view(), name="webhook-detail"),
        path("webhooks/<str:pk>/ping/", webhooks.WebhookPingView.as_view(), name="webhook-ping"),
        path("webhooks/<str:pk>/deliveries/", webhooks.WebhookDeliveriesView.as_view(), name="webhook-deliveries"),
        path(
            "webhooks/<str:pk>/deliveries/<str:delivery_id>/redeliver/",
            webhooks.RedeliverView.as_view(),
            name="webhook-redeliver",
        ),
        # Printing (api/printouts.py) and invitations (api/members.py)
        path(pdf("matches/<str:pk>/sheet", version), printouts.MatchSheetView.as_view(), name="match-sheet-pdf"),
        path(
            pdf("seasons/<str:pk>/standings", version),
            printouts.SeasonStandingsPDFView.as_view(),
            name="season-standings-pdf",
        ),
        path(
            pdf("seasons/<str:pk>/summary", version),
            printouts.SeasonSummaryPDFView.as_view(),
            name="season-summary-pdf",
        ),
        path(
            pdf("evenings/<str:pk>/seating", version),
            printouts.EveningSeatingPDFView.as_view(),
            name="evening-seating-pdf",
        ),
        path("invitations/claim/", members.InvitationClaimView.as_view(), name="invitation-claim"),
        path("invitations/", members.JoinInvitationListView.as_view(), name="invitation-list"),
        path("invitations/<str:pk>/accept/", members.JoinInvitationAcceptView.as_view(), name="invitation-accept"),
        path("invitations/<str:pk>/decline/", members.JoinInvitationDeclineView.as_view(), name="invitation-decline"),
        path("seat-invitations/", members.SeatInvitationListView.as_view(), name="seat-invitation-list"),
        path(
            "seat-invitations/<str:pk>/accept/",
            members.SeatInvitationAcceptView.as_view(),
            name="seat-invitation-accept",
        ),
        path(
            "seat-invitations/<str:pk>/decline/",
            members.SeatInvitationDeclineView.as_view(),
            name="seat-invitation-decline",
        ),
        *router.urls,
    ]


urlpatterns = patterns(V1)
