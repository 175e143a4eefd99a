"""The hand-written statements of the hot path (``games.sql``) against the ORM's own queries for
the same rows: the same model instances read, the same rows written — on SQLite, and on
PostgreSQL under CI=true (DATABASE_URL). docs/hot-path-sql.md says what to re-check on a Django
upgrade; these tests are the check."""

import datetime as dt

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from store_helpers import SEATED, play_legal_cards

from games import sql
from games.domain.chain import chain_hash
from games.models import IdempotencyKey, Match, MatchEvent, MatchProjection, Player
from games.read import live
from games.write import fastplay, services

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    """Every concrete field's value, by attname, as the instance holds it."""
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def typed(obj) -> dict:
    """``fields`` with each value's type: a str where the ORM gives a UUID is a difference too."""
    return {name: (type(value), value) for name, value in fields(obj).items()}


# --- the match locked with its projection ---------------------------------------------------------


def test_the_match_lock_reads_the_match_and_its_projection_as_the_orm_does(server_match, users):
    play_legal_cards(server_match, users["scorer"], 3)

    with transaction.atomic():
        locked = sql.match_lock(server_match.pk)
    orm = Match.objects.select_related("projection").get(pk=server_match.pk)

    assert typed(locked) == typed(orm)
    assert typed(locked.projection) == typed(orm.projection)
    assert locked.projection.match is locked  # cached both ways: no query to go back
    assert locked._state.adding is False and locked._state.db == orm._state.db


def test_the_match_lock_finds_nothing_for_an_unknown_match(db):
    with transaction.atomic():
        assert sql.match_lock(Match._meta.pk.to_python("00000000-0000-4000-8000-000000000000")) is None


def test_the_match_lock_takes_the_rows_for_update_where_the_database_can(server_match):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        sql.match_lock(server_match.pk)

    (statement,) = [q["sql"] for q in queries.captured_queries]
    assert statement.rstrip().endswith("FOR UPDATE OF m, p") == connection.features.has_select_for_update_of


# --- the append -------------------------------------------------------------------------------


def _twin_matches(users) -> tuple[Match, Match]:
    """Two matches in the same state: one written through games.sql, one through the ORM."""
    twins = []
    for _ in range(2):
        match = services.match_create(actor=users["north"], first_dealer="N", dealing="recorded", seats=SEATED)
        twins.append(Match.objects.select_related("projection").get(pk=match.pk))
    return twins[0], twins[1]


NOW = timezone.now()


def _events(match: Match, actor, payloads: list[dict]) -> list[MatchEvent]:
    """New events after the match's last, the same for twins (the same time, hashes chained from
    a common head: what is hashed does not matter here)."""
    now, previous, made = NOW, "0" * 64, []
    for offset, payload in enumerate(payloads, start=1):
        seq = match.version + offset
        previous = chain_hash(previous, {"seq": seq, "payload": payload})
        made.append(
            MatchEvent(
                match=match,
                seq=seq,
                type=MatchEvent.Type.LEAD_OFFERED,
                payload=payload,
                actor=actor,
                actor_name=actor.get_username(),
                created_at=now,
                hash=previous,
            )
        )
    return made


def _without_ids(values: dict) -> dict:
    return {name: value for name, value in values.items() if name not in {"id", "match_id"}}


@pytest.mark.parametrize("count", [1, 2])
def test_the_append_writes_the_rows_the_orm_writes(users, count):
    ours, theirs = _twin_matches(users)
    payloads = [{"buyer": "E", "price": 2, "note": "ą ż \u2603"}, {"buyer": "W", "price": 3}][:count]
    projection_values = {
        "version": ours.version + count,
        "head_hash": "f" * 64,
        "snapshot": {"nested": [1, {"x": None}]},
        "summary": {"deals": []},
    }
    match_values = {"version": ours.version + count, "status": Match.Status.IN_PROGRESS, "confirmed": True}

    with transaction.atomic():
        events = _events(ours, users["north"], payloads)
        sql.events_append(ours, events, match_values=match_values, projection_values=projection_values)
    with transaction.atomic():
        orm_events = MatchEvent.objects.bulk_create(_events(theirs, users["north"], payloads))
        Match.objects.filter(pk=theirs.pk).update(**match_values)
        MatchProjection.objects.filter(pk=theirs.pk).update(**projection_values)

    assert [e.pk for e in events] == list(
        MatchEvent.objects.filter(match=ours).order_by("seq").values_list("pk", flat=True)[1:]
    )
    assert all(e._state.adding is False for e in events)
    stored = [_without_ids(fields(e)) for e in MatchEvent.objects.filter(match=ours).order_by("seq")]
    expected = [_without_ids(fields(e)) for e in MatchEvent.objects.filter(match=theirs).order_by("seq")]
    assert stored[1:] == expected[1:] == [_without_ids(fields(e)) for e in orm_events]
    assert _without_ids(fields(Match.objects.get(pk=ours.pk))) | {"created_at": None} == _without_ids(
        fields(Match.objects.get(pk=theirs.pk))
    ) | {"created_at": None}
    assert _without_ids(fields(MatchProjection.objects.get(pk=ours.pk))) == _without_ids(
        fields(MatchProjection.objects.get(pk=theirs.pk))
    )


