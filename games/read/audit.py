"""Audits of a stored match, recomputed from its event rows alone.

- ``chain_check``: the hash chain (``games.domain.chain``) over the rows in the order they were stored,
  plus the tail the chain alone cannot vouch for (the match's version, the read model's head);
- ``rules_check``: every event replayed through the engine (R30), as commands decided it;
- ``commitments_check``: every server-dealt deal's published commitment against the hands
  and salt revealed when the deal ended.

Each returns a value naming the first failure; none raises on a bad match.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.domain import checkpoints, projections, seals
from games.domain.chain import ChainCheck, deal_commitment, event_body, timestamp, verify_chain
from games.domain.event_types import CardPlayed, DealCorrected, DealStarted, DealTallied, HandsRevealed
from games.domain.exceptions import LogUnreadable
from games.domain.log import recorded_row
from games.domain.stream import Recorded, of_kind
from games.engine.errors import RuleViolation
from games.models import DealSecret, EventSeal, Match, MatchEvent, MatchProjection
from games.write.checkpointing import signing_key

# --- the hash chain ----------------------------------------------------------------------------


def chain_check(match: Match) -> ChainCheck:
    """The first event (by seq) where the stored chain breaks, and why.

    Rows are read in the order they were stored (primary key), not by ``seq``: two events
    whose ``seq`` values were swapped, or a row inserted later with a lower ``seq``, show up
    as a break in the seq sequence instead of being silently put back in order.
    """
    rows = list(match.events.order_by("id"))
    checked = verify_chain(((_body(row), row.hash) for row in rows), seal_vouchers(match))
    if not checked.ok:
        return _explain_gap(checked, rows)
    return _check_tail(match, rows)


def seal_vouchers(match: Match) -> dict[int, Any]:
    """The match's sealed events (redacted at an erasure: docs/privacy.md), each checked against
    the server's checkpoint key: a seal signed by any other key vouches for nothing."""
    found = list(EventSeal.objects.filter(match=match))
    if not found:
        return {}
    public_key = checkpoints.public_key_b64(signing_key())
    return {s.seq: functools.partial(_vouch, as_seal(s), public_key) for s in found}


def as_seal(row: EventSeal) -> seals.Seal:
    return seals.Seal(str(row.match_id), row.seq, row.hash, row.previous, row.digest, row.public_key, row.signature)


def _vouch(seal: seals.Seal, public_key: str, previous: str, body: dict, stored: str) -> str | None:
    return seals.vouches(seal, previous=previous, body=body, stored_hash=stored, public_key=public_key)


def _body(row: MatchEvent) -> dict:
    actor = row.actor_name
    return event_body(
        match_id=row.match_id, seq=row.seq, type=row.type, payload=row.payload, actor=actor, created_at=row.created_at
    )


def _explain_gap(checked: ChainCheck, rows: list[MatchEvent]) -> ChainCheck:
    """A seq "missing" where it should be but stored further on was moved or inserted there."""
    if not checked.reason.startswith("missing event"):
        return checked
    if any(row.seq == checked.first_bad_seq for row in rows):
        return ChainCheck(
            False,
            checked.first_bad_seq,
            f"event out of order: seq {checked.first_bad_seq} is stored after later events (moved or inserted)",
        )
    return checked


def _check_tail(match: Match, rows: list[MatchEvent]) -> ChainCheck:
    """A removed last event leaves a valid chain: the match's version and head hash tell."""
    last_seq = rows[-1].seq if rows else 0
    version = Match.objects.filter(pk=match.pk).values_list("version", flat=True).first()
    if version is not None and version > last_seq:
        return ChainCheck(
            False, last_seq + 1, f"missing event: the match is at version {version}, the log ends at seq {last_seq}"
        )
    if version is not None and version < last_seq:
        return ChainCheck(
            False, version + 1, f"extra event: the match is at version {version}, the log goes on to seq {last_seq}"
        )
    head = MatchProjection.objects.filter(pk=match.pk).values_list("head_hash", flat=True).first()
    if rows and head is not None and head != rows[-1].hash:
        return ChainCheck(False, last_seq, "hash mismatch: the last event's hash is not the recorded head")
    return ChainCheck(True)


