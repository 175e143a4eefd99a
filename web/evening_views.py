"""The organiser's pages of a club evening (issue 23): the season's evenings, a new evening with
the members present ticked and guests added by name, late arrivals and withdrawals, seating a
round (the server's seating, or tables arranged by hand and previewed before they are saved),
and the evening's results. Thin views: each POST calls ONE command of ``scoring`` and, when it
is refused, shows the page again with what was typed and the Polish message beside the field."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from games.domain.exceptions import CommandError, InvalidInput, NotFound
from games.domain.ids import bounded_int
from printing.formats import by_name
from scoring import evening_selectors, evening_services, members

from . import selectors
from .refusals import refusal, typed_date
from .views import not_found_page

SEATS = ("N", "E", "S", "W")


def _evening(request, evening_id) -> object:
    evening = evening_selectors.evening_visible(request.user, evening_id)
    if evening is None:
        raise NotFound(gettext("no evening %(evening)s") % {"evening": evening_id})
    return evening


# --- the season's evenings -------------------------------------------------------------------------


@login_required
@not_found_page
def season_evenings(request, season_id: int):
    """Every evening of the season, newest first, with links to each."""
    season = selectors.season_get(season_id=season_id, user=request.user)
    return render(
        request,
        "web/season_evenings.html",
        {
            "season": season,
            "evenings": season.evenings.order_by("-date", "-id"),
            "manages": evening_selectors.can_manage_evenings(request.user, season.league.club_id),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@not_found_page
def evening_new(request, season_id: int):
    """A new evening: date, rounds, dealing; the members present ticked from the club's list;
    guests (new profiles) one name a line. One command: ``evening_services.evening_create``."""
    season = selectors.season_get(season_id=season_id, user=request.user)
    club_players = by_name(members.club_players(season.league.club_id), lambda p: p.username)
    posted = request.POST if request.method == "POST" else None
    context = {
        "season": season,
        "club_players": club_players,
        "form": {
            "date": posted.get("date", "") if posted else timezone.localdate().isoformat(),  # today in TIME_ZONE
            "rounds": posted.get("rounds", "") if posted else "4",
            "dealing": posted.get("dealing", "recorded") if posted else "recorded",
            "present": set(posted.getlist("present")) if posted else set(),
            "guests": posted.get("guests", "") if posted else "",
        },
    }
    if posted is not None:
        try:
            rounds = bounded_int(posted.get("rounds", ""), maximum=1000)
            if rounds is None:
                raise InvalidInput(gettext("give the number of rounds as a whole number"), field="rounds")
            evening = evening_services.evening_create(
                actor=request.user,
                season_id=season.pk,
                date=typed_date(posted.get("date", ""), "date"),
                rounds=rounds,
                dealing=posted.get("dealing", "recorded"),
                players=posted.getlist("present"),
                guests=[line.strip() for line in posted.get("guests", "").splitlines() if line.strip()],
            )
        except CommandError as exc:
            context.update(refusal(exc))
            return render(request, "web/evening_new.html", context, status=exc.status)
        return redirect("web:evening-seat", evening_id=evening.pk)
    return render(request, "web/evening_new.html", context)


# --- who is there ------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@not_found_page
def evening_players(request, evening_id: int):
    """Late arrivals (``evening_sign_in``) and withdrawals (``evening_withdraw``), from the next round."""
    evening = _evening(request, evening_id)
    context = {"evening": evening, "error": None, "error_field": None, "done": None, "form": request.POST}
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "sign_in":
                names = request.POST.getlist("arrive")
                evening_services.evening_sign_in(actor=request.user, evening_id=evening.pk, players=names)
                context["done"] = gettext("Signed in: %(names)s.") % {"names": ", ".join(names)}
            elif action == "withdraw":
                name = request.POST.get("leave", "")
                evening_services.evening_withdraw(actor=request.user, evening_id=evening.pk, player=name)
                context["done"] = gettext("%(name)s leaves the evening.") % {"name": name}
            else:
                raise InvalidInput(gettext("unknown action"))
        except CommandError as exc:
            context.update(refusal(exc))
            context["error_field"] = "leave" if action == "withdraw" else "arrive"
    attendance = evening_selectors.evening_attendance(evening)
    here = {row["player"] for row in attendance if row["present"]}
    context.update(
        {
            "attendance": attendance,
            "next_round": evening_selectors.evening_next_round(evening),
            "absent": by_name(
                p.username for p in members.club_players(evening.season.league.club_id) if p.username not in here
            ),
            "posted_arrive": set(request.POST.getlist("arrive")) if context["error"] else set(),
        }
    )
    return render(request, "web/evening_players.html", context, status=400 if context["error"] else 200)


# --- seating a round ---------------------------------------------------------------------------------


def _hand_tables(post, count: int, *, complete_only: bool = False) -> list[list[str]]:
    """The tables typed by hand: ``t1-N`` … ``t<count>-W`` (an empty table is left out, and
    while they are being typed, ``complete_only``, a table not yet of four too)."""
    tables = []
    for t in range(1, count + 1):
        names = [post.get(f"t{t}-{seat}", "").strip() for seat in SEATS]
        if all(names) or (any(names) and not complete_only):
            tables.append(names)
    return tables


@login_required
@require_http_methods(["GET", "POST"])
@not_found_page
def evening_seat(request, evening_id: int):
    """Seat the next round: the server's seating (one button), or tables arranged by hand, shown
    with their earlier meetings and the evening's repeats (``evening_round_preview``) before
    ``evening_round_seat`` saves them."""
    evening = _evening(request, evening_id)
    if not evening_selectors.can_manage_evenings(request.user, evening.season.league.club_id):
        raise NotFound(gettext("no evening %(evening)s") % {"evening": evening_id})
    number = evening_selectors.evening_next_round(evening)
    present = by_name(p.username for p in evening_selectors.evening_present(evening, number))
    count = max(1, len(present) // 4)
    post = request.POST if request.method == "POST" else {}
    hand = [[post.get(f"t{t}-{seat}", "") for seat in SEATS] for t in range(1, count + 1)]
    context = {
        "evening": evening,
        "number": number,
        "present": present,
        "hand": [{"number": t, "seats": list(zip(SEATS, names))} for t, names in enumerate(hand, start=1)],
        "preview": None,
        "error": None,
        "error_field": None,
        "complete": number > evening.rounds,
    }
    if request.method == "POST":
        action = post.get("action")
        typing = bool(request.htmx) and action == "preview"  # checked as typed: the complete tables
        tables = _hand_tables(post, count, complete_only=typing) if action in ("preview", "manual") else None
        try:
            if action == "preview" and (tables or not typing):  # typed so far: no table of four, nothing to check
                context["preview"] = evening_services.evening_round_preview(
                    actor=request.user, evening_id=evening.pk, number=number, tables=tables
                )
            elif action in ("auto", "manual"):
                evening_services.evening_round_seat(
                    actor=request.user, evening_id=evening.pk, number=number, tables=tables
                )
                return redirect(f"{reverse('web:evening', args=[evening.pk])}#round-{number}")
            elif action != "preview":
                raise InvalidInput(gettext("unknown action"))
        except CommandError as exc:
            context.update(refusal(exc))
        # htmx swaps only a 2xx answer: the refusal, checked as typed, comes as 200 for it
        status = 400 if context["error"] and not request.htmx else 200
        return render(request, "web/evening_seat.html", context, status=status)
    return render(request, "web/evening_seat.html", context)


# --- results ----------------------------------------------------------------------------------------


@login_required
@not_found_page
def evening_results(request, evening_id: int):
    """Each table's points by player, and the evening's own ranking."""
    evening = _evening(request, evening_id)
    return render(
        request, "web/evening_results.html", {"evening": evening, **evening_selectors.evening_results(evening)}
    )


@login_required
@require_http_methods(["POST"])
@not_found_page
def evening_table_refile(request, evening_id: int, number: int, table: int):
    """A withdrawn table filed again in its place (``evening_table_refile``): the new match's page."""
    try:
        match = evening_services.evening_table_refile(
            actor=request.user, evening_id=evening_id, round_number=number, table_number=table
        )
    except CommandError as exc:
        if isinstance(exc, NotFound):
            raise  # the 404 page (not_found_page): it does not say whether the evening exists
        return render(request, "web/not_found.html", {"detail": exc.detail}, status=exc.status)
    return redirect("web:match", match_id=match.pk)
