"""The disputes page of a match (``/matches/{id}/disputes/``): a seated player, the scorer or an
arbiter disputes a deal; an arbiter rules on a dispute — a ruling is an event in the match's log,
the played result stays beside it — and sees the audit's verdict (the log not altered). A refused
form comes back with what was typed and the refusal beside its field."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from games.domain.exceptions import CommandError, InvalidInput, NotFound
from games.domain.projections import SCORE_ADJUSTED
from games.write import disputes

from . import dispute_selectors, selectors
from .refusals import refusal
from .views import not_found_page


@login_required
@require_http_methods(["GET", "POST"])
@not_found_page
def match_disputes(request, match_id):
    """The page; its POST raises a dispute (``games.write.disputes.dispute_raise``)."""
    if request.method == "GET":
        return disputes_page(request, match_id)
    typed = {key: request.POST.get(key, "") for key in ("deal", "card", "statement")}
    try:
        disputes.dispute_raise(
            match_id=match_id,
            actor=request.user,
            deal=whole_number(typed["deal"], "deal"),
            play_index=card_index(typed["card"]),
            statement=typed["statement"],
        )
    except NotFound:
        raise
    except CommandError as exc:
        return disputes_page(request, match_id, raising={**typed, **refusal(exc)}, status=exc.status)
    messages.success(request, gettext("Your dispute is recorded: the club's arbiters will rule on it."))
    return redirect("web:match-disputes", match_id=match_id)


@login_required
@require_http_methods(["POST"])
@not_found_page
def dispute_ruling(request, match_id, dispute_id: int):
    """An arbiter's ruling (``games.write.disputes.ruling_record``)."""
    typed = {key: request.POST.get(key, "") for key in ("type", "reason", "override", *selectors.SEATS)}
    try:
        if disputes.dispute_get(dispute_id=dispute_id, user=request.user).match_id != match_id:  # 404 alike
            raise NotFound(gettext("no dispute %(id)s") % {"id": dispute_id})
        disputes.ruling_record(
            dispute_id=dispute_id,
            actor=request.user,
            ruling=typed["type"],
            reason=typed["reason"],
            points=typed_points(typed) if typed["type"] == SCORE_ADJUSTED else None,
            override=typed["override"] or None,
        )
    except NotFound:
        raise
    except CommandError as exc:
        outside = exc.extra.get("seats") or {}  # ruling_outside_analysis: each seat's points and its range
        refused = refusal(exc)
        if outside:  # the API's message names its `override` field; the page names its own
            refused = {
                "error": gettext("Give the reason for points outside the analysis to record them anyway."),
                "error_field": "override",
            }
        ruling = {
            "dispute": dispute_id,
            **typed,
            **refused,
            "outside": [{"seat": seat, **reach} for seat, reach in outside.items()],
        }
        return disputes_page(request, match_id, ruling=ruling, status=exc.status)
    messages.success(request, gettext("The ruling is recorded in the match's log."))
    return redirect(reverse("web:match-disputes", args=[match_id]) + f"#dispute-{dispute_id}")


def disputes_page(request, match_id, raising: dict | None = None, ruling: dict | None = None, status: int = 200):
    """``raising``/``ruling``: a refused form as typed, with its refusal."""
    match, viewer, role = selectors.match_for_page(match_id=match_id, user=request.user)
    context = dispute_selectors.disputes_page(match=match, viewer=viewer, user=request.user, ruling=ruling)
    context.update(match=match, role=role, raising=raising or {})
    return render(request, "web/match_disputes.html", context, status=status)


def whole_number(value: str, field: str) -> int:
    try:
        return int(value.strip())
    except ValueError:
        raise InvalidInput(gettext("give a whole number"), field=field) from None


def card_index(value: str) -> int | None:
    """The card typed as people count (1 = the deal's first card), as the command's 0-based index."""
    return whole_number(value, "play_index") - 1 if value.strip() else None


def typed_points(typed: dict) -> dict[str, int]:
    return {seat: whole_number(typed[seat], "points") for seat in selectors.SEATS}