# --- the rules --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RulesCheck:
    ok: bool
    first_bad_seq: int | None = None
    error: dict[str, Any] | None = None  # the R30 error object of RECORD_FORMAT.md


class _Cursor:
    """Walks the stored rows for ``fold`` as the typed stream, and remembers where it is: the row,
    the deal, the play."""

    def __init__(self, rows: Iterable[MatchEvent]):
        self.rows, self.row, self.item, self.deal, self.play_index = rows, None, None, None, None

    def __iter__(self) -> Iterator[Recorded]:
        for self.row in self.rows:  # noqa: B020 - the cursor keeps the row it stands on
            self.item = recorded_row(self.row)  # a payload it cannot read stops the fold here (malformed)
            event = self.item.event
            if isinstance(event, DealStarted):
                self.deal, self.play_index = event.number, -1
            elif isinstance(event, DealTallied):  # a whole deal from a paper sheet: no plays
                self.deal, self.play_index = event.number, None
            elif isinstance(event, CardPlayed) and self.play_index is not None:
                self.play_index += 1
            yield self.item

    def locate(self, violation: RuleViolation) -> dict[str, Any]:
        play_index = self.play_index if isinstance(self.item.event, CardPlayed) else None
        return violation.located(deal=self.deal, play_index=play_index).as_json()

    def malformed(self, exc: Exception) -> dict[str, Any]:
        """The error object's shape for an event the engine cannot even read (or a missing secret)."""
        return {
            "code": "malformed_event",
            "deal": self.deal,
            "play_index": None,
            "seat": None,
            "card": None,
            "detail": repr(exc),
        }


def rules_check(match: Match) -> RulesCheck:
    """Replay every event (by seq) through the engine; the first one it rejects.

    Server-dealt hands come from the ``hands_revealed`` event once a deal has ended (what
    ``commitments_check`` vouches for) and from ``DealSecret`` for the deal still in play.
    """
    rows = list(match.events.order_by("seq"))
    cursor = _Cursor(rows)
    try:
        projections.fold(cursor, hands_by_deal(match, readable(rows)))
    except RuleViolation as violation:
        return RulesCheck(False, cursor.row.seq, cursor.locate(violation))
    except LogUnreadable as exc:  # a payload the typed events cannot read
        return RulesCheck(False, cursor.row.seq, cursor.malformed(exc.__cause__ or exc))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a payload the engine cannot read
        return RulesCheck(False, cursor.row.seq if cursor.row else None, cursor.malformed(exc))
    return RulesCheck(True)


def hands_by_deal(match: Match, log: Iterable[Recorded]) -> dict[int, dict]:
    """Each deal's hands by number: the server's secrets, and the hands revealed in ``log``."""
    hands = dict(DealSecret.objects.filter(match=match).values_list("number", "hands"))
    hands.update(
        {
            item.event.number: item.event.hands
            for item in of_kind(log, HandsRevealed)
            if isinstance(item.event.hands, dict)
        }
    )
    return hands


def readable(rows: Iterable[MatchEvent]) -> list[Recorded]:
    """The typed stream of ``rows``, passing by any whose payload cannot be read (``rules_check``
    reports it): for the checks and views that read a few kinds, not the whole fold."""
    log = []
    for row in rows:
        try:
            log.append(recorded_row(row))
        except LogUnreadable:
            continue
    return log


# --- the deal commitments ----------------------------------------------------------------------


@dataclass(frozen=True)
class CommitmentCheck:
    ok: bool
    first_bad_deal: int | None = None
    reason: str | None = None


def commitments_check(match: Match) -> CommitmentCheck:
    """Each committed deal's revealed hands and salt hash to its commitment; every committed
    deal but the last (possibly still in play) has been revealed."""
    rows = match.events.filter(type__in=[DealStarted.TYPE, HandsRevealed.TYPE]).order_by("seq")
    read = [item.event for item in readable(rows)]
    reveals = {event.number: event for event in read if isinstance(event, HandsRevealed)}
    dealt = [event for event in read if isinstance(event, DealStarted)]
    last_deal = max((event.number for event in dealt), default=0)
    for deal in (event for event in dealt if event.commitment is not None):
        failure = _commitment_failure(deal, reveals.get(deal.number), is_last=deal.number == last_deal)
        if failure:
            return CommitmentCheck(False, deal.number, failure)
    return CommitmentCheck(True)


