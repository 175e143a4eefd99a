"""The event log is append-only: the ORM refuses to change it, and on PostgreSQL so does the
database itself, for raw SQL too."""

import pytest
from support.event_table import assert_refused

from games.models import MatchEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(import_sample):
    match = import_sample("m3-partial")
    return MatchEvent.objects.filter(match=match).order_by("seq")[5]


def test_saving_a_stored_event_again_is_refused(event):
    event.payload = {"seat": "N", "card": "AS"}

    with pytest.raises(TypeError, match="append-only"):
        event.save()

    assert MatchEvent.objects.get(pk=event.pk).payload != {"seat": "N", "card": "AS"}


def test_deleting_a_stored_event_is_refused(event):
    with pytest.raises(TypeError, match="append-only"):
        event.delete()

    assert MatchEvent.objects.filter(pk=event.pk).exists()


def test_a_queryset_update_of_events_is_refused(event):
    with pytest.raises(TypeError, match="append-only"):
        MatchEvent.objects.filter(pk=event.pk).update(hash="0" * 64)

    assert MatchEvent.objects.get(pk=event.pk).hash == event.hash


def test_a_queryset_delete_of_events_is_refused(event):
    count = MatchEvent.objects.count()

    with pytest.raises(TypeError, match="append-only"):
        MatchEvent.objects.filter(match=event.match).delete()

    assert MatchEvent.objects.count() == count


@pytest.mark.postgres
def test_a_raw_sql_update_of_an_event_fails_on_postgresql(event):
    assert_refused("UPDATE games_matchevent SET hash = %s WHERE id = %s", ["0" * 64, event.pk])

    assert MatchEvent.objects.get(pk=event.pk).hash == event.hash  # and the connection is still usable


@pytest.mark.postgres
def test_a_raw_sql_delete_of_an_event_fails_on_postgresql(event):
    assert_refused("DELETE FROM games_matchevent WHERE id = %s", [event.pk])

    assert MatchEvent.objects.filter(pk=event.pk).exists()
