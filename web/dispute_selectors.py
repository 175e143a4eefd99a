"""What the disputes page shows (``web.dispute_views``): a match's disputes with every ruling on
them, the deals one may dispute, and the audit's verdict for whoever may audit the match. Reads
only; who may do what is ``games.domain.roles``' and the commands' (``games.write.disputes``)."""

from __future__ import annotations

from typing import Any

from django.utils.dateparse import parse_datetime

from games.domain.exceptions import NotAllowed
from games.domain.projections import DEAL_VOIDED, RULING_TYPES
from games.models import Dispute, Match
from games.read import inspection
from games.read.selectors import Viewer
from games.write import disputes

from .selectors import PLAYED, RULING_LABELS, SEATS, deal_in_play


def disputes_page(*, match: Match, viewer: Viewer, user, ruling: dict | None = None) -> dict[str, Any]:
    """The match's disputes, newest first, each with its rulings in the order they were made;
    ``ruling``: a refused ruling form as typed (with its ``dispute``), shown again on its dispute."""
    rows = list(disputes.disputes_of_match(match=match))
    may_rule = viewer.may_rule and not match.read_only
    typed = ruling or {}
    finished = finished_deals(match)
    shown = [
        dispute_row(dispute, view, may_rule, typed if typed.get("dispute") == dispute.pk else {}, finished)
        for dispute, view in zip(rows, disputes.dispute_views(rows))
    ]
    return {
        "disputes": shown,
        # a ruling refused to someone who has no form to show it beside (not an arbiter here)
        "refused": typed.get("error") if typed and not any(row["form"] and row["may_rule"] for row in shown) else None,
        "deals": deals_dealt(match, finished),
        "may_raise": disputes.may_raise(match, user),
        "may_rule": may_rule,
        "ruling_types": [{"value": value, "label": str(RULING_LABELS[value])} for value in RULING_TYPES],
        "audit": audit_verdict(match, viewer),
    }


def deals_dealt(match: Match, finished: dict[int, dict[str, Any]]) -> list[int]:
    """The numbers of the deals dealt so far, the one in play included, from the read model (a
    log altered behind the commands' back still shows its page, with the audit's verdict)."""
    in_play = deal_in_play(match)
    return list(range(1, max([*finished, in_play["number"] if in_play else 0], default=0) + 1))


def finished_deals(match: Match) -> dict[int, dict[str, Any]]:
    """Each finished deal of the replay summary by its number: its points as played, and whether
    it was played card by card (a deal filed from a paper sheet has no steps to go through)."""
    return {deal["number"]: deal for deal in match.projection.summary.get("deals", [])}


def dispute_row(
    dispute: Dispute, shown: dict[str, Any], may_rule: bool, typed: dict, finished: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    in_force = shown["ruling"]
    deal = finished.get(dispute.deal, {})
    # the points fields start at the deal's points as played: an adjustment changes a seat or two
    start = typed or {seat: deal.get("points", {}).get(seat, "") for seat in SEATS}
    return {
        "id": dispute.pk,
        "deal": dispute.deal,
        "card": dispute.play_index + 1 if dispute.play_index is not None else None,  # 1-based, as people count
        "statement": dispute.statement,
        # its steps: a deal in play (the deal page decides who sees it) or one played card by card
        "steps": deal.get("entry", PLAYED) == PLAYED,
        "raised_by": dispute.raised_by,
        "created_at": dispute.created_at,
        "open": dispute.status == Dispute.Status.OPEN,
        "rulings": [ruling_row(ruling, ruling is in_force) for ruling in shown["rulings"]],
        # a voided deal stays voided (games.write.disputes): nothing more to rule on that dispute
        "may_rule": may_rule and (in_force is None or in_force["type"] != DEAL_VOIDED),
        "form": typed,  # empty unless this dispute's ruling was refused
        "point_fields": [{"seat": seat, "value": start.get(seat, "")} for seat in SEATS],
    }


def ruling_row(ruling: dict[str, Any], in_force: bool) -> dict[str, Any]:
    time = ruling["time"]
    return {
        "label": str(RULING_LABELS.get(ruling["type"], ruling["type"])),
        "points": [{"seat": seat, "points": ruling["points"][seat]} for seat in SEATS] if ruling["points"] else None,
        "reason": ruling["reason"],
        "override": ruling["override"],
        "arbiter": ruling["arbiter"],
        "time": parse_datetime(time) if isinstance(time, str) else time,
        "in_force": in_force,
    }


def audit_verdict(match: Match, viewer: Viewer) -> dict[str, Any] | None:
    """The three checks of the audit (the hash chain, the rules, the commitments) for whoever may
    audit the match (``games.read.inspection.match_audit``); None for anyone else."""
    try:
        report = inspection.match_audit(match=match, who=viewer)
    except NotAllowed:
        return None
    events = report["events"]
    return {
        "ok": report["ok"],
        "chain": report["chain"],
        "rules": report["rules"],
        "commitments": report["commitments"],
        "events": len(events),
        "last_hash": events[-1]["hash"] if events else None,
    }
