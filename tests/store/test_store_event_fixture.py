"""A log written before typed events (tests/data/event_log_v1.json, by write_event_fixture.py)
read by the code of today: every stored payload parses into its typed event and serialises back
to the same bytes, the hash chains verify over what the typed events give, and the one fold
(``projections.apply``) gives the engine state and the summary the code of then computed —
straight from the file, and from the rows stored again (rebuild, audit)."""

import dataclasses
import datetime as dt
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from games.domain import event_types
from games.domain.chain import canonical_json, event_body, verify_chain
from games.domain.event_types import CardPlayed, DealTallied, MatchAbandoned, Sale
from games.domain.projections import fold, snapshot_of, summary_of
from games.domain.rulings import rulings_of
from games.domain.sign_offs import sign_offs_of
from games.domain.stream import stream_of
from games.management.commands.rebuild_projections import rebuild_match
from games.models import DealSecret, Match, MatchEvent, MatchProjection, Player
from games.read import audit

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "event_log_v1.json"
LOG = json.loads(FIXTURE.read_text())
MATCHES = LOG["matches"]


def _rows(logged: dict) -> list[SimpleNamespace]:
    return [
        SimpleNamespace(**{**e, "created_at": dt.datetime.fromisoformat(e["created_at"])}) for e in logged["events"]
    ]


def _secrets(logged: dict) -> dict[int, dict]:
    return {int(number): secret["hands"] for number, secret in logged["secrets"].items()}


def test_the_log_holds_every_event_type():
    assert {e["type"] for m in MATCHES for e in m["events"]} == set(MatchEvent.Type.values) == set(event_types.TYPES)


@pytest.mark.parametrize("logged", MATCHES, ids=lambda m: m["status"] + "-" + m["dealing"])
def test_every_stored_payload_round_trips_byte_for_byte(logged):
    """The five types naming people are at version 2 (issue 28): their version 1 payloads are
    upcast, with the same fields (a name stands where an id stands now), and only gain ``v``."""
    for stored in logged["events"]:
        event = event_types.parse(stored["type"], stored["payload"])
        assert event.TYPE == stored["type"] and "v" not in stored["payload"]
        assert event.VERSION == (2 if stored["type"] in event_types.PERSON_FIELDS else 1)
        assert canonical_json(event.fields()) == canonical_json(stored["payload"])
        assert list(event.fields()) == list(stored["payload"])  # the keys in their stored order too


@pytest.mark.parametrize("logged", MATCHES, ids=lambda m: m["status"] + "-" + m["dealing"])
def test_the_chains_verify_over_the_stored_payloads_and_the_typed_fields_of_version_1(logged):
    bodies = [
        (
            event_body(
                match_id=logged["match"],
                seq=row.seq,
                type=row.type,
                payload=event_types.of_row(row).fields(),  # = the stored payload of version 1
                actor=row.actor,
                created_at=row.created_at,
            ),
            row.hash,
        )
        for row in _rows(logged)
    ]
    assert verify_chain(bodies).ok


@pytest.mark.parametrize("logged", MATCHES, ids=lambda m: m["status"] + "-" + m["dealing"])
def test_the_one_fold_gives_the_state_and_summary_of_then(logged):
    log = stream_of(logged["events"])
    state = fold(log, _secrets(logged))
    summary = {**summary_of(state, Match(status=logged["status"]), rulings_of(log)), **sign_offs_of(log)}
    assert snapshot_of(state) == logged["expected"]["snapshot"]
    assert summary == logged["expected"]["summary"] == logged["projection"]["summary"]


