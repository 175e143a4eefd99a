"""Copies of a person's name in other people's stored API answers (``Idempotency-Key`` replays)
and webhook deliveries (docs/privacy.md): an erasure or a rename replaces each whole copy, nested
anywhere in the JSON, Polish letters included, and leaves every other value and row as it was —
on SQLite and on PostgreSQL, whose JSON text differ (``\\u0142`` against ``ł``)."""

import datetime as dt

import pytest
from support.privacy_world import GUEST, club_with_guest

from accounts.erasure import person_erase
from accounts.name_copies import holding, name_copies_replace
from accounts.rectification import player_rename
from games.models import IdempotencyKey
from scoring.models import Club
from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 12, 6, tzinfo=dt.UTC)


def answer(user, key: str, response) -> IdempotencyKey:
    return IdempotencyKey.objects.create(user=user, key=key, request_hash="0" * 64, status_code=201, response=response)


def delivery(endpoint, payload) -> Delivery:
    times = {"next_attempt_at": NOW, "retry_until": NOW, "created_at": NOW}
    return Delivery.objects.create(endpoint=endpoint, event_type="match.finished", payload=payload, **times)


@pytest.fixture
def stored(django_user_model):
    """Rows naming "Paweł Gaweł" (whole, nested, as a key), one naming someone else, one with the
    name inside a longer string."""
    user = django_user_model.objects.create_user("scorer")
    endpoint = Endpoint.objects.create(club=Club.objects.create(name="K", slug="k"), url="https://x.test/", secret="s")
    return {
        "whole": answer(user, "a", {"players": {"N": "Paweł Gaweł", "E": "ala"}, "raised_by": "Paweł Gaweł"}),
        "nested": delivery(endpoint, {"match": {"seats": [{"seat": "S", "player": "Paweł Gaweł"}]}}),
        "key": answer(user, "b", {"Paweł Gaweł": 3}),
        "other": delivery(endpoint, {"match": {"seats": [{"seat": "S", "player": "ala"}]}}),
        "inside": answer(user, "c", {"statement": "Paweł Gaweł zagrał rewokę"}),
    }


def test_each_whole_copy_becomes_the_new_name_and_nothing_else_changes(stored):
    before = {name: _value(row) for name, row in stored.items()}

    name_copies_replace({"Paweł Gaweł"}, "usunięty gracz nr 1")

    after = {name: _value(row) for name, row in stored.items()}
    assert after["whole"] == {"players": {"N": "usunięty gracz nr 1", "E": "ala"}, "raised_by": "usunięty gracz nr 1"}
    assert after["nested"] == {"match": {"seats": [{"seat": "S", "player": "usunięty gracz nr 1"}]}}
    for unchanged in ("key", "other", "inside"):
        assert after[unchanged] == before[unchanged]


def test_the_database_picks_the_rows_that_may_hold_the_name(stored):
    picked = {row.pk for row in holding(IdempotencyKey.objects.all(), "response", {"Paweł Gaweł"})}
    assert picked == {stored["whole"].pk, stored["key"].pk}
    assert [row.pk for row in holding(Delivery.objects.all(), "payload", {"Paweł Gaweł"})] == [stored["nested"].pk]
    assert not holding(Delivery.objects.all(), "payload", {"Paweł"}).exists()  # a part of a string is no copy


def test_an_erasure_and_a_rename_replace_the_copies_of_a_members_name(
    django_user_model, django_capture_on_commit_callbacks
):
    world, jan = club_with_guest(django_user_model, django_capture_on_commit_callbacks)
    kept = answer(world.users["ada"], "k", {"players": {"N": GUEST}})

    player_rename(actor=world.users["ada"], player=jan, name="Jan Kowalski")
    assert _value(kept) == {"players": {"N": "Jan Kowalski"}}

    person_erase(actor=world.users["ada"], player=jan)
    jan.refresh_from_db()
    assert _value(kept) == {"players": {"N": jan.username}} and jan.username != "Jan Kowalski"


def _value(row):
    row.refresh_from_db()
    return row.response if isinstance(row, IdempotencyKey) else row.payload