def test_a_patched_json_column_is_written_as_the_whole_value(users):
    """A card play's snapshot: the stored one with the deal's plays replaced (``jsonb_set`` on
    PostgreSQL, the whole value elsewhere) — the same column as the whole value written."""
    ours, theirs = _twin_matches(users)
    stored = {"deal": {"plays": [1, 2], "hands": [[3]], "decided": False}, "played": 0, "results": []}
    for match in (ours, theirs):
        MatchProjection.objects.filter(pk=match.pk).update(snapshot=stored)
    snapshot = {**stored, "deal": {**stored["deal"], "plays": [1, 2, 40]}}
    values = {"version": ours.version + 1, "head_hash": "e" * 64, "snapshot": snapshot}

    for match, patches in ((ours, {"snapshot": (("deal", "plays"), [1, 2, 40])}), (theirs, None)):
        with transaction.atomic():
            sql.events_append(
                match,
                _events(match, users["north"], [{"buyer": "E", "price": 2}]),
                match_values={"version": match.version + 1},
                projection_values=values,
                patches=patches,
            )

    assert MatchProjection.objects.get(pk=ours.pk).snapshot == snapshot
    assert _without_ids(fields(MatchProjection.objects.get(pk=ours.pk))) == _without_ids(
        fields(MatchProjection.objects.get(pk=theirs.pk))
    )


def test_a_patch_path_is_plain_keys_only(users):
    ours, _ = _twin_matches(users)
    with pytest.raises(ValueError), transaction.atomic():
        sql.events_append(
            ours,
            _events(ours, users["north"], [{"buyer": "E", "price": 2}]),
            match_values={"version": ours.version + 1},
            projection_values={"snapshot": {}},
            patches={"snapshot": (("deal'", "plays"), [])},
        )


def test_the_append_without_a_projection_leaves_it_to_the_caller(users):
    ours, _ = _twin_matches(users)
    before = fields(MatchProjection.objects.get(pk=ours.pk))

    with transaction.atomic():
        sql.events_append(
            ours,
            _events(ours, users["north"], [{"buyer": "E", "price": 2}]),
            match_values={"version": ours.version + 1},
            projection_values=None,
        )

    assert Match.objects.get(pk=ours.pk).version == ours.version + 1
    assert fields(MatchProjection.objects.get(pk=ours.pk)) == before


def test_an_append_of_a_seq_taken_writes_nothing_of_its_statement(users):
    ours, _ = _twin_matches(users)
    with transaction.atomic():
        sql.events_append(
            ours,
            _events(ours, users["north"], [{"buyer": "E", "price": 2}]),
            match_values={"version": ours.version + 1},
            projection_values={"version": ours.version + 1},
        )
    taken = _events(ours, users["north"], [{"buyer": "W", "price": 3}])  # seq version+1 again

    with pytest.raises(IntegrityError), transaction.atomic():
        sql.events_append(
            ours,
            taken,
            match_values={"version": 99, "status": Match.Status.ABANDONED},
            projection_values={"version": 99},
        )

    match = Match.objects.select_related("projection").get(pk=ours.pk)
    assert (match.version, match.status, match.projection.version) == (
        ours.version + 1,
        "in_progress",
        ours.version + 1,
    )
    assert MatchEvent.objects.filter(match=ours).count() == 2


