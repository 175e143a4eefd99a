"""Results the table signs: when a match's result is *confirmed* (counts in standings, ratings
and on player profiles). Decisions only; the commands that sign are ``games.write.signoffs``.

A finished match is confirmed when any of these holds (issue 11):

- ``filed``: its filers — whoever created (or imported) it, and its scorer, who enters a
  recorded table's cards — are officials (``roles.is_official``: staff, or a scorer, arbiter or
  admin of the match's club) and none of them sits in it;
- ``players``: at least two of its seated players who did not file it signed the sheet
  (``result_confirmed`` events in its log, one per seat);
- ``online``: it was dealt by the server and every card was played by the user seated at the
  card's seat (each ``card_played`` event's actor is that seat's user).

``Match.confirmed`` keeps the answer (``match_confirmation_update``), so that scoring and the
profiles filter on a column; ``Match.filed_by_official`` keeps the filing's answer as it stood
when the match was filed (a later change of club roles does not move it).

A signature signs one result (issue 30, finding 4): each ``result_confirmed`` names the digest of
the result it signs (``result``: ``result_digest`` of the finished deals as they count, rulings
included), and only the signatures of the current result count (``signed_now``). A ruling or a
filing that changes a confirmed result (a deal voided and replaced, a score adjusted) leaves the
old signatures in the log but no longer counting: ``reconfirmed`` decides again, and the match
awaits confirmation — and leaves the standings — until two seats sign the new result. Signatures
stored before they named a result (no ``result`` key) signed the result in force when they were
stored: the read model stamps them with it (``projections.sign_offs_of``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.domain.chain import canonical_json
from games.domain.roles import is_official, seat_of
from games.engine import Seat
from games.models import Match, MatchEvent

T = MatchEvent.Type
CONFIRMATIONS_NEEDED = 2
AWAITING, CONFIRMED = "awaiting", "confirmed"
FILED, PLAYERS, ONLINE = "filed", "players", "online"
STATUSES, RULES = (AWAITING, CONFIRMED), (FILED, PLAYERS, ONLINE)  # the API's enums


def filers(match: Match) -> list[Any]:
    """The users who filed the match: its creator, its scorer (either may be missing) and any
    seated player who filed a deal from the paper sheet (``deal_tally``, issue 23)."""
    found = [match.created_by, match.scorer, *tally_filers(match)]
    return [user for index, user in enumerate(found) if user is not None and user not in found[:index]]


def tally_filers(match: Match) -> list[Any]:
    """The actors of the match's ``deal_tallied`` events, first filer first."""
    rows = MatchEvent.objects.filter(match=match, type=T.DEAL_TALLIED, actor__isnull=False).select_related("actor")
    return list(dict.fromkeys(row.actor for row in rows.order_by("seq")))


def is_filer(match: Match, user) -> bool:
    return user is not None and user.is_authenticated and user.pk in {u.pk for u in filers(match)}


def filed_by_official(match: Match) -> bool:
    """Rule ``filed``: every filer is an official who does not sit in the match."""
    found = filers(match)
    return bool(found) and all(is_official(match, user) and seat_of(match, user) is None for user in found)


def played_by_own_seats(match: Match) -> bool:
    """Rule ``online``: a server-dealt match whose every card its seat's own user played."""
    if match.dealing != Match.Dealing.SERVER:
        return False
    users = dict(
        zip(
            (s.name for s in Seat),
            Match.objects.filter(pk=match.pk)
            .values_list("north__user_id", "east__user_id", "south__user_id", "west__user_id")
            .get(),
        )
    )
    plays = MatchEvent.objects.filter(match_id=match.pk, type=T.CARD_PLAYED).values_list("payload__seat", "actor_id")
    played = False
    for seat, actor in plays.iterator():
        if actor is None or users.get(seat) != actor:
            return False
        played = True
    return played


def confirming_seats(confirmations: list[dict[str, Any]]) -> list[str]:
    return sorted({c["seat"] for c in confirmations})


SUPERSEDED = "superseded"  # the ``result`` of an old signature a later change of the result voided


def result_digest(deals: list[dict[str, Any]]) -> str:
    """SHA-256 of a summary's finished deals (points, ``voided``, ``adjusted_points``): what a
    signature signs. Over their JSON form, so that the stored summary and a fresh one agree."""
    return hashlib.sha256(canonical_json(json.loads(canonical_json(deals)))).hexdigest()


def result_of(summary: dict[str, Any]) -> str:
    """The digest of the result a summary holds (computed, not stored: the summary stays the
    replay summary of RECORD_FORMAT.md)."""
    return result_digest(summary.get("deals") or [])


def signed_now(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The summary's signatures of its current result: the only ones that count."""
    current = result_of(summary)
    return [c for c in summary.get("confirmations") or [] if c.get("result", current) == current]


def reconfirmed(match: Match, earlier: dict[str, Any], summary: dict[str, Any]) -> bool | None:
    """Whether a confirmed match is still confirmed once a command changed ``earlier`` into
    ``summary``: None when nothing needs deciding (not confirmed, filed by officials, the result
    unchanged), else whether a rule holds with the signatures of the new result."""
    if not match.confirmed or match.filed_by_official or result_of(earlier) == result_of(summary):
        return None
    return rule_met(match, signed_now(summary)) is not None


def rule_met(match: Match, confirmations: list[dict[str, Any]]) -> str | None:
    """Which rule confirms the match's result (None: none yet). ``online`` is read from the log:
    callers ask once the match has finished."""
    if match.filed_by_official:
        return FILED
    if len(confirming_seats(confirmations)) >= CONFIRMATIONS_NEEDED:
        return PLAYERS
    if match.status == Match.Status.FINISHED and played_by_own_seats(match):
        return ONLINE
    return None


def confirmation_view(match: Match, summary: dict[str, Any]) -> dict[str, Any]:
    """The match's ``confirmation`` as the API shows it."""
    confirmations = signed_now(summary)
    if match.confirmed:
        rule = (
            FILED
            if match.filed_by_official
            else PLAYERS
            if len(confirming_seats(confirmations)) >= CONFIRMATIONS_NEEDED
            else ONLINE
        )
    else:
        rule = None
    return {
        "status": CONFIRMED if match.confirmed else AWAITING,
        "rule": rule,
        "filed_by": [user.get_username() for user in filers(match)],
        "by": [{"seat": c["seat"], "player": c["by"], "seq": c["seq"]} for c in confirmations],
        "needed": CONFIRMATIONS_NEEDED,
    }


def withdrawal_view(summary: dict[str, Any]) -> dict[str, Any] | None:
    withdrawal = summary.get("withdrawal")
    if not withdrawal:
        return None
    return {key: withdrawal.get(key) for key in ("reason", "by", "seq", "time")}
