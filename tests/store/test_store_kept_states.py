"""The engine states kept between commands (games/write/states.py, the aggregate cache): a command that
finds its match's projection as this process left it uses the kept state and gets no JSON from
the database; every kept state is the one a restore of the stored snapshot gives; anything else
(another process moved the match, a command rolled back, nothing kept) reads and restores."""

import pytest
from django.db import connection, transaction
from store_helpers import legal_play, play_legal_cards, state_of

from games import sql
from games.domain.exceptions import MatchReadOnly
from games.engine.match import snapshot
from games.models import Match, MatchProjection
from games.read import audit
from games.write import services, states

pytestmark = pytest.mark.django_db


def test_every_kept_state_is_the_one_the_stored_snapshot_restores_to(server_match, users):
    scorer = users["scorer"]
    for _ in range(60):  # past the end of the first deal, into the second
        if state_of(server_match).deal is None:
            services.deal_start(match_id=server_match.pk, actor=scorer)
        else:
            play_legal_cards(server_match, scorer, 1)
        stored = MatchProjection.objects.get(pk=server_match.pk)
        kept = states.known(server_match.pk)
        assert kept == (stored.version, stored.head_hash)
        with transaction.atomic():
            locked = sql.match_lock(server_match.pk, known=kept)
            projection = locked.projection
            assert projection.get_deferred_fields() == {"snapshot", "summary"}  # not sent
            state = states.kept_state(projection)
        assert snapshot(state) == stored.snapshot == projection.snapshot
        assert projection.summary == stored.summary
        assert state.results == state_of(server_match).results
        assert all(result.final is None for result in state.results)  # as restored


def test_a_command_on_a_match_as_this_process_left_it_restores_nothing(server_match, users, monkeypatch):
    play_legal_cards(server_match, users["scorer"], 1)
    seat, card = legal_play(server_match)
    monkeypatch.setattr(services, "restore", lambda snapshot: pytest.fail("restored the snapshot"))

    result = services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)

    assert states.known(server_match.pk) == (result.match.version, result.match.projection.head_hash)
    assert snapshot(result.state) == MatchProjection.objects.get(pk=server_match.pk).snapshot


@pytest.mark.parametrize("how", ["forgotten", "moved elsewhere"])
def test_a_match_not_as_kept_is_read_and_restored(server_match, users, how):
    play_legal_cards(server_match, users["scorer"], 2)
    if how == "forgotten":
        states.forget_all()
    else:  # another process appended: what this one keeps is a version behind
        behind = MatchProjection.objects.get(pk=server_match.pk)
        play_legal_cards(server_match, users["scorer"], 1)
        states.keep(behind, state_of(server_match))

    with transaction.atomic():
        locked = sql.match_lock(server_match.pk, known=states.known(server_match.pk))
        assert locked.projection.get_deferred_fields() == set()
        assert states.kept_state(locked.projection) is None
    seat, card = legal_play(server_match)
    result = services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)
    assert snapshot(result.state) == MatchProjection.objects.get(pk=server_match.pk).snapshot


def test_a_rolled_back_command_leaves_a_key_that_matches_nothing_stored(server_match, users):
    play_legal_cards(server_match, users["scorer"], 1)
    before = MatchProjection.objects.get(pk=server_match.pk)
    seat, card = legal_play(server_match)

    with pytest.raises(RuntimeError), transaction.atomic():
        services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)
        raise RuntimeError("the caller's transaction fails after the command")

    assert states.known(server_match.pk) != (before.version, before.head_hash)  # kept: what was rolled back
    with transaction.atomic():
        locked = sql.match_lock(server_match.pk, known=states.known(server_match.pk))
        assert locked.projection.get_deferred_fields() == set()  # so the stored one is read whole
    result = services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)
    assert result.match.version == before.version + 1


def test_a_play_decided_on_a_kept_match_that_is_not_the_stored_log_writes_nothing_and_locks(
    server_match, users, monkeypatch
):
    """The optimistic branch (docs/card-play.md) decides on what this process kept. Here that is
    a play rolled back, while another process made the same play at the same version: the same
    state, another log (each event's time is hashed). The next play, decided on what was kept,
    is legal on both, but its statement checks the head hash: it writes nothing, and the play is
    decided again on the match locked, chained on what is stored."""
    scorer = users["scorer"]
    play_legal_cards(server_match, scorer, 1)
    seat, card = legal_play(server_match)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.card_play(match_id=server_match.pk, actor=scorer, card=card, seat=seat)
        raise RuntimeError("the caller's transaction fails after the command")
    match, kept = states.kept_match(server_match.pk)  # the rolled-back play
    services.card_play(match_id=server_match.pk, actor=scorer, card=card, seat=seat)  # "another process"
    states.keep(match.projection, kept, match)  # this process still holds the rolled-back one
    assert snapshot(kept) == MatchProjection.objects.get(pk=server_match.pk).snapshot
    seat, card = legal_play(server_match)
    written, unlocked = [], sql.events_append_unlocked

    def spied(*args, **kwargs):
        written.append(unlocked(*args, **kwargs))
        return written[-1]

    monkeypatch.setattr(sql, "events_append_unlocked", spied)
    result = services.card_play(match_id=server_match.pk, actor=scorer, card=card, seat=seat)

    assert written == ([False] if connection.vendor == "postgresql" else [])  # decided unlocked, not written
    events = list(server_match.events.order_by("seq"))
    assert result.match.version == events[-1].seq and events[-1].payload["card"] == card
    assert result.events[0].hash == events[-1].hash
    assert audit.chain_check(server_match).ok and audit.rules_check(server_match).ok
    assert snapshot(result.state) == MatchProjection.objects.get(pk=server_match.pk).snapshot
    assert states.known(server_match.pk) == (result.match.version, result.match.projection.head_hash)


