"""The pages: included at the site root by ``config/urls.py``."""
from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

app_name = "web"

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(template_name="web/login.html", next_page="web:matches"),
         name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="web:login"), name="logout"),
    path("matches/", views.match_list, name="matches"),
    path("matches/<uuid:match_id>/", views.match_detail, name="match"),
    path("matches/<uuid:match_id>/deals/<int:number>/", views.deal_detail, name="deal"),
    path("seasons/<int:season_id>/", views.season_detail, name="season"),
    path("evenings/<int:evening_id>/", views.evening_detail, name="evening"),
    path("records/view/", views.record_viewer, name="record-viewer"),
]
