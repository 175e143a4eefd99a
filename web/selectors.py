"""What the pages show: the score sheet of a match, the step list of one of its deals, a
season's standings, and a pasted record's deal. Reads only.

Who may read a match, and what of it, is ``games.domain.roles.role_of``'s (through
``games.read.selectors.match_get``); the functions below take that ``Viewer`` and only narrow further —
a player sees the table view of finished deals only; the scorer and the arbiters (staff, the
club's arbiters and admins) also that of the deal in play. A seated arbiter is a player at his
own table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.apps import apps
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_lazy

from games.domain import confirmation, projections
from games.domain.event_types import (
    CardPlayed,
    DealStarted,
    Event,
    HandsRevealed,
    LeadKept,
    LeadOffered,
    LeadSold,
)
from games.domain.exceptions import InvalidInput, NotAllowed, NotFound
from games.domain.log import stream
from games.domain.messages import engine_message, violation_detail, violation_text, violation_title
from games.engine import DealState, Seat
from games.engine import record as records
from games.engine.annotation import ENGINE_VERSION, GRADES
from games.engine.cards import BY_NAME
from games.engine.errors import RecordFormatError, RuleViolation
from games.engine.match import restore
from games.engine.replay import replay
from games.models import DealSecret, Match, Player
from games.read import analysis
from games.read import selectors as games_selectors
from games.read.people import names_of
from games.read.selectors import Viewer, match_list
from printing import formats
from scoring import arbiters, members
from scoring import selectors as scoring_selectors
from scoring.annotation_selectors import (
    annotation_body,
    annotation_progress,
    match_accuracy,
    match_costliest,
    season_accuracy,
    season_accuracy_series,
)
from scoring.annotations import annotated_automatically
from scoring.models import Club, DealAnnotation, Membership, Season, StandingRow

from .steps import deal_steps

SEATS = tuple(seat.name for seat in Seat)
RULING_LABELS = {
    "no_change": gettext_lazy("no change"),
    "deal_voided": gettext_lazy("deal voided"),
    "score_adjusted": gettext_lazy("points adjusted"),
}
# What confirmed a result (games.domain.confirmation's rules), as people read it: no raw code on a page.
CONFIRMATION_RULE_LABELS = {
    confirmation.FILED: gettext_lazy("by officials who do not play in it"),
    confirmation.PLAYERS: gettext_lazy("by two seated players"),
    confirmation.ONLINE: gettext_lazy("online, each seat played by its own player"),
}
ROLE_LABELS = {
    Viewer.PLAYER: gettext_lazy("player"),
    Viewer.SCORER: gettext_lazy("scorer"),
    Viewer.ARBITER: gettext_lazy("arbiter"),
}
CARDS_PER_DEAL = 52


# --- who is looking -------------------------------------------------------------------------------


def match_for_page(*, match_id: Any, user) -> tuple[Match, Viewer, str]:
    """The match, the ``Viewer`` it is shown to, and what to call him (``games.read.selectors.match_get``:
    ``NotFound`` for anyone who may not read it)."""
    match, viewer = games_selectors.match_get(match_id=match_id, user=user)
    return match, viewer, str(ROLE_LABELS[viewer.kind]) + (f" ({viewer.seat.name})" if viewer.seat is not None else "")


# --- the score sheet (zapis) ----------------------------------------------------------------------

PLAYED = "played"  # a deal played card by card; "tally" and "points" were filed from a paper sheet (R31–R33)


def score_sheet(*, match: Match, viewer: Viewer, user=None) -> dict[str, Any]:
    """One row per finished deal as the replay summary has it, the totals and the winners; the
    deal in play (its table view only for viewers who see every hand)."""
    summary = match.projection.summary
    names = _seat_names(match)
    disputed = _disputes_by_deal(match)
    rows = []
    for deal in summary["deals"]:
        adjusted = deal.get("adjusted_points")
        rows.append(
            {
                "number": deal["number"],
                "kind": deal["kind"],
                "kind_label": formats.kind_label(deal["kind"]),
                "dealer": deal["dealer"],
                "leader": deal["leader"],
                "compensating": deal["compensating"],
                "multiplier": deal["multiplier"],
                "voided": bool(deal.get("voided")),
                "adjusted": adjusted is not None,
                "disputes": len(disputed.get(deal["number"], ())),
                "entry": deal.get("entry", PLAYED),
                "seats": [
                    {
                        "seat": seat,
                        "tricks": None if deal["tricks"] is None else deal["tricks"][seat],
                        "points": deal["points"][seat],
                        "kreski": deal["kreski"][seat],
                        "strokes": "|" * deal["kreski"][seat],
                        "adjusted": adjusted[seat] if adjusted is not None else None,
                    }
                    for seat in SEATS
                ],
                "url": deal_url(match, deal["number"]) if deal.get("entry", PLAYED) == PLAYED else None,
            }
        )
    in_play = deal_in_play(match)
    if in_play is not None:
        in_play["url"] = deal_url(match, in_play["number"]) if viewer.sees_all_hands else None
    winners = summary.get("winners") or []
    rulings = [
        {
            "deal": ruling.get("deal"),
            "label": str(RULING_LABELS.get(ruling.get("ruling"), ruling.get("ruling"))),
            "points": (
                [{"seat": seat, "points": ruling["points"][seat]} for seat in SEATS] if ruling.get("points") else None
            ),
            "reason": ruling.get("reason", ""),
            "arbiter": ruling.get("arbiter", ""),
            "time": parse_datetime(ruling["time"]) if isinstance(ruling.get("time"), str) else ruling.get("time"),
            "superseded_by": ruling.get("superseded_by"),
        }
        for ruling in summary.get("rulings") or []
    ]
    shown = sheet_confirmation(match, viewer, user)
    withdrawal = confirmation.withdrawal_view(summary)
    people = people_names(
        [*(r["arbiter"] for r in rulings), *shown["filed_by"], *(c["player"] for c in shown["by"])]
        + ([withdrawal["by"]] if withdrawal else [])
    )
    for ruling in rulings:
        ruling["arbiter"] = people.get(ruling["arbiter"], ruling["arbiter"])
    shown["filed_by"] = [people.get(name, name) for name in shown["filed_by"]]
    shown["by"] = [{**c, "player": people.get(c["player"], c["player"])} for c in shown["by"]]
    if withdrawal:
        withdrawal["by"] = people.get(withdrawal["by"], withdrawal["by"])
    return {
        "confirmation": shown,
        "withdrawal": withdrawal,
        "rulings": rulings,
        "seats": [{"seat": seat, "name": names[seat]} for seat in SEATS],
        "rows": rows,
        "totals": [{"seat": seat, "points": summary["totals"][seat], "winner": seat in winners} for seat in SEATS],
        "winners": [{"seat": seat, "name": names[seat]} for seat in winners],
        "complete": summary["complete"],
        "running": games_selectors.match_running_totals(match=match),
        "in_play": in_play,
        "next_deal": summary.get("next_deal"),
    }


def people_names(refs) -> dict[str, str]:
    """{reference: display name}: the log names people by id, older events by username; people
    read the name the club knows them by (``games.read.people``)."""
    return names_of(refs)


def sheet_confirmation(match: Match, viewer: Viewer, user=None) -> dict[str, Any]:
    """The match's ``confirmation`` (as the API shows it), and whether ``user`` may press "I
    confirm this sheet": seated, not its filer, the match finished, his seat not signed yet."""
    shown = confirmation.confirmation_view(match, match.projection.summary)
    # "confirmed" is said of a result: a match filed by officials is confirmed before its first deal
    shown["has_result"] = bool(match.projection.summary.get("deals"))
    shown["rule_label"] = str(CONFIRMATION_RULE_LABELS.get(shown["rule"], "")) if shown["rule"] else ""
    signed = {c["seat"] for c in shown["by"]}
    shown["may_confirm"] = (
        viewer.seat is not None
        and viewer.seat.name not in signed
        and match.status == Match.Status.FINISHED
        and not confirmation.is_filer(match, user)
    )
    return shown


