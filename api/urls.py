from rest_framework import routers
from rest_framework.permissions import AllowAny
from rest_framework.reverse import reverse


class PublicAPIRootView(routers.APIRootView):
    """The API root: readable by anyone; lists the registered resources and the schema."""

    permission_classes = [AllowAny]

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response.data["schema"] = reverse("schema", request=request)
        response.data["docs"] = reverse("docs", request=request)
        return response


class Router(routers.DefaultRouter):
    APIRootView = PublicAPIRootView


router = Router()

urlpatterns = router.urls
