"""The score-sheet page a table fills (issue 23, item 2): the paper sheet on screen, the filed deals
with running totals, one row for the deal due (tally, R31, or points, R33) checked as it is typed
(an htmx partial: the engine through the server), and the deals the engine schedules after it.
Filing is ``games.write.services.deal_tally`` (``POST /api/v1/matches/{id}/tallies/`` is its API twin);
a refused row comes back with every value as typed."""

from __future__ import annotations

from typing import Any

import segno
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from games.domain.exceptions import CommandError, NotFound
from games.domain.roles import is_scorer, role_of, seat_of
from games.engine.match import MatchState, restore
from games.models import Match
from games.write import services
from scoring import evening_selectors, printouts

from . import selectors
from .sheet_form import LABELS, POINTS, SEATS, TALLY, Row, row_check, row_keys, row_read
from .views import not_found_page

PDF = "application/pdf"


def sheet_state(match: Match) -> MatchState:
    """The match as the engine sees it now (the projection's snapshot): what is due, what was filed."""
    return restore(match.projection.snapshot)


def may_file(match: Match, user) -> bool:
    """Who may file here: the scorer of a recorded match still in progress, or one of its seated
    players on his phone (``deal_tally`` decides)."""
    return (
        match.dealing == Match.Dealing.RECORDED
        and match.status == Match.Status.IN_PROGRESS
        and (is_scorer(match, user) or seat_of(match, user) is not None)
    )


def schedule_ahead(state: MatchState) -> list[dict[str, Any]]:
    """The deals still due as the engine schedules them (R5–R7, R23–R25): number, kind, dealer and
    whether it is compensating; the dealer rotates as ``Schedule.next`` turns it."""
    schedule = state.schedule
    due = []
    for index, (kind, designated) in enumerate(schedule.pending):
        number = schedule.played + 1 + index
        dealer = schedule.first_dealer.next(number - 1 - schedule.voided)
        due.append(
            {"number": number, "kind": kind.value, "dealer": dealer.name, "compensating": designated is not None}
        )
    return due


def running_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The filed deals with the running total after each, per seat (a voided deal counts nothing,
    an adjusted one its ruled points, as the totals do)."""
    running = dict.fromkeys(SEATS, 0)
    rows = []
    for deal in summary["deals"]:
        counted = deal.get("adjusted_points") or deal["points"]
        if not deal.get("voided"):
            for seat in SEATS:
                running[seat] += counted[seat]
        rows.append(
            {
                "number": deal["number"],
                "kind": deal["kind"],
                "dealer": deal.get("dealer", ""),
                "compensating": deal.get("compensating", False),
                "entry": deal.get("entry", "played"),
                "cells": [
                    {
                        "seat": seat,
                        "points": counted[seat],
                        "running": running[seat],
                        "tricks": None if deal.get("tricks") is None else deal["tricks"][seat],
                    }
                    for seat in SEATS
                ],
            }
        )
    return rows


def row_grid(row: Row) -> list[dict[str, Any]]:
    """The row's inputs seat by seat, each with its value as typed and its fault (the template
    cannot look names up): ``[{"seat", "cells": [{"name", "key", "label", "value", "error"}]}]``."""
    return [
        {
            "seat": seat,
            "cells": [
                {
                    "name": f"{seat}-{key}",
                    "key": key,
                    "label": LABELS[key],
                    "value": row.values.get(f"{seat}-{key}", ""),
                    "error": row.errors.get(f"{seat}-{key}", ""),
                }
                for key in (*row.keys, "points")
            ],
        }
        for seat in SEATS
    ]


def row_sums(row: Row) -> list[dict[str, Any]]:
    """The columns' sums as typed, each with its fault (R32 (c))."""
    return [
        {"key": key, "sum": row.sums.get(key, ""), "error": row.errors.get(f"sum-{key}", "")}
        for key in (*row.keys, "points")
    ]


def qr_svg(url: str) -> str:
    """The QR code to this page (segno's SVG: paths only, no inline style)."""
    return segno.make(url, error="m").svg_inline(scale=3, dark="#000", light=None)


def correctable(match: Match, user, state: MatchState):
    """The latest deal filed from the paper sheet, if this user may be offered to correct it
    (issue 23, item 3): no deal in play, the match not abandoned, and the user its scorer or one of
    its arbiters — ``deal_correct`` decides the rest (signatures, involvement) and says why not."""
    last = state.results[-1] if state.results else None
    if last is None or last.entry not in (TALLY, POINTS) or last.voided or last.adjusted is not None:
        return None
    if state.deal is not None or match.status == Match.Status.ABANDONED:
        return None
    role = role_of(match, user)
    return last if (role.kind == role.SCORER and is_scorer(match, user)) or role.may_rule else None


def filed_row(last) -> Row:
    """The correction form of the latest filed deal, prefilled with its entry as filed."""
    values: dict[str, str] = {}
    for seat in SEATS:
        if last.entry == POINTS:
            values[f"{seat}-points"] = str(last.filed[seat])
            continue
        for key, value in last.filed[seat].items():
            if key == "king_of_hearts":
                if value:
                    values[f"{seat}-{key}"] = "on"
            else:
                values[f"{seat}-{key}"] = str(value)
    return Row(kind=last.kind, entry=last.entry, values=values)