def deal_url(match: Match, number: int) -> str:
    return reverse("web:deal", kwargs={"match_id": match.pk, "number": number})


def _seat_names(match: Match) -> dict[str, str]:
    return {seat: player.username for seat, player in zip(SEATS, match.seat_players())}


def deal_in_play(match: Match) -> dict[str, Any] | None:
    """The deal in play, from the read model's snapshot (None between deals and after the end)."""
    snapshot = match.projection.snapshot
    if snapshot.get("deal") is None:
        return None
    deal = restore(snapshot).deal
    spec = deal.spec
    return {
        "number": spec.number,
        "kind": spec.kind.value,
        "kind_label": formats.kind_label(spec.kind.value),
        "dealer": spec.dealer.name,
        "leader": deal.leader.name,
        "compensating": spec.compensating,
        "plays": len(deal.plays),
    }


# --- one deal, card by card ------------------------------------------------------------------------


def deal_view(*, match: Match, viewer: Viewer, number: int, user=None) -> dict[str, Any]:
    """The deal's table view: its facts and the step list (``steps.deal_steps``), or ``NotFound``
    for a deal the viewer may not replay (not dealt; in play, for a player). With ``user``, the
    links the page asks each step's analysis at (when that user may see it)."""
    summary = match.projection.summary
    results = {deal["number"]: deal for deal in summary["deals"] if deal.get("entry", PLAYED) == PLAYED}
    in_play = deal_in_play(match)
    in_play_number = in_play["number"] if in_play is not None else None
    if number not in results and not (number == in_play_number and viewer.sees_all_hands):
        raise NotFound(
            gettext("no deal %(number)s to show in match %(match_pk)s") % {"number": number, "match_pk": match.pk}
        )  # a paper sheet's deal has no table
    deal, plays = _deal_from_events(match, number)
    disputes = _disputes_by_deal(match).get(number, [])
    by_play: dict[int, list[dict[str, Any]]] = {}
    for dispute in disputes:
        if dispute["play_index"] is not None:
            by_play.setdefault(dispute["play_index"], []).append(dispute)
    names = _seat_names(match)
    shown = sorted(results) + ([in_play_number] if in_play_number is not None and viewer.sees_all_hands else [])
    position = shown.index(number)
    steps = deal_steps(deal, plays, disputes=by_play, describe=violation_detail)
    annotation = deal_annotation(match, number) if number in results else None  # never while in play
    notes = annotation["by_play"] if annotation and annotation["done"] else None
    return {
        "number": number,
        "facts": _facts(deal, finished=number in results),
        "result": _result(results.get(number), names),
        "disputes": [d for d in disputes if d["play_index"] is None],
        "previous": deal_url(match, shown[position - 1]) if position > 0 else None,
        "next": deal_url(match, shown[position + 1]) if position + 1 < len(shown) else None,
        "tricks": annotated_rows(trick_rows(steps), notes) if notes else trick_rows(steps),
        "annotation": annotation,
        "data": {
            "seats": [{"seat": seat, "name": names[seat]} for seat in SEATS],
            "steps": steps,
            "start": 0,
            "analysis": _analysis_links(match, user, number) if user is not None else None,
        },
    }