def test_the_notification_rides_in_the_append_statement_on_postgresql_only(users, settings):
    ours, _ = _twin_matches(users)
    notice = live.moved_notice(ours)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        if connection.vendor == "postgresql":
            assert notice is not None
            sql.events_append(
                ours,
                _events(ours, users["north"], [{"buyer": "E", "price": 2}]),
                match_values={"version": ours.version + 1},
                projection_values={"version": ours.version + 1},
                notify=notice,
            )
            assert "pg_notify" in queries.captured_queries[-1]["sql"]
        else:
            assert notice is None
            with pytest.raises(ValueError):
                sql.events_append(
                    ours,
                    _events(ours, users["north"], [{}]),
                    match_values={},
                    projection_values=None,
                    notify=("kierki_live", "x"),
                )


# --- the append without the lock (PostgreSQL) ------------------------------------------------------


def _checked(match: Match) -> dict:
    return {name: getattr(match, Match._meta.get_field(name).attname) for name in fastplay.DECIDED_BY}


def _append_unlocked(match: Match, actor, *, head: str, checked: dict | None = None, notify=None) -> bool:
    events = _events(match, actor, [{"buyer": "E", "price": 2}])
    return sql.events_append_unlocked(
        match,
        events,
        head=head,
        checked=_checked(match) if checked is None else checked,
        match_values={"version": match.version + 1},
        projection_values={"version": match.version + 1, "head_hash": events[-1].hash},
        notify=notify,
    )


@pytest.mark.postgres
def test_the_unlocked_append_writes_the_rows_the_locked_append_writes(users):
    ours, theirs = _twin_matches(users)
    Match.objects.filter(pk=ours.pk).update(confirmed=True)  # not read by the decision: not checked, read back
    with transaction.atomic():
        events = _events(theirs, users["north"], [{"buyer": "E", "price": 2}])
        sql.events_append(
            theirs,
            events,
            match_values={"version": theirs.version + 1},
            projection_values={"version": theirs.version + 1, "head_hash": events[-1].hash},
        )
    Match.objects.filter(pk=theirs.pk).update(confirmed=True)
    match = Match.objects.select_related("projection").get(pk=ours.pk)
    match.confirmed = False  # as a process kept it before the column changed

    with CaptureQueriesContext(connection) as queries:
        assert _append_unlocked(match, users["north"], head=match.projection.head_hash)

    assert len(queries.captured_queries) == 1  # no lock, no transaction of its own
    assert typed(match) == typed(Match.objects.get(pk=ours.pk))  # set from the row as stored
    assert _without_ids(fields(Match.objects.get(pk=ours.pk))) | {"created_at": None} == _without_ids(
        fields(Match.objects.get(pk=theirs.pk))
    ) | {"created_at": None}
    assert _without_ids(fields(MatchProjection.objects.get(pk=ours.pk))) == _without_ids(
        fields(MatchProjection.objects.get(pk=theirs.pk))
    )
    stored = [_without_ids(fields(e)) for e in MatchEvent.objects.filter(match=ours).order_by("seq")]
    assert stored[1:] == [_without_ids(fields(e)) for e in MatchEvent.objects.filter(match=theirs).order_by("seq")][1:]


@pytest.mark.postgres
@pytest.mark.parametrize("moved", ["version", "head hash", "a checked column"])
def test_the_unlocked_append_writes_nothing_when_the_match_is_not_where_it_was(users, moved):
    ours, _ = _twin_matches(users)
    kept = Match.objects.select_related("projection").get(pk=ours.pk)
    head, checked = kept.projection.head_hash, _checked(kept)
    if moved == "version":  # another command appended meanwhile
        with transaction.atomic():
            sql.events_append(
                ours,
                _events(ours, users["north"], [{"buyer": "W", "price": 3}]),
                match_values={"version": ours.version + 1},
                projection_values={"version": ours.version + 1},
            )
    elif moved == "head hash":  # what the process kept is not the log stored (a rolled-back command)
        head = "0" * 64
    else:
        Match.objects.filter(pk=ours.pk).update(read_only=True)  # its season closed
    before = (
        list(MatchEvent.objects.filter(match=ours).values_list("seq", "hash")),
        fields(MatchProjection.objects.get(pk=ours.pk)),
        Match.objects.get(pk=ours.pk).version,
    )

    with CaptureQueriesContext(connection) as queries:
        written = _append_unlocked(kept, users["north"], head=head, checked=checked, notify=live.moved_notice(kept))

    assert written is False
    assert "pg_notify" in queries.captured_queries[-1]["sql"]  # in the statement, sent only from its match row
    after = (
        list(MatchEvent.objects.filter(match=ours).values_list("seq", "hash")),
        fields(MatchProjection.objects.get(pk=ours.pk)),
        Match.objects.get(pk=ours.pk).version,
    )
    assert after == before


