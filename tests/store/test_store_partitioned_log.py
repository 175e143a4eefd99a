"""On PostgreSQL the event log is partitioned by hash of match (games/migrations/0010): a match's
events live in one partition, and the append-only trigger guards every partition, also when a
statement names the partition itself."""

import pytest
from django.db import connection
from support.event_table import assert_refused

from games.models import MatchEvent

pytestmark = pytest.mark.postgres


def _partitions_holding(match) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT DISTINCT tableoid::regclass::text FROM games_matchevent WHERE match_id = %s", [match.pk])
        return {row[0] for row in cursor.fetchall()}


def test_the_event_table_is_partitioned_by_hash_of_match(db):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT partstrat, pg_get_partkeydef('games_matchevent'::regclass) "
            "FROM pg_partitioned_table WHERE partrelid = 'games_matchevent'::regclass"
        )
        assert cursor.fetchone() == ("h", "HASH (match_id)")


def test_all_events_of_a_match_are_stored_in_one_partition(import_sample):
    match = import_sample("m3-partial")

    (partition,) = _partitions_holding(match)

    assert partition.startswith("games_matchevent_p")
    assert MatchEvent.objects.filter(match=match).count() == match.events.count() > 1


def test_event_ids_stay_unique_and_ordered_across_partitions(import_sample):
    first, second = import_sample("m3-partial"), import_sample("m1-partial")

    ids = list(MatchEvent.objects.order_by("id").values_list("id", flat=True))

    assert len(ids) == len(set(ids))
    assert max(first.events.values_list("id", flat=True)) < min(second.events.values_list("id", flat=True))


def test_a_raw_update_aimed_at_a_partition_is_refused(import_sample):
    match = import_sample("m3-partial")
    event = match.events.order_by("seq")[3]
    (partition,) = _partitions_holding(match)

    assert_refused(f"UPDATE {partition} SET hash = %s WHERE id = %s", ["0" * 64, event.pk])  # noqa: S608 - a table name

    assert MatchEvent.objects.get(pk=event.pk).hash == event.hash


def test_a_raw_delete_aimed_at_a_partition_is_refused(import_sample):
    match = import_sample("m3-partial")
    event = match.events.order_by("seq")[3]
    (partition,) = _partitions_holding(match)

    assert_refused(f"DELETE FROM {partition} WHERE id = %s", [event.pk])  # noqa: S608 - a table name

    assert MatchEvent.objects.filter(pk=event.pk).exists()


def test_moving_an_event_to_another_match_is_refused(import_sample):
    first, second = import_sample("m3-partial"), import_sample("m1-partial")
    event = first.events.order_by("seq")[3]

    assert_refused("UPDATE games_matchevent SET match_id = %s, seq = seq + 1000 WHERE id = %s", [second.pk, event.pk])

    assert MatchEvent.objects.get(pk=event.pk).match_id == first.pk
