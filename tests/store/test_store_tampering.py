"""A tampered event log is caught by recomputing the hash chain from the stored rows
(games.read.audit.chain_check), at the first seq that no longer holds."""

import pytest
from django.db import connection
from support.event_table import json_param, tamperable

from games.domain.chain import ChainCheck, canonical_json, chain_hash, event_body
from games.models import MatchEvent
from games.read import audit

pytestmark = pytest.mark.django_db

SEQ = 10  # a card_played event inside the first deal


@pytest.fixture
def match(import_sample):
    match = import_sample("m3-partial")
    assert audit.chain_check(match).ok
    return match


def _row(match, seq: int) -> MatchEvent:
    return MatchEvent.objects.get(match=match, seq=seq)


def _db(match):
    """The match id as the database stores it (a uuid on PostgreSQL, 32 hex digits on SQLite)."""
    return MatchEvent._meta.get_field("match").get_db_prep_value(match.pk, connection)


def _set_seq(cursor, match, old: int, new: int) -> None:
    cursor.execute("UPDATE games_matchevent SET seq = %s WHERE match_id = %s AND seq = %s", [new, _db(match), old])


def test_an_untouched_imported_match_passes_the_chain_check(match):
    assert audit.chain_check(match) == ChainCheck(True)


def test_an_edited_payload_is_caught_at_its_seq(match):
    row = _row(match, SEQ)
    assert row.type == MatchEvent.Type.CARD_PLAYED
    forged = dict(row.payload, card="AS" if row.payload["card"] != "AS" else "KS")

    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
            [canonical_json(forged).decode(), row.pk],
        )

    checked = audit.chain_check(match)
    assert (checked.ok, checked.first_bad_seq) == (False, SEQ)
    assert checked.reason.startswith("hash mismatch")


def deleted(match, seq: int):
    """The chain check of ``match`` once its event ``seq`` is deleted."""
    with tamperable() as cursor:
        cursor.execute("DELETE FROM games_matchevent WHERE id = %s", [_row(match, seq).pk])
    return audit.chain_check(match)


def test_a_deleted_event_is_caught_as_a_gap(match):
    checked = deleted(match, SEQ)

    assert (checked.ok, checked.first_bad_seq) == (False, SEQ)
    assert checked.reason.startswith("missing event")


def test_a_deleted_last_event_is_caught_against_the_match_version(match):
    last = match.version
    checked = deleted(match, last)

    assert (checked.ok, checked.first_bad_seq) == (False, last)
    assert checked.reason.startswith("missing event")


def test_two_events_with_their_seq_swapped_are_caught_at_the_first(match):
    with tamperable() as cursor:
        _set_seq(cursor, match, SEQ, 1_000_000)
        _set_seq(cursor, match, SEQ + 1, SEQ)
        _set_seq(cursor, match, 1_000_000, SEQ + 1)

    checked = audit.chain_check(match)
    assert (checked.ok, checked.first_bad_seq) == (False, SEQ)
    assert "out of order" in checked.reason


def test_two_whole_rows_swapped_in_the_stored_order_are_caught(match):
    first, second = _row(match, SEQ).pk, _row(match, SEQ + 1).pk
    with tamperable() as cursor:
        for old, new in ((first, -1), (second, first), (-1, second)):
            cursor.execute("UPDATE games_matchevent SET id = %s WHERE id = %s", [new, old])

    checked = audit.chain_check(match)
    assert (checked.ok, checked.first_bad_seq) == (False, SEQ)
    assert "out of order" in checked.reason


def _chained_copy(match, source: MatchEvent, seq: int) -> tuple[int, str]:
    """A copy of ``source`` renumbered ``seq``, with a hash correctly chained to event seq - 1."""
    body = event_body(
        match_id=match.pk,
        seq=seq,
        type=source.type,
        payload=source.payload,
        actor=source.actor_name,
        created_at=source.created_at,
    )
    return seq, chain_hash(_row(match, seq - 1).hash, body)


def _insert_copy(cursor, source: MatchEvent, seq: int, hash: str) -> None:
    cursor.execute(
        "INSERT INTO games_matchevent (match_id, seq, type, payload, actor_id, actor_name, created_at, hash) "
        "SELECT match_id, %s, type, payload, actor_id, actor_name, created_at, %s FROM games_matchevent "
        "WHERE id = %s",
        [seq, hash, source.pk],
    )


def test_an_event_inserted_in_the_middle_is_caught_at_its_seq(match):
    seq, hash = _chained_copy(match, _row(match, SEQ + 4), SEQ)
    with tamperable() as cursor:  # make room: shift seq >= SEQ up by one, in two steps (unique seq)
        cursor.execute(
            "UPDATE games_matchevent SET seq = seq + 1000000 WHERE match_id = %s AND seq >= %s", [_db(match), SEQ]
        )
        cursor.execute(
            "UPDATE games_matchevent SET seq = seq - 999999 WHERE match_id = %s AND seq >= 1000000", [_db(match)]
        )
        _insert_copy(cursor, _row(match, SEQ + 5), seq, hash)

    checked = audit.chain_check(match)
    assert (checked.ok, checked.first_bad_seq) == (False, SEQ)
    assert "out of order" in checked.reason


def test_an_event_appended_with_a_well_chained_hash_is_caught_against_the_match_version(match):
    last = match.version
    seq, hash = _chained_copy(match, _row(match, last), last + 1)
    with tamperable() as cursor:
        _insert_copy(cursor, _row(match, last), seq, hash)

    checked = audit.chain_check(match)
    assert (checked.ok, checked.first_bad_seq) == (False, last + 1)
    assert checked.reason.startswith("extra event")


def test_a_forged_hash_is_caught_at_its_seq(match):
    with tamperable() as cursor:
        cursor.execute("UPDATE games_matchevent SET hash = %s WHERE id = %s", ["f" * 64, _row(match, SEQ).pk])

    checked = audit.chain_check(match)
    assert (checked.ok, checked.first_bad_seq) == (False, SEQ)
    assert checked.reason.startswith("hash mismatch")


def test_a_rewritten_and_rechained_last_event_is_caught_against_the_recorded_head(match):
    last = _row(match, match.version)
    body = event_body(
        match_id=match.pk,
        seq=last.seq,
        type=last.type,
        payload={"reason": "forged"},
        actor=last.actor_name,
        created_at=last.created_at,
    )
    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET type = %s, payload = {json_param()}, hash = %s WHERE id = %s",
            [body["type"], '{"reason":"forged"}', chain_hash(_row(match, last.seq - 1).hash, body), last.pk],
        )

    checked = audit.chain_check(match)
    assert (checked.ok, checked.first_bad_seq) == (False, last.seq)
    assert "head" in checked.reason


def test_renaming_a_user_is_not_mistaken_for_tampering(match, users):
    scorer = users["scorer"]  # the importer: the actor of every event
    scorer.username = "renamed-scorer"
    scorer.save()

    assert audit.chain_check(match).ok
