"""Server-rendered pages: thin views over ``web.selectors`` (which asks ``games.selectors`` who
may read a match). Signed-out visitors are sent to the login page; a match, deal or season the
user may not read is a 404 that does not say whether it exists."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from games import selectors as games_selectors
from games.exceptions import InvalidInput, NotFound

from . import selectors


def _not_found(request, exc: NotFound):
    return render(request, "web/not_found.html", {"detail": exc.detail}, status=404)


@login_required
def match_list(request):
    matches = list(games_selectors.match_list(user=request.user)[:100])
    return render(request, "web/match_list.html", {"matches": [
        {"match": m, "names": [p.username for p in m.seat_players()], "summary": m.projection.summary}
        for m in matches]})


@login_required
def match_detail(request, match_id):
    try:
        match, viewer, role = selectors.match_for_page(match_id=match_id, user=request.user)
    except NotFound as exc:
        return _not_found(request, exc)
    sheet = selectors.score_sheet(match=match, viewer=viewer)
    return render(request, "web/match_detail.html", {"match": match, "role": role, "sheet": sheet})


@login_required
def deal_detail(request, match_id, number: int):
    try:
        match, viewer, role = selectors.match_for_page(match_id=match_id, user=request.user)
        view = selectors.deal_view(match=match, viewer=viewer, number=number)
    except NotFound as exc:
        return _not_found(request, exc)
    return render(request, "web/deal_detail.html", {"match": match, "role": role, "view": view})


@login_required
def season_detail(request, season_id: int):
    try:
        season = selectors.season_get(season_id=season_id, user=request.user)
    except NotFound as exc:
        return _not_found(request, exc)
    return render(request, "web/season_detail.html", selectors.season_standings(season=season, user=request.user))


@login_required
@require_http_methods(["GET", "POST"])
def record_viewer(request):
    """Paste a ``kierki-match/1`` record and step through one of its deals — an illegal one
    included (nothing is stored)."""
    context = {"text": "", "deal": "", "view": None, "error": None}
    if request.method == "POST":
        context["text"] = request.POST.get("record", "")
        context["deal"] = request.POST.get("deal", "").strip()
        try:
            data = json.loads(context["text"])
            number = int(context["deal"]) if context["deal"] else None
            context["view"] = selectors.record_deal_view(data=data, number=number)
        except json.JSONDecodeError as exc:
            context["error"] = gettext("not valid JSON: %(error)s") % {"error": exc}
        except ValueError:
            context["error"] = gettext("the deal number must be a whole number")
        except InvalidInput as exc:
            context["error"] = exc.detail
    return render(request, "web/record_viewer.html", context, status=400 if context["error"] else 200)