# --- the match and its events since a version -----------------------------------------------------


@pytest.mark.parametrize("since", [0, 3, 5])
def test_the_match_and_its_events_since_a_version_are_read_as_the_orm_does(server_match, users, since):
    play_legal_cards(server_match, users["scorer"], 3)

    match, events = sql.match_and_events_since(server_match.pk, since)

    assert typed(match) == typed(Match.objects.get(pk=server_match.pk))
    orm = MatchEvent.objects.filter(match=server_match, seq__gt=since).order_by("seq")
    read = ("seq", "type", "payload", "hash")
    assert [{name: (type(getattr(e, name)), getattr(e, name)) for name in read} for e in events] == [
        {name: (type(getattr(e, name)), getattr(e, name)) for name in read} for e in orm
    ]
    assert len(events) == max(0, match.version - since)


def test_the_match_and_its_events_since_finds_nothing_for_an_unknown_match(db):
    assert sql.match_and_events_since(Match._meta.pk.to_python("00000000-0000-4000-8000-000000000000"), 0) == (None, [])


# --- the token with its user and player ------------------------------------------------------------


def test_the_token_query_reads_the_token_user_and_player_as_the_orm_does(users):
    for name in ("north", "stranger"):  # a player, and a user without a player profile
        key = Token.objects.create(user=users[name]).key

        ours = sql.token_with_user_and_player(Token, key)
        orm = Token.objects.select_related("user__player").get(key=key)

        assert typed(ours) == typed(orm)
        assert typed(ours.user) == typed(orm.user)
        assert hasattr(ours.user, "player") == hasattr(orm.user, "player") == (name == "north")
        if name == "north":
            assert typed(ours.user.player) == typed(orm.user.player)
            assert isinstance(ours.user.player, Player)


def test_the_token_query_finds_nothing_for_an_unknown_key(db):
    assert sql.token_with_user_and_player(Token, "0" * 40) is None


# --- the Idempotency-Key row -----------------------------------------------------------------------


def test_the_key_lookup_reads_the_row_as_the_orm_does_and_holds_the_lock(users):
    user = users["north"]
    stored = IdempotencyKey(
        user=user, key="k-1", request_hash="a" * 64, status_code=201, response={"body": {"ok": True}, "headers": {}}
    )
    with transaction.atomic():
        sql.key_store(stored)
    orm_made = IdempotencyKey.objects.create(
        user=user, key="k-2", request_hash="a" * 64, status_code=201, response={"body": {"ok": True}, "headers": {}}
    )

    with transaction.atomic():
        locked, found = sql.key_lock_and_find(12345, user.pk, "k-1")
        _, missing = sql.key_lock_and_find(12346, user.pk, "k-3")
    orm = IdempotencyKey.objects.filter(user=user, key="k-1").first()

    assert locked is True and missing is None
    assert typed(found) == typed(orm)
    assert stored.pk == orm.pk and stored._state.adding is False
    assert isinstance(stored.created_at, dt.datetime) and stored.created_at.tzinfo is not None
    assert {k: v for k, v in fields(orm).items() if k not in {"id", "key", "created_at"}} == {
        k: v for k, v in fields(orm_made).items() if k not in {"id", "key", "created_at"}
    }


def test_a_second_key_row_for_the_same_user_and_key_is_refused(users):
    row = dict(user=users["north"], key="k", request_hash="a" * 64, status_code=201, response={})
    with transaction.atomic():
        sql.key_store(IdempotencyKey(**row))

    with pytest.raises(IntegrityError), transaction.atomic():
        sql.key_store(IdempotencyKey(**row))


# --- one row's update ------------------------------------------------------------------------------


def test_the_one_row_update_writes_what_the_orm_update_writes(users):
    ours, theirs = _twin_matches(users)
    values = {"fingerprint": "e" * 64, "played_on": dt.date(2026, 3, 1), "ruleset_options": {"a": [1, "ż"]}}

    sql.update(Match, ours.pk, **values)
    Match.objects.filter(pk=theirs.pk).update(**values)

    ours_now, theirs_now = Match.objects.get(pk=ours.pk), Match.objects.get(pk=theirs.pk)
    assert {k: typed(ours_now)[k] for k in values} == {k: typed(theirs_now)[k] for k in values}
    assert typed(ours_now)["played_on"] == (dt.date, dt.date(2026, 3, 1))
