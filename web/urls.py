"""The pages: included at the site root by ``config/urls.py``."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from . import dispute_views, evening_views, privacy_views, season_views, sheet_views, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(template_name="web/login.html", next_page="web:matches"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="web:login"), name="logout"),
    # A signed-in person changes his password (Django's views: the old one first; the session stays)
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(
            template_name="web/password_change.html", success_url=reverse_lazy("web:password_change_done")
        ),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="web/password_change_done.html"),
        name="password_change_done",
    ),
    # Password reset by e-mail: Django's own views (the mail goes through EMAIL_BACKEND)
    path(
        "accounts/password_reset/",
        views.PasswordResetView.as_view(
            template_name="web/password_reset.html",
            email_template_name="web/password_reset_email.txt",
            subject_template_name="web/password_reset_subject.txt",
            success_url=reverse_lazy("web:password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(template_name="web/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="web/password_reset_confirm.html", success_url=reverse_lazy("web:password_reset_complete")
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(template_name="web/password_reset_complete.html"),
        name="password_reset_complete",
    ),
    path("invitations/", views.join_invitations, name="join-invitations"),
    path("accounts/tokens/", views.my_tokens, name="tokens"),
    path("accounts/data/", privacy_views.my_data, name="my-data"),
    path("accounts/email/", privacy_views.my_email, name="my-email"),
    path("invitations/<str:token>/", views.invitation_claim, name="invitation"),
    path("clubs/", views.club_list, name="clubs"),
    path("clubs/<int:club_id>/", views.club_detail, name="club"),
    path("clubs/<int:club_id>/members/", views.club_members, name="club-members"),
    path("clubs/<int:club_id>/members/<int:player_id>/data/", privacy_views.member_data, name="member-data"),
    path("clubs/<int:club_id>/members/<int:player_id>/name/", privacy_views.member_name, name="member-name"),
    path("matches/", views.match_list, name="matches"),
    path("matches/<uuid:match_id>/", views.match_detail, name="match"),
    path("matches/<uuid:match_id>/sheet/", sheet_views.match_sheet, name="match-sheet"),
    path("matches/<uuid:match_id>/sheet/check/", sheet_views.match_sheet_check, name="match-sheet-check"),
    path("matches/<uuid:match_id>/sheet/print.pdf", sheet_views.match_sheet_pdf, name="match-sheet-pdf"),
    path(
        "evenings/<int:evening_id>/rounds/<int:number>/sheets.pdf",
        sheet_views.round_sheets_pdf,
        name="round-sheets-pdf",
    ),
    path("matches/<uuid:match_id>/confirmation/", views.match_confirm, name="match-confirm"),
    path("matches/<uuid:match_id>/withdrawal/", views.match_withdraw, name="match-withdraw"),
    path("matches/<uuid:match_id>/disputes/", dispute_views.match_disputes, name="match-disputes"),
    path(
        "matches/<uuid:match_id>/disputes/<int:dispute_id>/ruling/",
        dispute_views.dispute_ruling,
        name="dispute-ruling",
    ),
    path("matches/<uuid:match_id>/deals/<int:number>/", views.deal_detail, name="deal"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
    path("seasons/<int:season_id>/", views.season_detail, name="season"),
    path("seasons/<int:season_id>/summary/", views.season_summary, name="season-summary"),
    path("seasons/<int:season_id>/players/<int:player_id>/", views.season_player, name="season-player"),
    # closing asks for a reason and a confirmation (issue 23: it was one click)
    path("seasons/<int:season_id>/close/", season_views.season_closing, name="season-close"),
    path("evenings/<int:evening_id>/", views.evening_detail, name="evening"),
    path("records/view/", views.record_viewer, name="record-viewer"),
    # The organiser's pages of a club evening (issue 23)
    path("clubs/<int:club_id>/seasons/new/", season_views.season_new, name="season-new"),
    path("clubs/<int:club_id>/roles/", season_views.club_roles, name="club-roles"),
    path("seasons/<int:season_id>/edit/", season_views.season_edit, name="season-edit"),
    path("seasons/<int:season_id>/evenings/", evening_views.season_evenings, name="season-evenings"),
    path("seasons/<int:season_id>/evenings/new/", evening_views.evening_new, name="evening-new"),
    path("evenings/<int:evening_id>/players/", evening_views.evening_players, name="evening-players"),
    path("evenings/<int:evening_id>/seat/", evening_views.evening_seat, name="evening-seat"),
    path("evenings/<int:evening_id>/results/", evening_views.evening_results, name="evening-results"),
    path(
        "evenings/<int:evening_id>/rounds/<int:number>/tables/<int:table>/refile/",
        evening_views.evening_table_refile,
        name="evening-table-refile",
    ),
]