def test_a_play_on_a_kept_match_whose_season_closed_meanwhile_is_refused_under_the_lock(server_match, users):
    """Closing a season marks its matches read-only without moving their version: the kept row
    still says open, so the play is decided on it — and the statement, which checks the column,
    writes nothing; the locked line refuses it: a closed season takes no command."""
    play_legal_cards(server_match, users["scorer"], 1)
    Match.objects.filter(pk=server_match.pk).update(read_only=True)  # as scoring's season close does
    seat, card = legal_play(server_match)
    before = MatchProjection.objects.get(pk=server_match.pk).version

    with pytest.raises(MatchReadOnly):
        services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)

    assert MatchProjection.objects.get(pk=server_match.pk).version == before
    assert server_match.events.count() == before


def _spied(monkeypatch, name: str) -> list:
    """What each call of ``sql.<name>`` returned (or that it was called), in order."""
    calls, real = [], getattr(sql, name)

    def spied(*args, **kwargs):
        calls.append(real(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(sql, name, spied)
    return calls


def _behind(server_match, scorer, kept_after: int, then) -> None:
    """This process keeps the match ``kept_after`` card plays in; meanwhile ``then()`` moves it, as
    another process would (this one's kept match and state stay where they were)."""
    play_legal_cards(server_match, scorer, kept_after)
    match, kept = states.kept_match(server_match.pk)
    then()
    states.keep(match.projection, kept, match)


def test_a_match_moved_elsewhere_by_card_plays_is_caught_up_and_played_without_the_lock(
    server_match, users, monkeypatch
):
    """A process that kept the match a few plays ago, asked for a play at the stored version (the
    client's If-Match), reads the plays stored since and applies them to what it kept (one read,
    no lock, no snapshot): the play is decided and written by the optimistic statement."""
    scorer = users["scorer"]
    _behind(server_match, scorer, 2, lambda: play_legal_cards(server_match, scorer, 3))
    version = Match.objects.get(pk=server_match.pk).version
    seat, card = legal_play(server_match)
    written, locked = _spied(monkeypatch, "events_append_unlocked"), _spied(monkeypatch, "match_lock")

    result = services.card_play(match_id=server_match.pk, actor=scorer, card=card, seat=seat, expected_version=version)

    postgresql = connection.vendor == "postgresql"
    assert (written, len(locked)) == (([True], 0) if postgresql else ([], 1))
    assert result.match.version == version + 1 and result.events[0].payload == {"seat": seat, "card": card}
    assert snapshot(result.state) == MatchProjection.objects.get(pk=server_match.pk).snapshot
    assert len(result.state.deal.plays) == 6
    assert audit.chain_check(server_match).ok and audit.rules_check(server_match).ok
    assert states.known(server_match.pk) == (result.match.version, result.match.projection.head_hash)


def test_a_match_moved_elsewhere_past_the_end_of_a_deal_is_not_caught_up_but_locked(server_match, users, monkeypatch):
    """Only card plays in the deal in play are caught up: a deal's end writes scores, the summary
    and the next deal, which only the locked line reads."""
    scorer = users["scorer"]

    def to_the_next_deal():
        while state_of(server_match).deal is not None:
            play_legal_cards(server_match, scorer, 1)
        services.deal_start(match_id=server_match.pk, actor=scorer)

    _behind(server_match, scorer, 1, to_the_next_deal)
    version = Match.objects.get(pk=server_match.pk).version
    seat, card = legal_play(server_match)
    written, locked = _spied(monkeypatch, "events_append_unlocked"), _spied(monkeypatch, "match_lock")

    result = services.card_play(match_id=server_match.pk, actor=scorer, card=card, seat=seat, expected_version=version)

    assert (written, len(locked)) == ([], 1)
    assert result.match.version == version + 1 and len(result.state.results) == 1
    assert snapshot(result.state) == MatchProjection.objects.get(pk=server_match.pk).snapshot
