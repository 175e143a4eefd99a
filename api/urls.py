from django.urls import path
from rest_framework import routers
from rest_framework.permissions import AllowAny
from rest_framework.reverse import reverse

from .views import MatchViewSet, ProblemTypeListView, ProblemTypeView, TokenView


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

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("problems/", ProblemTypeListView.as_view(), name="problem-list"),
    path("problems/<str:code>/", ProblemTypeView.as_view(), name="problem-detail"),
    *router.urls,
]
