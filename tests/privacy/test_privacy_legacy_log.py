"""Issue 28: a log written before people were named by id (tests/data/event_log_v1.json) — its
events read through the upcaster as the same typed events, and an erasure of a person it names
by name: his name leaves the stored events, which are sealed; every hash, every head and the
signed checkpoint taken before stay; the audit still verifies; a sealed event edited afterwards,
or a seal signed with another key, is caught."""

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from support.event_table import tamperable
from support.privacy_world import store_legacy_log, traces_in_database

from accounts.erasure import person_erase
from games.domain import checkpoints, event_types
from games.domain.event_types import MatchCreated, ResultConfirmed
from games.domain.roles import Role
from games.models import EventSeal, Match, MatchEvent, MatchProjection, Player
from games.read import audit
from games.read.record import match_record
from games.write.checkpointing import checkpoint_take, current_heads

LOG = json.loads((Path(__file__).resolve().parents[1] / "data" / "event_log_v1.json").read_text())
FINISHED = next(m for m in LOG["matches"] if m["status"] == "finished")
ERASED = "p800005-N"  # seated North; confirms the sheet; acts on the log


def test_the_old_payloads_read_as_the_typed_events_of_today():
    created = event_types.parse("match_created", FINISHED["events"][0]["payload"])
    assert isinstance(created, MatchCreated) and created.seats["N"] == ERASED and created.VERSION == 2
    confirmed = [e for e in FINISHED["events"] if e["type"] == "result_confirmed"]
    assert [event_types.parse(e["type"], e["payload"]).by for e in confirmed] == ["p800005-N", "p800005-E"]
    assert all(isinstance(event_types.parse(e["type"], e["payload"]), ResultConfirmed) for e in confirmed)


@pytest.fixture
def legacy(db, django_user_model):
    match = store_legacy_log(FINISHED)
    staff = django_user_model.objects.create_user("sekretarz", is_staff=True)
    return match, staff


def _figures(match):
    projection = MatchProjection.objects.get(pk=match.pk)
    report = audit.audit_report(match)
    return projection.summary["totals"], projection.snapshot, report["ok"], report["deals"]


def test_erasing_a_person_a_legacy_log_names_seals_his_events_and_keeps_every_hash(legacy):
    match, staff = legacy
    before = _figures(match)
    assert before[2]  # the stored log audits clean
    taken = checkpoint_take()
    hashes = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("hash", flat=True))

    person_erase(actor=staff, player=Player.objects.get(username=ERASED))

    assert traces_in_database((ERASED.lower(),)) == []
    assert list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("hash", flat=True)) == hashes
    assert current_heads() == taken.heads and checkpoints.verify_checkpoint(taken.checkpoint, taken.heads).ok
    assert audit.chain_check(match).ok and _figures(match) == before
    naming = [e["seq"] for e in FINISHED["events"] if e["actor"] == ERASED or ERASED in json.dumps(e["payload"])]
    assert sorted(EventSeal.objects.filter(match=match).values_list("seq", flat=True)) == naming
    public_id = Player.objects.get(erased_number=1).public_id
    created = MatchEvent.objects.get(match=match, seq=1)
    assert created.payload["seats"]["N"] == public_id and created.payload["v"] == 2
    record = match_record(match=Match.objects.get(pk=match.pk), viewer=Role(Role.ARBITER))
    assert record["players"]["N"] == "erased player #1"


def test_a_sealed_event_edited_after_the_erasure_is_caught(legacy):
    match, staff = legacy
    person_erase(actor=staff, player=Player.objects.get(username=ERASED))
    seal = EventSeal.objects.filter(match=match).order_by("seq").last()
    row = MatchEvent.objects.get(match=match, seq=seal.seq)
    with tamperable() as cursor:
        cursor.execute("UPDATE games_matchevent SET actor_name = %s WHERE id = %s", ["someone else", row.pk])
    checked = audit.chain_check(match)
    assert (checked.ok, checked.first_bad_seq) == (False, seal.seq)
    assert "altered after it was sealed" in checked.reason


def test_a_seal_signed_with_another_key_vouches_for_nothing(legacy, settings):
    match, staff = legacy
    person_erase(actor=staff, player=Player.objects.get(username=ERASED))
    settings.CHECKPOINT_SIGNING_KEY = checkpoints.private_key_b64(Ed25519PrivateKey.generate())
    checked = audit.chain_check(match)
    assert not checked.ok and "another public key" in checked.reason


def test_the_audit_export_of_a_sealed_log_verifies_offline_against_the_checkpoint(legacy, settings):
    match, staff = legacy
    taken = checkpoint_take()
    person_erase(actor=staff, player=Player.objects.get(username=ERASED))
    events = audit.audit_report(match)["events"]
    assert [e["seq"] for e in events if "seal" in e] == list(
        EventSeal.objects.filter(match=match).order_by("seq").values_list("seq", flat=True)
    )

    key = taken.checkpoint["public_key"]
    assert checkpoints.verify_log(str(match.pk), events, taken.heads, public_key=key).ok
    forged = [{**e, "seal": {**e["seal"], "digest": "0" * 64}} if "seal" in e else e for e in events]
    checked = checkpoints.verify_log(str(match.pk), forged, taken.heads, public_key=key)
    assert not checked.ok and "sealed event" in checked.reason
    other = checkpoints.public_key_b64(Ed25519PrivateKey.generate())
    assert not checkpoints.verify_log(str(match.pk), events, taken.heads, public_key=other).ok
