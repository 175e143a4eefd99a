"""The organiser's season pages (issue 23): a new season, its settings, closing it with a
confirmation and a reason, and naming the club's arbiters and scorers. Each POST calls ONE
command of ``scoring.services``; a refusal shows the form again with what was typed."""

from __future__ import annotations

import functools

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from games.domain.exceptions import CommandError, InvalidInput, NotAllowed
from games.domain.ids import bounded_int
from printing import formats
from scoring import members
from scoring import services as scoring_services
from scoring.models import Membership

from . import selectors
from .refusals import refusal, typed_date
from .views import not_found_page

MAX_MIN_MATCHES = 1000  # ranked from that many matches: more is a typo


def _season_fields(post) -> dict:
    """The season form's fields as the commands take them (a bad value: InvalidInput naming it)."""
    min_matches = bounded_int(post.get("min_matches", "0") or "0", maximum=MAX_MIN_MATCHES)
    if min_matches is None:
        raise InvalidInput(gettext("give the number of matches as a whole number"), field="min_matches")
    return {
        "name": post.get("name", "").strip(),
        "start_date": typed_date(post.get("start_date", ""), "start_date", optional=True),
        "end_date": typed_date(post.get("end_date", ""), "end_date", optional=True),
        "min_matches": min_matches,
    }


def _admin_club(request, club_id):
    """The club, for its admins; a member who is not one: NotAllowed (403), anyone else NotFound."""
    club = selectors.club_get(club_id=club_id, user=request.user)
    return scoring_services.club_for_admin(request.user, club.pk)


def admins_only(view):
    """A ``NotAllowed`` the view raises (a member who is not the club's admin) answers the
    refusal page with its 403 and its message."""

    @functools.wraps(view)
    def page(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotAllowed as exc:
            return render(request, "web/not_found.html", {"detail": exc.detail}, status=exc.status)

    return page


@login_required
@require_http_methods(["GET", "POST"])
@not_found_page
@admins_only
def season_new(request, club_id: int):
    """A new season of one of the club's leagues (``season_create``)."""
    club = _admin_club(request, club_id)
    leagues = list(club.leagues.order_by("name"))
    form = request.POST if request.method == "POST" else {"league": str(leagues[0].pk) if leagues else ""}
    context = {"club": club, "leagues": leagues, "form": form, "season": None}
    if request.method == "POST":
        try:
            season = scoring_services.season_create(
                actor=request.user, league_id=request.POST.get("league", ""), **_season_fields(request.POST)
            )
        except CommandError as exc:
            context.update(refusal(exc))
            return render(request, "web/season_form.html", context, status=exc.status)
        return redirect("web:season-evenings", season_id=season.pk)
    return render(request, "web/season_form.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@not_found_page
@admins_only
def season_edit(request, season_id: int):
    """The season's name, dates and ranking threshold (``season_update``)."""
    season = selectors.season_get(season_id=season_id, user=request.user)
    club = _admin_club(request, season.league.club_id)
    if request.method == "POST":
        form = request.POST
    else:
        form = {
            "name": season.name,
            "start_date": season.start_date.isoformat() if season.start_date else "",
            "end_date": season.end_date.isoformat() if season.end_date else "",
            "min_matches": season.min_matches,
        }
    context = {"club": club, "season": season, "form": form}
    if request.method == "POST":
        try:
            scoring_services.season_update(actor=request.user, season_id=season.pk, **_season_fields(request.POST))
        except CommandError as exc:
            context.update(refusal(exc))
            return render(request, "web/season_form.html", context, status=exc.status)
        return redirect("web:season", season_id=season.pk)
    return render(request, "web/season_form.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@not_found_page
@admins_only
def season_closing(request, season_id: int):
    """Closing the season: what it means, a reason, and a confirmation box (``season_close``)."""
    season = selectors.season_get(season_id=season_id, user=request.user)
    _admin_club(request, season.league.club_id)
    last = season.evenings.order_by("-date").values_list("date", flat=True).first()
    end = season.end_date or last  # the season's end as set, else its last evening's date
    form = request.POST if request.method == "POST" else {"end_date": end.isoformat() if end else ""}
    context = {"season": season, "form": form}
    if request.method == "POST":
        try:
            reason = request.POST.get("reason", "")
            if not reason.strip():  # the page asks why (the API may close without a reason)
                raise InvalidInput(gettext("say why the season closes"), field="reason")
            if request.POST.get("confirm") != "yes":
                raise InvalidInput(gettext("tick the box to confirm that the season closes"), field="confirm")
            end_date = typed_date(request.POST.get("end_date", ""), "end_date", optional=True)
            scoring_services.season_close(actor=request.user, season_id=season.pk, reason=reason, end_date=end_date)
        except CommandError as exc:
            context.update(refusal(exc))
            return render(request, "web/season_closing.html", context, status=exc.status)
        return redirect("web:season-summary", season_id=season.pk)
    return render(request, "web/season_closing.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@not_found_page
@admins_only
def club_roles(request, club_id: int):
    """The members with an account and their roles; an admin names arbiters and scorers
    (``membership_set``)."""
    club = _admin_club(request, club_id)
    context = {"club": club, "error": None, "error_field": None, "done": None, "form": request.POST}
    if request.method == "POST":
        username = request.POST.get("user", "")
        try:
            membership = scoring_services.membership_set(
                actor=request.user, club_id=club.pk, username=username, role=request.POST.get("role", "")
            )
            context["done"] = gettext("%(name)s is now: %(role)s.") % {
                "name": formats.person(membership.user),
                "role": membership.get_role_display(),
            }
        except CommandError as exc:
            context.update(refusal(exc))
    context["rows"] = [row for row in members.member_rows(club, viewer=request.user) if row["account"]]
    context["roles"] = Membership.Role.choices
    return render(request, "web/club_roles.html", context, status=400 if context["error"] else 200)
