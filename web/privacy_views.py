"""The privacy pages (issue 28, docs/privacy.md): "Moje dane" — a person downloads everything the
service holds about him, or erases himself after typing his username, or corrects his e-mail
address — and a club admin's pages on a member: the download, the erasure, and his display name
corrected. The work is ``accounts.erasure``, ``accounts.personal_data`` and
``accounts.rectification``'s."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.erasure import erasure_role, person_erase
from accounts.personal_data import person_export
from accounts.rectification import email_change, named_by_username, player_rename
from games.domain.exceptions import CommandError, NotFound
from games.models import Match, Player
from web import selectors
from web.refusals import refusal


def _download(document: dict) -> HttpResponse:
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1, cls=DjangoJSONEncoder), content_type="application/json"
    )
    response["Content-Disposition"] = 'attachment; filename="kierki-personal-data.json"'
    return response


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def my_data(request):
    """``/accounts/data/`` ("Moje dane"): what the service holds about you, to download; and the
    erasure, confirmed by typing your username."""
    user = request.user
    player = getattr(user, "player", None)
    if request.GET.get("download"):
        return _download(person_export(actor=user, player=player, user=user))
    error = None
    if request.method == "POST":
        if request.POST.get("confirm") != user.get_username():
            error = gettext("Type your username exactly to confirm the erasure.")
        else:
            try:
                done = person_erase(actor=user, player=player, user=user)
            except CommandError as exc:
                error = exc.detail
            else:
                logout(request)
                return render(request, "web/erased.html", {"number": done.erased_number})
    context = {"person": player, "account": user, "matches": _match_count(player), "error": error, "own": True}
    return render(request, "web/privacy.html", context, status=400 if error else 200)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def member_data(request, club_id: int, player_id: int):
    """``/clubs/<id>/members/<player>/data/``: a club admin answers a member's request (access or
    erasure) for him — a member of this club only, and of no other (``erasure_role``)."""
    try:
        return _member_data(request, club_id, player_id)
    except CommandError as exc:  # 404 for a person he cannot see, 403 for one he may not erase
        return render(request, "web/not_found.html", {"detail": exc.detail}, status=exc.status)


def _club_member(request, club_id: int, player_id: int):
    """The club and the member whose data its admin (or staff) handles; else ``NotFound``."""
    club = selectors.club_get(club_id=club_id, user=request.user)
    player = Player.objects.filter(pk=player_id, erased_number__isnull=True).select_related("user").first()
    if player is None:
        raise NotFound(gettext("No such person among your club's members."))
    role, in_club = erasure_role(request.user, player, player.user)
    if role == "admin" and in_club != club.pk:
        raise NotFound(gettext("No such person among your club's members."))
    return club, player, role, in_club


def _member_data(request, club_id: int, player_id: int):
    club, player, role, in_club = _club_member(request, club_id, player_id)
    if request.GET.get("download"):
        return _download(person_export(actor=request.user, player=player, by_role=role, club_id=in_club))
    error = None
    if request.method == "POST":
        if request.POST.get("confirm") != player.username:
            error = gettext("Type the member's name exactly to confirm the erasure.")
        else:
            try:
                done = person_erase(actor=request.user, player=player)
            except CommandError as exc:
                error = exc.detail
            else:
                return render(request, "web/erased.html", {"number": done.erased_number, "club": club})
    context = {
        "person": player,
        "account": player.user,
        "matches": _match_count(player),
        "error": error,
        "club": club,
        "renamable": not named_by_username(player),
    }
    return render(request, "web/privacy.html", context, status=400 if error else 200)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def member_name(request, club_id: int, player_id: int):
    """``/clubs/<id>/members/<player>/name/``: a club admin corrects the display name of a member
    without an account (``player_rename``); refused, the page again with the name as typed."""
    try:
        club, player, _, _ = _club_member(request, club_id, player_id)
    except CommandError as exc:
        return render(request, "web/not_found.html", {"detail": exc.detail}, status=exc.status)
    form = {"name": player.username}
    if request.method == "POST":
        form = {"name": request.POST.get("name", "")}
        try:
            player_rename(actor=request.user, player=player, name=form["name"])
        except CommandError as exc:
            context = {"club": club, "person": player, "form": {**form, **refusal(exc)}}
            return render(request, "web/member_name.html", context, status=exc.status)
        messages.success(request, gettext("The name is corrected."))
        return redirect("web:member-data", club.pk, player.pk)
    return render(request, "web/member_name.html", {"club": club, "person": player, "form": form})


def _match_count(player: Player | None) -> int:
    if player is None:
        return 0
    return sum(Match.objects.filter(**{seat: player}).count() for seat in Match.SEAT_FIELDS)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def my_email(request):
    """``/accounts/email/``: the signed-in person corrects his e-mail address, confirmed by his
    password; refused, the page again with the address as typed and the message beside its field."""
    form = {"email": request.user.email}
    if request.method == "POST":
        form = {"email": request.POST.get("email", "")}
        try:
            email_change(user=request.user, email=form["email"], password=request.POST.get("password", ""))
        except CommandError as exc:
            return render(request, "web/email_change.html", {"form": {**form, **refusal(exc)}}, status=exc.status)
        messages.success(request, gettext("Your e-mail address is saved."))
        return redirect("web:my-data")
    return render(request, "web/email_change.html", {"form": form})