def deal_annotation(match: Match, number: int) -> dict[str, Any]:
    """The finished deal's annotation as the page shows it (``scoring.annotation_selectors``):
    each card's grade by play, the range of each seat after each trick, the costliest cards,
    and the match's progress while it is computed."""
    row = DealAnnotation.objects.filter(match=match, number=number, version=ENGINE_VERSION).first()
    progress = annotation_progress(match=match)
    if row is None:  # being computed, or (no job annotates deals here) waiting for the command
        return {"done": False, "progress": progress, "automatic": annotated_automatically()}
    body = annotation_body(row)
    return {
        "done": True,
        "progress": progress,
        "exact": row.exact,
        "by_play": {note["play"]: note for note in row.cards},
        "costliest": body["costliest"],
        "ranges": [
            {"trick": trick, "seats": [{"seat": s, **row.positions[4 * trick][s]} for s in SEATS]}
            for trick in range(1, len(row.cards) // 4 + 1)
        ],
        "counts": {grade: sum(1 for n in row.cards if n["grade"] == grade) for grade in (*GRADES, None)},
    }


def match_annotations(*, match: Match) -> dict[str, Any] | None:
    """The score sheet's annotation section: the match's progress, its costliest cards (each
    with its deal's page) and each seat's accuracy in it; None before any played deal is over."""
    progress = annotation_progress(match=match)
    if not progress["to_do"]:
        return None
    accuracy = match_accuracy(match=match)
    names = _seat_names(match)
    return {
        "progress": progress,
        "automatic": annotated_automatically(),
        "costliest": [{**c, "url": deal_url(match, c["deal"])} for c in match_costliest(match=match)],
        "seats": [
            {"seat": seat, "name": names[seat], "accuracy": accuracy.get(player)}
            for seat, player in zip(SEATS, match.seat_player_ids())
        ],
    }


def annotated_rows(rows: list[dict[str, Any]], notes: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """``trick_rows`` with each card's note (grade, cost, the best card) beside it."""
    return [{**row, "cells": [{**cell, "note": notes.get(cell.get("index"))} for cell in row["cells"]]} for row in rows]


def _analysis_links(match: Match, user, number: int) -> dict[str, Any] | None:
    """Where the page asks for the analysis of each step (``GET /matches/{id}/analysis/?at=SEQ``),
    when the user may see it for this deal (``games.read.analysis.analysis_access``); else None."""
    try:
        access = analysis.analysis_access(match, user)
    except NotFound:
        return None
    finished = number <= len(match.projection.summary["deals"])
    if access == analysis.FINISHED_DEALS and not finished:
        return None
    return {
        "url": reverse("match-analysis", kwargs={"pk": str(match.pk)}),
        "seqs": analysis.deal_position_seqs(match=match, number=number),
    }


def trick_rows(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deal's plays trick by trick (the list beside the table): each card with the step
    that shows it, the trick's leader and winner."""
    rows: dict[int, dict[str, Any]] = {}
    for position, step in enumerate(steps):
        play = step["play"]
        if play is None:
            continue
        row = rows.setdefault(
            play["trick_no"], {"number": play["trick_no"], "leader": play["seat"], "winner": None, "cells": {}}
        )
        row["cells"][play["seat"]] = {
            "card": play["card"],
            "step": position,
            "index": play["index"],
            "illegal": play["violation"] is not None,
            "disputed": bool(play["disputes"]),
        }
        if step["winner"] is not None and play["applied"]:
            row["winner"] = step["winner"]
    return [
        {
            **row,
            "cells": [
                {"seat": seat, **row["cells"][seat]} if seat in row["cells"] else {"seat": seat} for seat in SEATS
            ],
        }
        for _, row in sorted(rows.items())
    ]


def _deal_from_events(match: Match, number: int) -> tuple[DealState, list[int]]:
    """Deal ``number`` as it stood before its first card, and its cards, from the match's
    events folded through the engine (``projections.apply``, the fold every read model uses)."""
    events = [item.event for item in stream(match)]
    hidden = _server_hands(match, events)
    state = None
    started = False
    plays: list[int] = []
    for event in events:
        if not started:
            state = projections.apply(state, event, hidden)
            started = isinstance(event, DealStarted) and event.number == number
        elif isinstance(event, DealStarted):
            break
        elif isinstance(event, CardPlayed):
            plays.append(BY_NAME[event.card])
            if len(plays) == CARDS_PER_DEAL:
                break
        elif isinstance(event, LeadOffered | LeadSold | LeadKept) and not plays:
            state = projections.apply(state, event)
    if not started or state is None or state.deal is None:
        raise NotFound(
            gettext("deal %(number)s was never dealt in match %(match_pk)s") % {"number": number, "match_pk": match.pk}
        )
    return state.deal, plays


def _server_hands(match: Match, events: list[Event]) -> dict[int, dict]:
    """Server-dealt hands: as revealed once each deal ended; the deal in play's from its secret
    (only scorers and staff get that far, ``deal_view`` decides)."""
    if match.dealing != Match.Dealing.SERVER:
        return {}
    hands = dict(DealSecret.objects.filter(match=match).values_list("number", "hands"))
    hands.update({event.number: event.hands for event in events if isinstance(event, HandsRevealed)})
    return hands


def _facts(deal: DealState, *, finished: bool) -> dict[str, Any]:
    spec = deal.spec
    return {
        "kind": spec.kind.value,
        "kind_label": formats.kind_label(spec.kind.value),
        "dealer": spec.dealer.name,
        "holder": deal.holder.name,
        "leader": deal.leader.name,
        "compensating": spec.compensating,
        "sale": None if deal.sale is None else {"buyer": deal.sale[0].name, "price": deal.sale[1]},
        "finished": finished,
    }


def _result(row: dict[str, Any] | None, names: dict[str, str]) -> dict[str, Any] | None:
    if row is None:
        return None
    adjusted = row.get("adjusted_points")
    return {
        "multiplier": row["multiplier"],
        "voided": bool(row.get("voided")),
        "adjusted": adjusted is not None,
        "seats": [
            {
                "seat": seat,
                "name": names[seat],
                "tricks": row["tricks"][seat],
                "points": row["points"][seat],
                "kreski": row["kreski"][seat],
                "strokes": "|" * row["kreski"][seat],
                "adjusted": adjusted[seat] if adjusted is not None else None,
            }
            for seat in SEATS
        ],
    }


# --- disputes (games.models.Dispute, when that model exists) -------------------------------------------


def _disputes_by_deal(match: Match) -> dict[int, list[dict[str, Any]]]:
    """The match's disputes by deal number: ``{"id", "play_index", "statement", "status"}``.
    Empty while no ``Dispute`` model is installed."""
    try:
        model = apps.get_model("games", "Dispute")
    except LookupError:
        return {}
    fields = {field.name for field in model._meta.get_fields()}
    deal_field = next((name for name in ("deal", "deal_number", "number") if name in fields), None)
    if "match" not in fields or deal_field is None:
        return {}
    found: dict[int, list[dict[str, Any]]] = {}
    disputes = model.objects.filter(match=match).order_by("pk")
    if "raised_by" in fields:
        disputes = disputes.select_related("raised_by")
    for dispute in disputes:
        found.setdefault(getattr(dispute, deal_field), []).append(
            {
                "id": dispute.pk,
                "play_index": getattr(dispute, "play_index", None),
                "statement": str(getattr(dispute, "statement", "") or ""),
                "status": str(getattr(dispute, "status", "") or ""),
                "raised_by": formats.person(getattr(dispute, "raised_by", None)),
            }
        )
    return found


# --- a pasted record (what an imported record, legal or not, would look like) --------------------------


def record_deal_view(*, data: Any, number: int | None = None) -> dict[str, Any]:
    """Deal ``number`` of a ``kierki-match/1`` record (default: the deal of its first violation,
    else the first), replayed through ``deal_steps``: an illegal play shows the rule it breaks
    and the viewer starts there. ``InvalidInput`` when the record cannot be read or the deal
    cannot be dealt."""
    try:
        decoded = records.decode(data)
    except RecordFormatError as exc:
        raise InvalidInput(engine_message(exc), field=exc.field or None) from None
    error = replay(decoded).error
    if number is None:
        number = error.deal if error is not None and error.deal else 1
    if not 1 <= number <= len(decoded.deals):
        raise InvalidInput(
            gettext("the record has no deal %(number)s (it has %(count)s)")
            % {"number": number, "count": len(decoded.deals)},
            field="deal",
        )
    before = replay(replace(decoded, deals=decoded.deals[: number - 1]))
    if before.error is not None:
        raise InvalidInput(
            gettext("deal %(number)s is never reached: %(error)s")
            % {"number": number, "error": violation_text(before.error)},
            field="deal",
        )
    spec = before.state.next_deal
    if spec is None:
        raise InvalidInput(
            gettext("deal %(number)s is one deal too many: the match was over") % {"number": number}, field="deal"
        )
    dealt = decoded.deals[number - 1]
    try:
        deal = DealState(spec, decoded.ruleset, dealt.hands)
        if dealt.sale is not None:
            deal = deal.offer_lead(dealt.sale.buyer, dealt.sale.price).decide_lead(0)
    except RuleViolation as violation:
        raise InvalidInput(
            gettext("deal %(number)s cannot be dealt: %(error)s")
            % {"number": number, "error": violation_text(violation.located(deal=number))},
            field="deal",
        ) from None
    steps = deal_steps(deal, dealt.plays, describe=violation_detail)
    start = next((i for i, step in enumerate(steps) if step["play"] and step["play"]["violation"]), 0)
    names = {seat: str(decoded.players.get(seat, seat)) for seat in SEATS}
    return {
        "number": number,
        "deals": len(decoded.deals),
        "error": (
            error.as_json()
            | {"rule": error.rule, "title": violation_title(error.code), "detail": violation_detail(error)}
            if error is not None
            else None
        ),
        "facts": _facts(deal, finished=len(dealt.plays) == CARDS_PER_DEAL),
        "tricks": trick_rows(steps),
        "data": {"seats": [{"seat": seat, "name": names[seat]} for seat in SEATS], "steps": steps, "start": start},
    }


# --- seasons ----------------------------------------------------------------------------------------------


def season_get(*, season_id: Any, user) -> Season:
    """The season, for the members of its club and staff; ``NotFound`` alike for a missing
    season and one the user may not read."""
    season = Season.objects.select_related("league__club").filter(pk=season_id).first()
    if season is None or not (
        user.is_staff or Membership.objects.filter(club_id=season.league.club_id, user=user).exists()
    ):
        raise NotFound(gettext("no season %(id)s") % {"id": season_id})
    return season


def season_of_match(*, match: Match) -> Season | None:
    """The season the match was filed in (for the page's link back), if any."""
    return Season.objects.filter(season_matches__match=match).first()


SEASON_PAGE_MATCHES = 100  # the season's page lists the newest; the workbook holds every one


def season_standings(*, season: Season, user) -> dict[str, Any]:
    """The stored standings (``scoring``'s read model) and the season's matches the user may read,
    the newest ``SEASON_PAGE_MATCHES`` of them (``match_count``: how many in all)."""
    rows = list(scoring_selectors.standing_rows(season.pk))
    accuracy = season_accuracy(season_id=season.pk)
    for row in rows:
        row.accuracy = accuracy.get(row.player_id)  # the annotated deals' figure (issue 27)
    readable = match_list(user=user).filter(season_match__season=season)
    matches = list(readable.order_by("-created_at")[:SEASON_PAGE_MATCHES])
    return {
        "season": season,
        "balance": scoring_selectors.season_balance_series(season.pk),
        "ranked": [row for row in rows if row.ranked],
        "unranked": [row for row in rows if not row.ranked],
        "matches": [
            {
                "match": m,
                "seats": [
                    {"seat": seat, "name": name, "total": m.projection.summary["totals"][seat]}
                    for seat, name in _seat_names(m).items()
                ],
            }
            for m in matches
        ],
        "match_count": len(matches) if len(matches) < SEASON_PAGE_MATCHES else readable.count(),
    }


# --- players ---------------------------------------------------------------------------------------------


def player_page(*, player_id: Any, user) -> dict[str, Any]:
    """A player's page: his seasons' standings, his accuracy over each season (issue 27), his rating
    over time per league and his results by deal kind. ``NotFound`` alike for a missing player
    and a profile the user may not read (``members.players_visible``)."""
    player = members.players_visible(user).filter(pk=player_id).first()
    if player is None:
        raise NotFound(gettext("no player %(id)s") % {"id": player_id})
    seasons = list(
        StandingRow.objects.filter(player=player, season__league__club__in=club_list(user=user))
        .select_related("season__league__club")
        .order_by("-season__created_at")
    )
    return {
        "player": player,
        "seasons": seasons,
        "accuracy": _accuracy_by_season(player, seasons),
        "ratings": scoring_selectors.player_rating_series(player),
        "kinds": scoring_selectors.player_kind_results(player),
    }


def _accuracy_by_season(player: Player, seasons: list[StandingRow]) -> list[dict[str, Any]]:
    """Each season with an annotated deal of his: his figure at its end and the running series his
    season page plots (two queries a season; a player has a handful)."""
    found = []
    for row in seasons:
        series = season_accuracy_series(season_id=row.season_id, player_id=player.pk)
        if series:
            found.append({"season": row.season, "series": series, "accuracy": series[-1]["season"]})
    return found


def season_player_accuracy(*, season: Season, player_id: int) -> dict[str, Any]:
    """A player's accuracy over the season, match by match, and the points of its plot: x the
    match's place in his season, y his running season accuracy (per cent of his graded cards
    that cost nothing; ``web.charts`` draws it). ``NotFound`` for a player with no line in the season."""
    player = Player.objects.filter(pk=player_id, standings__season=season).first()
    if player is None:
        raise NotFound(gettext("no player %(id)s in this season") % {"id": player_id})
    series = season_accuracy_series(season_id=season.pk, player_id=player.pk)
    return {"player": player, "series": series}


# --- clubs, their leagues and seasons, members ------------------------------------------------------


def club_list(*, user):
    """The clubs the user belongs to (staff: every club)."""
    clubs = Club.objects.all() if user.is_staff else Club.objects.filter(memberships__user=user)
    return clubs.order_by("name", "id").distinct()


def club_get(*, club_id: Any, user) -> Club:
    """The club, for its members and staff; ``NotFound`` alike for a missing club and one the
    user may not read."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None or not (user.is_staff or Membership.objects.filter(club=club, user=user).exists()):
        raise NotFound(gettext("no club %(id)s") % {"id": club_id})
    return club


def club_overview(*, club: Club, user) -> dict[str, Any]:
    """The club's leagues, each with its seasons (newest first), and whether the user runs it."""
    leagues = list(club.leagues.order_by("name").prefetch_related("seasons"))
    return {
        "club": club,
        "is_admin": scoring_selectors.is_club_admin(user, club.pk),
        "leagues": [
            {"league": league, "seasons": sorted(league.seasons.all(), key=_newest_first)} for league in leagues
        ],
        "open_disputes": open_disputes(club=club, user=user),
    }


def open_disputes(*, club: Club, user) -> list | None:
    """The club's disputes awaiting a ruling, oldest first, for its arbiters and admins (and staff);
    None for anyone else (``scoring.arbiters.disputes_for_arbiter`` decides)."""
    try:
        found = arbiters.disputes_for_arbiter(user=user, club_id=club.pk, status="open")
    except NotAllowed:
        return None
    return list(found.select_related("match").order_by("created_at", "pk")[:100])


def _newest_first(season: Season):
    return (-(season.start_date.toordinal() if season.start_date else 0), -season.pk)


# --- the landing page -------------------------------------------------------------------------------------


def club_seasons(*, user) -> list[dict[str, Any]]:
    """The clubs the user belongs to (every club for staff), each with its seasons, newest first:
    the landing page's links to the season pages. None for a visitor who has not signed in."""
    if not user.is_authenticated:
        return []
    seasons = Season.objects.select_related("league__club").order_by("league__club__name", "-start_date", "-pk")
    if not user.is_staff:
        seasons = seasons.filter(league__club__memberships__user=user)
    clubs: dict[int, dict[str, Any]] = {}
    for season in seasons[:200]:
        club = season.league.club
        clubs.setdefault(club.pk, {"club": club, "seasons": []})["seasons"].append(season)
    return list(clubs.values())
