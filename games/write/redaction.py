"""An erasure's work on the event log (issue 28, docs/privacy.md): events stored before the log
named people by id (payload version 1, or an ``actor`` hashed as a username) that name the
erased person are redacted — his name replaced by his public id — and sealed
(``games.domain.seals``), their stored hashes kept, so the chain, every head and every signed
checkpoint stay valid. Events stored since name him by id already: nothing to do there."""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from games.domain import seals
from games.domain.chain import GENESIS, event_body
from games.domain.event_types import people_of, with_people
from games.domain.exceptions import CommandError
from games.models import EventSeal, Match, MatchEvent, Player
from games.read.audit import chain_check
from games.write.checkpointing import signing_key


class ChainBrokenBeforeErasure(CommandError):
    """An erasure would seal a link of a chain that does not verify: the club's arbiters look first."""

    status = 409
    code = "chain_broken"


def matches_naming(player: Player, user) -> list[Match]:
    """The matches whose log may name ``player`` (seated) or ``user`` (acting): seated ones and
    those with an event he made."""
    seated = Q(north=player) | Q(east=player) | Q(south=player) | Q(west=player)
    acted = Q(pk__in=MatchEvent.objects.filter(actor=user).values("match_id")) if user is not None else Q(pk__in=[])
    return list(Match.objects.filter(seated | acted).distinct())


def person_redact(*, player: Player, names: set[str], user=None) -> int:
    """Redact and seal every legacy event naming ``player`` by one of ``names`` (his username,
    display name); the number sealed. Inside the erasure's transaction."""
    sealed, key = 0, None
    for match in matches_naming(player, user):
        rows = list(match.events.order_by("seq"))
        naming = [row for row in rows if _names(row, names)]
        if not naming:
            continue
        checked = chain_check(match)
        if not checked.ok:
            raise ChainBrokenBeforeErasure(
                f"the chain of match {match.pk} is broken at seq {checked.first_bad_seq}: no seal is made over it"
            )
        key = key or signing_key()  # asked only when there is something to seal
        previous = {row.seq: (rows[i - 1].hash if i else GENESIS) for i, row in enumerate(rows)}
        for row in naming:
            _seal(row, previous[row.seq], {name: player.public_id for name in names}, key)
            sealed += 1
        from games.management.commands.rebuild_projections import rebuild_match  # its summary named him too

        rebuild_match(match.pk)
    return sealed


def _names(row: MatchEvent, names: set[str]) -> bool:
    return row.actor_name in names or ("v" not in row.payload and bool(names & set(people_of(row.payload, row.type))))


def _seal(row: MatchEvent, previous: str, ids: dict[str, str], key) -> None:
    payload = with_people(row.payload, row.type, ids) if "v" not in row.payload else row.payload
    actor_name = ids.get(row.actor_name, row.actor_name)
    body = event_body(
        match_id=row.match_id, seq=row.seq, type=row.type, payload=payload, actor=actor_name, created_at=row.created_at
    )
    made = seals.seal(
        match=str(row.match_id), seq=row.seq, hash=row.hash, previous=previous, redacted_body=body, key=key
    )
    EventSeal.objects.update_or_create(
        match_id=row.match_id,
        seq=row.seq,
        defaults={
            "hash": made.hash,
            "previous": made.previous,
            "digest": made.digest,
            "public_key": made.public_key,
            "signature": made.signature,
            "sealed_at": timezone.now(),
        },
    )
    with transaction.atomic():
        if connection.vendor == "postgresql":  # the append-only trigger lets this one UPDATE through
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL kierki.redacting = 'on'")
        MatchEvent._base_manager.filter(pk=row.pk).update(payload=payload, actor_name=actor_name)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL kierki.redacting = 'off'")
