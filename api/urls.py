from django.urls import path
from rest_framework import routers
from rest_framework.permissions import AllowAny
from rest_framework.reverse import reverse

from . import analysis_views, audit_views, streams, webhooks
from .leagues import ClubViewSet, LeagueViewSet, PlayerViewSet, SeasonViewSet
from .views import MatchViewSet, PingView, ProblemTypeListView, ProblemTypeView, TokenView


class PublicAPIRootView(routers.APIRootView):
    """The API root: readable by anyone; lists the registered resources and the schema."""

    permission_classes = [AllowAny]

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response.data["auth-token"] = reverse("auth-token", request=request)
        response.data["problems"] = reverse("problem-list", request=request)
        response.data["schema"] = reverse("schema", request=request)
        response.data["docs"] = reverse("docs", request=request)
        return response


class Router(routers.DefaultRouter):
    APIRootView = PublicAPIRootView


router = Router()
router.register("matches", MatchViewSet, basename="match")
router.register("clubs", ClubViewSet, basename="club")
router.register("leagues", LeagueViewSet, basename="league")
router.register("seasons", SeasonViewSet, basename="season")
router.register("players", PlayerViewSet, basename="player")

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("ping/", PingView.as_view(), name="ping"),
    path("problems/", ProblemTypeListView.as_view(), name="problem-list"),
    path("problems/<str:code>/", ProblemTypeView.as_view(), name="problem-detail"),
    # Live updates (api/streams.py, async: serve them with uvicorn). The long-poll goes ahead of the
    # router's events action, which it calls once it has waited.
    path("matches/<str:pk>/stream/", streams.match_stream, name="match-stream"),
    path("matches/<str:pk>/events/", streams.events_long_poll, name="match-events-wait"),
    path("me/stream/", streams.me_stream, name="me-stream"),
    # Audit, disputes and rulings (api/audit_views.py); time travel is the state action's ?at=.
    path("matches/<str:pk>/audit/", audit_views.MatchAuditView.as_view(), name="match-audit"),
    path("matches/<str:pk>/analysis/", analysis_views.MatchAnalysisView.as_view(), name="match-analysis"),
    path("matches/<str:pk>/disputes/", audit_views.MatchDisputesView.as_view(), name="match-disputes"),
    path("disputes/", audit_views.DisputeListView.as_view(), name="dispute-list"),
    path("disputes/<str:pk>/", audit_views.DisputeDetailView.as_view(), name="dispute-detail"),
    path("disputes/<str:pk>/ruling/", audit_views.RulingView.as_view(), name="dispute-ruling"),
    # Webhooks of a club (api/webhooks.py)
    path("clubs/<str:pk>/webhooks/", webhooks.ClubWebhooksView.as_view(), name="club-webhooks"),
    path("webhooks/<str:pk>/", webhooks.WebhookView.as_view(), name="webhook-detail"),
    path("webhooks/<str:pk>/ping/", webhooks.WebhookPingView.as_view(), name="webhook-ping"),
    path("webhooks/<str:pk>/deliveries/", webhooks.WebhookDeliveriesView.as_view(), name="webhook-deliveries"),
    path("webhooks/<str:pk>/deliveries/<str:delivery_id>/redeliver/", webhooks.RedeliverView.as_view(),
         name="webhook-redeliver"),
    *router.urls,
]