def _commitment_failure(deal: DealStarted, reveal: HandsRevealed | None, *, is_last: bool) -> str | None:
    if reveal is None:
        return None if is_last else "the deal ended but its hands were never revealed"
    try:
        computed = deal_commitment(reveal.hands, reveal.salt)
    except (KeyError, TypeError, AttributeError):
        return "the revealed hands or salt are malformed"
    if computed != deal.commitment:
        return "the revealed hands and salt do not hash to the published commitment"
    return None


# --- how each deal was filed ------------------------------------------------------------------------

PLAYED = "played"


def deal_entries(log: Iterable[Recorded]) -> list[dict[str, Any]]:
    """Per deal, in log order, how it was filed: ``played`` card by card (``deal_started``), or from a
    paper sheet by its ``tally`` or only its ``points`` (``deal_tallied``, R31–R33); ``seq`` is the
    event that began it (a voided deal and its replacement share a number). A ``deal_corrected``
    changes the entry of the deal it corrects (the latest one), not its ``seq``."""
    entries: list[dict[str, Any]] = []
    for item in log:
        event = item.event
        if not isinstance(event, DealStarted | DealTallied):
            continue
        entry = PLAYED if isinstance(event, DealStarted) else "tally" if event.tally is not None else "points"
        if isinstance(event, DealCorrected) and entries:
            entries[-1]["entry"] = entry
        else:
            entries.append({"number": event.number, "entry": entry, "seq": item.seq})
    return entries


# --- the whole report ------------------------------------------------------------------------------


def audit_report(match: Match) -> dict[str, Any]:
    """The three checks, how each deal was filed, and the full event log as stored
    (``GET /matches/{id}/audit/``)."""
    chain, rules, commitments = chain_check(match), rules_check(match), commitments_check(match)
    rows = list(match.events.order_by("seq", "id"))
    sealed = {row.seq: as_seal(row) for row in EventSeal.objects.filter(match=match)}  # redacted at an erasure
    return {
        "match": match.pk,
        "version": match.version,
        "ok": chain.ok and rules.ok and commitments.ok,
        "chain": {"ok": chain.ok, "first_bad_seq": chain.first_bad_seq, "reason": chain.reason},
        "rules": {"ok": rules.ok, "first_bad_seq": rules.first_bad_seq, "error": rules.error},
        "commitments": {
            "ok": commitments.ok,
            "first_bad_deal": commitments.first_bad_deal,
            "reason": commitments.reason,
        },
        "deals": deal_entries(readable(rows)),
        "events": [
            {
                "seq": row.seq,
                "type": row.type,
                "actor": row.actor_name,
                "created_at": timestamp(row.created_at),
                "payload": row.payload,
                "hash": row.hash,
                **({"seal": sealed[row.seq].as_json()} if row.seq in sealed else {}),
            }
            for row in rows
        ],
    }


def audit_failures(match: Match) -> list[str]:
    """What is wrong with the match, one line per failed check (empty: it passes)."""
    chain, rules, commitments = chain_check(match), rules_check(match), commitments_check(match)
    failures = []
    if not chain.ok:
        failures.append(f"chain broken at seq {chain.first_bad_seq}: {chain.reason}")
    if not rules.ok:
        failures.append(f"illegal event at seq {rules.first_bad_seq}: {rules.error}")
    if not commitments.ok:
        failures.append(f"commitment of deal {commitments.first_bad_deal} fails: {commitments.reason}")
    return failures


def audit_matches(*, match_ids: Iterable | None = None, progress=None) -> dict[str, list[str]]:
    """Audit every match (or those of ``match_ids``), oldest first; ``progress`` is called after
    each. Returns the failing matches: match id → what failed."""
    matches = Match.objects.order_by("created_at", "id")
    if match_ids is not None:
        matches = matches.filter(pk__in=list(match_ids))
    failing: dict[str, list[str]] = {}
    for match in matches.iterator(chunk_size=200):
        failures = audit_failures(match)
        if failures:
            failing[str(match.pk)] = failures
        if progress is not None:
            progress(match.pk)
    return failing