def _page(request, match: Match, role: str, row: Row | None, status: int = 200, correcting: bool = False):
    state = sheet_state(match)
    due = state.next_deal
    last = correctable(match, request.user, state)
    correcting = last is not None and (correcting or request.GET.get("popraw") == str(last.number))
    fix = None
    if correcting:
        fix = row if row is not None else filed_row(last)
        row = None
    summary = match.projection.summary
    url = sheet_url(request, match)
    if row is None and due is not None:
        row = Row(kind=due.kind, entry=TALLY, values={})
    context = {
        "match": match,
        "role": role,
        "seats": [{"seat": s, "name": p.username} for s, p in zip(SEATS, match.seat_players())],
        "rows": running_rows(summary),
        "totals": [summary["totals"][seat] for seat in SEATS],
        "due": due,
        "ahead": schedule_ahead(state)[1:],
        "row": row,
        "grid": [] if row is None else row_grid(row),
        "sums": [] if row is None else row_sums(row),
        "keys": [] if due is None else [{"key": k, "label": LABELS[k]} for k in row_keys(due.kind)],
        "may_file": may_file(match, request.user) and not correcting,
        "correctable": None if last is None else last.number,
        "fix": fix,
        "fix_grid": [] if fix is None else row_grid(fix),
        "fix_keys": [] if fix is None else [{"key": k, "label": LABELS[k]} for k in row_keys(fix.kind)],
        "fix_kind": None if fix is None else fix.kind.value,
        "qr": qr_svg(url),
        "sheet_url": url,
    }
    return render(request, "web/sheet.html", context, status=status)


@login_required
@not_found_page
@require_http_methods(["GET", "POST"])
def match_sheet(request, match_id):
    """``GET``: the page. ``POST`` (the row's Enter): file the deal due through ``deal_tally``;
    on a fault the page again with the row as typed and the message next to its field."""
    match, _viewer, role = selectors.match_for_page(match_id=match_id, user=request.user)
    if request.method == "GET":
        return _page(request, match, role, None)
    if "correct" in request.POST:
        return _correct(request, match, role)
    due = sheet_state(match).next_deal
    if due is None or not may_file(match, request.user):
        return _page(request, match, role, None, status=403)
    row = row_check(row=row_read(kind=due.kind, data=request.POST), state=sheet_state(match))
    if row.ok:
        try:
            services.deal_tally(match_id=match.pk, actor=request.user, tally=row.tally, points=row.points)
        except CommandError as exc:  # e.g. another device filed this deal first: the row is kept
            row.errors["row"] = str(exc.detail)
        else:
            return redirect(reverse("web:match-sheet", kwargs={"match_id": match.pk}) + "#due")
    match.refresh_from_db()
    return _page(request, match, role, row, status=400)


def _correct(request, match: Match, role: str):
    """The correction form's Enter (issue 23, item 3): the latest filed deal filed again through
    ``deal_correct``; on a fault the form again with the row as typed and the reason."""
    last = correctable(match, request.user, sheet_state(match))
    if last is None or request.POST.get("correct") != str(last.number):
        return _page(request, match, role, None, status=403)
    row = row_read(kind=last.kind, data=request.POST)
    if row.ok:
        try:
            services.deal_correct(match_id=match.pk, actor=request.user, tally=row.tally, points=row.points)
        except CommandError as exc:  # not his to correct any more, or the engine refuses the entry
            row.errors["row"] = str(exc.detail)
        else:
            return redirect(reverse("web:match-sheet", kwargs={"match_id": match.pk}) + "#sheet")
    match.refresh_from_db()
    return _page(request, match, role, row, status=400, correcting=True)


@login_required
@not_found_page
@require_http_methods(["POST"])
def match_sheet_check(request, match_id):
    """The htmx partial: the row as typed, checked by the engine (nothing stored); every field's
    message and every column's sum, swapped in out of band so that the inputs keep focus."""
    match, _viewer, _role = selectors.match_for_page(match_id=match_id, user=request.user)
    if not request.htmx:  # a browser without htmx posts the whole row to the page instead
        return redirect("web:match-sheet", match_id=match.pk)
    state = sheet_state(match)
    due = state.next_deal
    if due is None:
        return render(request, "web/_sheet_check.html", {"row": None, "grid": [], "sums": []})
    row = row_check(row=row_read(kind=due.kind, data=request.POST), state=state)
    return render(request, "web/_sheet_check.html", {"row": row, "grid": row_grid(row), "sums": row_sums(row)})


def sheet_url(request, match: Match) -> str:
    """The table's score-sheet page, absolute: what its QR code holds."""
    return request.build_absolute_uri(reverse("web:match-sheet", kwargs={"match_id": match.pk}))


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=PDF)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@not_found_page
def match_sheet_pdf(request, match_id):
    """The match's sheet to print, with the QR code to this page (the API's ``sheet.pdf`` has no
    host to point it at)."""
    match, _viewer, _role = selectors.match_for_page(match_id=match_id, user=request.user)
    return _pdf(printouts.match_sheet_pdf(match=match, page_url=sheet_url(request, match)), f"match-{match.pk}.pdf")


@login_required
@not_found_page
def round_sheets_pdf(request, evening_id: int, number: int):
    """Every table's sheet of an evening's round in one PDF, for whoever may read the evening."""
    evening = evening_selectors.evening_visible(request.user, evening_id)
    content = (
        None
        if evening is None
        else printouts.round_sheets_pdf(
            evening=evening, number=number, page_url=lambda match: sheet_url(request, match)
        )
    )
    if content is None:
        raise NotFound(
            gettext("no round %(number)s in evening %(evening)s") % {"number": number, "evening": evening_id}
        )
    return _pdf(content, f"evening-{evening_id}-round-{number}.pdf")
