"""Reading the annotated deals (issue 27): one deal's annotation, who may see it, the match's
costliest cards, and accuracy per player per match and per season (docs/analysis.md, "Accuracy").

Who may see an annotation: whoever may read the match (``games.domain.roles.role_of``), and only
once the deal is over — to nobody while it is in play (the job only annotates finished deals;
a deal in play or not yet played is a 404, as a position a player may not see). Only rows at
the engine's current version are served: a stale row is being recomputed (202).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.domain.exceptions import AnalysisUnavailable, NotFound
from games.domain.roles import role_of
from games.engine import Seat
from games.engine.annotation import ENGINE_VERSION
from games.models import Match, MatchProjection

from .models import DealAnnotation, SeasonMatch

PLAYED = "played"  # a deal's entry with cards (a paper sheet's: tally, points)


@dataclass(frozen=True)
class AnnotationLookup:
    """``annotation``: the stored row's body, or None while the job computes it (``progress``:
    the match's deals annotated / to annotate)."""

    match: Match
    number: int
    kind: str
    progress: dict[str, int]
    annotation: dict[str, Any] | None


def deal_annotation_get(*, match_id: Any, number: int, user) -> AnnotationLookup:
    """Deal ``number``'s annotation for ``user`` (see the module docstring for who may see it)."""
    match = readable_match(match_id, user)
    summary = MatchProjection.objects.filter(pk=match.pk).values_list("summary", flat=True).first() or {}
    deal = next((d for d in summary.get("deals", []) if d["number"] == number), None)
    if deal is None:
        raise NotFound(_("deal %(deal)d of this match is not over: it is annotated once it is") % {"deal": number})
    if deal.get("entry", PLAYED) != PLAYED:
        raise AnalysisUnavailable(
            _("deal %(deal)d was filed by its tally or points: it has no cards to annotate") % {"deal": number}
        )
    row = DealAnnotation.objects.filter(match=match, number=number, version=ENGINE_VERSION).first()
    progress = annotation_progress(match=match)
    return AnnotationLookup(match, number, deal["kind"], progress, None if row is None else annotation_body(row))


def readable_match(match_id: Any, user) -> Match:
    try:
        match = Match.objects.filter(pk=uuid.UUID(str(match_id))).first()
    except ValueError:
        match = None
    if match is None or not role_of(match, user).may_read:
        raise NotFound(_("no match %(id)s") % {"id": match_id})
    return match


def annotation_body(row: DealAnnotation) -> dict[str, Any]:
    return {
        "version": row.version,
        "exact": row.exact,
        "cards": row.cards,
        "positions": row.positions,
        "costliest": costliest(row.cards),
        "seats": row.seats,
    }


def costliest(cards: Iterable[dict[str, Any]], count: int = 3) -> list[dict[str, Any]]:
    """The cards that cost most (by least proven cost; ties: the earlier), none that cost nothing."""
    return sorted((c for c in cards if c["cost"][0] > 0), key=lambda c: (-c["cost"][0], c["play"]))[:count]


def match_costliest(*, match: Match, count: int = 5) -> list[dict[str, Any]]:
    """The match's costliest cards at the current version, each with its deal's number."""
    rows = DealAnnotation.objects.filter(match=match, version=ENGINE_VERSION).order_by("number")
    cards = [{**c, "deal": row.number} for row in rows for c in row.cards]
    return sorted((c for c in cards if c["cost"][0] > 0), key=lambda c: (-c["cost"][0], c["deal"], c["play"]))[:count]


def annotation_progress(*, match: Match) -> dict[str, int]:
    """``done`` / ``to_do``: the match's finished played deals annotated at the current version,
    and all of them (paper-sheet deals are not counted: they have no cards)."""
    summary = MatchProjection.objects.filter(pk=match.pk).values_list("summary", flat=True).first() or {}
    played = {d["number"] for d in summary.get("deals", []) if d.get("entry", PLAYED) == PLAYED}
    done = DealAnnotation.objects.filter(match=match, version=ENGINE_VERSION, number__in=played).count()
    return {"done": done, "to_do": len(played)}


# --- accuracy -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Accuracy:
    """A player's figures over his annotated deals (docs/analysis.md, "Accuracy")."""

    deals: int = 0
    cards: int = 0
    graded: int = 0
    clean: int = 0
    lost: int = 0

    @property
    def share(self) -> float | None:
        """Per cent of his graded cards that cost nothing (None: none graded)."""
        return None if not self.graded else round(100 * self.clean / self.graded, 1)

    @property
    def lost_per_deal(self) -> float | None:
        return None if not self.deals else round(self.lost / self.deals, 1)

    def plus(self, figures: dict[str, int]) -> Accuracy:
        return Accuracy(
            self.deals + 1,
            self.cards + figures["cards"],
            self.graded + figures["graded"],
            self.clean + figures["clean"],
            self.lost + figures["lost"],
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "cards": self.cards,
            "graded": self.graded,
            "accuracy": self.share,
            "lost_per_deal": self.lost_per_deal,
        }


def accuracy_by_player(rows: Iterable[DealAnnotation]) -> dict[int, Accuracy]:
    """Player id → his accuracy over ``rows`` (each row's seats mapped to its match's players)."""
    found: dict[int, Accuracy] = defaultdict(Accuracy)
    for row in rows:
        players = row.match.seat_player_ids()
        for seat in Seat:
            found[players[seat]] = found[players[seat]].plus(row.seats[seat.name])
    return dict(found)


def match_accuracy(*, match: Match) -> dict[int, Accuracy]:
    return accuracy_by_player(
        DealAnnotation.objects.filter(match=match, version=ENGINE_VERSION).select_related("match")
    )


def season_accuracy(*, season_id: int) -> dict[int, Accuracy]:
    """Player id → accuracy over the annotated deals of the season's matches."""
    rows = DealAnnotation.objects.filter(
        match__season_match__season_id=season_id, version=ENGINE_VERSION
    ).select_related("match")
    return accuracy_by_player(rows)


def season_accuracy_series(*, season_id: int, player_id: int) -> list[dict[str, Any]]:
    """The player's accuracy match by match over the season (in the order the matches finished),
    each with the running season figure after it: what his season page plots. Two queries."""
    links = (
        SeasonMatch.objects.filter(season_id=season_id, finished_at__isnull=False)
        .order_by("finished_at", "id")
        .select_related("match")
    )
    rows = defaultdict(list)
    for row in DealAnnotation.objects.filter(match__season_match__season_id=season_id, version=ENGINE_VERSION):
        rows[row.match_id].append(row)
    series, running = [], Accuracy()
    for link in links:
        players = link.match.seat_player_ids()
        if player_id not in players or not rows[link.match_id]:
            continue
        seat = Seat(players.index(player_id)).name
        mine = Accuracy()
        for row in rows[link.match_id]:
            mine, running = mine.plus(row.seats[seat]), running.plus(row.seats[seat])
        series.append({"match": link.match, "accuracy": mine, "season": running})
    return series