def _store(logged: dict) -> Match:
    """The match of ``logged`` stored again, row for row, as it was written then."""
    created = logged["events"][0]["payload"]
    players = [Player.objects.get_or_create(username=created["seats"][s])[0] for s in "NESW"]
    match = Match.objects.create(
        id=logged["match"],
        **dict(zip(Match.SEAT_FIELDS, players)),
        first_dealer=created["first_dealer"],
        ruleset_name=created["ruleset"]["name"],
        ruleset_version=created["ruleset"]["version"],
        ruleset_options=created["ruleset"]["options"],
        dealing=created["dealing"],
        version=len(logged["events"]),
    )
    MatchEvent.objects.bulk_create(
        MatchEvent(
            match=match,
            seq=row.seq,
            type=row.type,
            payload=row.payload,
            actor_name=row.actor,
            created_at=row.created_at,
            hash=row.hash,
        )
        for row in _rows(logged)
    )
    DealSecret.objects.bulk_create(
        DealSecret(match=match, number=int(n), hands=s["hands"], salt=s["salt"]) for n, s in logged["secrets"].items()
    )
    return match


@pytest.mark.django_db
@pytest.mark.parametrize("logged", MATCHES, ids=lambda m: m["status"] + "-" + m["dealing"])
def test_stored_again_the_log_rebuilds_and_audits_as_then(logged):
    match = _store(logged)

    rebuild_match(match.pk)

    projection = MatchProjection.objects.get(pk=match.pk)
    assert projection.summary == logged["expected"]["summary"]
    assert projection.snapshot == logged["expected"]["snapshot"]
    assert projection.head_hash == logged["projection"]["head_hash"]
    assert Match.objects.get(pk=match.pk).status == logged["status"]
    assert audit.audit_failures(match) == []


# --- building, versions, upcasters --------------------------------------------------------------------


def test_a_misspelt_field_fails_where_the_event_is_built():
    with pytest.raises(TypeError):
        CardPlayed(seta="N", card="QS")
    with pytest.raises(TypeError):
        event_types.parse("card_played", {"seat": "N", "crad": "QS"})


def test_optional_keys_are_left_out_as_before():
    assert DealTallied(number=3, kind="R", entry="points", points={"N": 0}).to_payload() == {
        "number": 3,
        "kind": "R",
        "entry": "points",
        "points": {"N": 0},
    }
    assert DealTallied(number=3, kind="O", entry="tally", tally={}, sale=Sale("E", 2)).to_payload()["sale"] == {
        "buyer": "E",
        "price": 2,
    }


def test_an_old_payload_version_is_upcast_before_it_is_read():
    """A synthetic version 2 of ``match_abandoned`` that says who abandoned the match: stored
    version-1 payloads (no ``v``) go through the upcaster; version-2 payloads carry ``v``."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class MatchAbandonedV2(MatchAbandoned):
        VERSION = 2
        by: str | None = None

    registry = event_types.Registry((MatchAbandonedV2,))

    @registry.upcaster("match_abandoned", 1)
    def who_is_unknown(payload: dict) -> dict:
        return {**payload, "by": None}

    old = registry.parse("match_abandoned", {"reason": "rain"})
    new = MatchAbandonedV2(reason="rain", by="ala")

    assert old == MatchAbandonedV2(reason="rain", by=None)
    assert new.to_payload() == {"reason": "rain", "by": "ala", "v": 2}
    assert registry.parse("match_abandoned", new.to_payload()) == new
    assert registry.parse("match_abandoned", {"reason": "rain"}, version=1) == old
    with pytest.raises(ValueError, match="no upcaster"):
        event_types.Registry((MatchAbandonedV2,)).parse("match_abandoned", {"reason": "rain"})
    with pytest.raises(ValueError, match="newer"):
        event_types.parse("match_abandoned", {"reason": "rain", "v": 2})


def test_the_events_page_lists_every_type_with_its_fields_and_version():
    page = (Path(__file__).resolve().parents[2] / "docs" / "events.md").read_text()
    for cls in event_types.EVENTS.classes.values():
        row = next(line for line in page.splitlines() if line.startswith(f"| `{cls.TYPE}` | `{cls.__name__}` |"))
        assert row.endswith(f"| {cls.VERSION} |"), row
        for field in dataclasses.fields(cls):
            assert f"`{field.name}`" in row, (cls.TYPE, field.name)
