"""From events to state: the one fold (``apply``) that commands, rebuilds and audits share,
and the read models written from it."""

from __future__ import annotations

from typing import Any, Iterable

from games.engine import MatchState, Ruleset, Seat
from games.engine.cards import BY_NAME
from games.engine.match import snapshot

from .models import DealScore, Match, MatchEvent

T = MatchEvent.Type


def hands_of(payload_hands: dict[str, list[str]]) -> list[list[int]]:
    return [[BY_NAME[c] for c in payload_hands[s.name]] for s in Seat]


def start_state(payload: dict[str, Any]) -> MatchState:
    ruleset = payload["ruleset"]
    return MatchState.start(Ruleset.from_options(ruleset["options"], name=ruleset["name"], version=ruleset["version"]),
                            Seat[payload["first_dealer"]])


def apply(state: MatchState | None, type: str, payload: dict[str, Any], *, hands: dict | None = None,
          offer_index: dict[int, int] | None = None) -> MatchState | None:
    """The state after one stored event. ``hands`` supplies server-dealt hands (kept off the log
    until revealed); ``offer_index`` maps a lead_offered seq to its place among the deal's offers."""
    if type == T.MATCH_CREATED:
        return start_state(payload)
    if type == T.DEAL_STARTED:
        return state.start_deal(hands_of(payload.get("hands") or hands))
    if type == T.LEAD_OFFERED:
        return state.offer_lead(payload["buyer"], payload["price"])
    if type == T.LEAD_SOLD:
        return state.decide_lead(payload["offer_index"])
    if type == T.LEAD_KEPT:
        return state.decide_lead(None)
    if type == T.CARD_PLAYED:
        return state.play(BY_NAME[payload["card"]], seat=Seat[payload["seat"]])
    return state  # hands_revealed, match_abandoned: nothing for the rules to do


def fold(events: Iterable[MatchEvent], secrets: dict[int, dict]) -> MatchState | None:
    """Replay a match's stored events through the engine (raises RuleViolation if one is illegal)."""
    state = None
    for event in events:
        hands = None
        if event.type == T.DEAL_STARTED and "hands" not in event.payload:
            hands = secrets[event.payload["number"]]
        state = apply(state, event.type, event.payload, hands=hands)
    return state


def summary_of(state: MatchState, match: Match) -> dict[str, Any]:
    """The replay summary of RECORD_FORMAT.md plus the next deal due and the match status."""
    summary = state.summary()
    due = state.next_deal
    summary["next_deal"] = None if due is None or match.status != Match.Status.IN_PROGRESS else {
        "number": due.number, "kind": due.kind.value, "dealer": due.dealer.name,
        "leader": due.leader.name, "compensating": due.compensating,
    }
    summary["status"] = match.status
    return summary


def snapshot_of(state: MatchState) -> dict[str, Any]:
    return snapshot(state)


def deal_score_rows(match: Match, state: MatchState, first_number: int) -> list[DealScore]:
    """The per-player rows of every finished deal numbered ``first_number`` or later."""
    players = match.seat_player_ids()
    return [
        DealScore(match=match, number=r.number, seat=seat.name, player_id=players[seat], kind=r.kind.value,
                  compensating=r.compensating, multiplier=r.multiplier, tricks=r.tricks[seat],
                  points=r.points[seat], kreski=r.kreski[seat])
        for r in state.results[first_number - 1:]
        for seat in Seat
    ]
