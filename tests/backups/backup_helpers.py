"""Many matches fast, for the backup tests: one simulated match filed through the commands, then
copied with new ids straight into the tables, each copy's hash chain recomputed for its own id
(the chain hashes the match id), so every copy audits as the original does."""

from __future__ import annotations

import uuid

from support import PLAYERS, sample
from support.world import people, simulated

from games.domain.chain import GENESIS, chain_hash, event_body
from games.models import Match, MatchEvent, MatchProjection
from games.write import services

PER_BATCH = 100


def filed_matches(user_model) -> tuple[Match, Match]:
    """Two finished matches filed by a scorer: a short one played card by card (two regular deals
    and what they make due), and one filed from a paper sheet (17 tallied deals, R31)."""
    users = people(user_model, (*PLAYERS, "scorer"))
    played = services.record_import(actor=users["scorer"], record=simulated(7))
    sheet = services.record_import(actor=users["scorer"], record=sample("tally-legal-tally-m800005", PLAYERS))
    return played, sheet


def copies(match: Match, count: int) -> list[Match]:
    """``count`` copies of ``match``: its row, events (re-chained) and projection."""
    rows = list(match.events.order_by("seq"))
    projection = MatchProjection.objects.get(pk=match.pk)
    fields = {f.attname: getattr(match, f.attname) for f in Match._meta.concrete_fields if f.name != "id"}
    fields["fingerprint"] = None
    made = []
    for start in range(0, count, PER_BATCH):
        batch = [Match(id=uuid.uuid4(), **fields) for _ in range(min(PER_BATCH, count - start))]
        Match.objects.bulk_create(batch)
        events, projections = [], []
        for copy in batch:
            previous = GENESIS
            for row in rows:
                body = event_body(
                    match_id=copy.pk,
                    seq=row.seq,
                    type=row.type,
                    payload=row.payload,
                    actor=row.actor_name,
                    created_at=row.created_at,
                )
                previous = chain_hash(previous, body)
                events.append(
                    MatchEvent(
                        match=copy,
                        seq=row.seq,
                        type=row.type,
                        payload=row.payload,
                        actor_id=row.actor_id,
                        actor_name=row.actor_name,
                        created_at=row.created_at,
                        hash=previous,
                    )
                )
            projections.append(
                MatchProjection(
                    match=copy,
                    version=projection.version,
                    head_hash=previous,
                    snapshot=projection.snapshot,
                    summary=projection.summary,
                )
            )
        MatchEvent.objects.bulk_create(events, batch_size=2000)
        MatchProjection.objects.bulk_create(projections)
        made += batch
    return made
