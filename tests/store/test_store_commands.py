"""Match commands: all or nothing, optimistic concurrency, who may act for which seat."""

import pytest
from django.contrib.auth import get_user_model
from store_helpers import SEATED, SEATS, expected, legal_play, play_legal_cards, sample, state_of, stored_state

from games.domain.exceptions import InvalidInput, NotAllowed, NotFound, RuleBroken, VersionConflict
from games.models import DealScore, DealSecret, Match, MatchEvent, MatchProjection, Player
from games.write import commands, services

pytestmark = pytest.mark.django_db

T = MatchEvent.Type


def _everything() -> dict:
    """How many rows each table of the store holds."""
    models = (get_user_model(), Player, Match, MatchEvent, MatchProjection, DealScore, DealSecret)
    return {model.__name__: model.objects.count() for model in models}


def _someone_elses_card(match) -> tuple[str, str]:
    """(seat on turn, a card another seat holds)."""
    deal = state_of(match).deal
    return deal.to_play.name, str(deal.hand((deal.to_play + 1) % 4)[0])


# --- bad input or an illegal play stores nothing --------------------------------------------


def test_an_illegal_play_stores_nothing(server_match, users):
    before = stored_state(server_match)
    seat, card = _someone_elses_card(server_match)

    with pytest.raises(RuleBroken) as raised:
        services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)

    assert raised.value.code == "card_not_in_hand"
    assert stored_state(server_match) == before


def test_a_held_card_the_rules_forbid_stores_nothing(server_match, users):
    while True:  # play on until the seat on turn holds a card it may not play (a random deal)
        deal = state_of(server_match).deal
        forbidden = sorted(set(deal.hand(deal.to_play)) - set(deal.legal_cards(deal.to_play)))
        if forbidden:
            break
        play_legal_cards(server_match, users["scorer"], 1)
    before = stored_state(server_match)

    with pytest.raises(RuleBroken) as raised:
        services.card_play(
            match_id=server_match.pk, actor=users["scorer"], card=str(forbidden[0]), seat=deal.to_play.name
        )

    assert raised.value.code not in ("card_not_in_hand", "not_your_turn") and raised.value.rule.startswith("R")
    assert stored_state(server_match) == before


def test_a_string_that_is_not_a_card_stores_nothing(server_match, users):
    before = stored_state(server_match)

    with pytest.raises(InvalidInput):
        services.card_play(match_id=server_match.pk, actor=users["scorer"], card="1X", seat="N")

    assert stored_state(server_match) == before


def test_an_illegal_record_is_refused_with_its_first_violation_and_nothing_is_stored(users):
    before = _everything()

    with pytest.raises(RuleBroken) as raised:
        services.record_import(actor=users["scorer"], record=sample("m1-illegal"))

    assert raised.value.violation.as_json() == expected("m1-illegal")["error"]
    assert _everything() == before


class Boom(Exception):
    pass


def _fail_on_call(monkeypatch, name: str, call: int) -> None:
    """Make the unit of work's ``commands.<name>`` (else ``services.<name>``) raise on its ``call``-th call."""
    module = commands if hasattr(commands, name) else services
    real, calls = getattr(module, name), []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == call:
            raise Boom(f"{name} failed on call {call}")
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, failing)


@pytest.mark.parametrize(
    "name, call",
    [("_decide_play", 300), ("deal_score_rows", 1)],
    ids=["while-deciding-the-300th-card", "while-writing-the-read-models"],
)
def test_an_import_failing_half_way_leaves_nothing_not_even_its_guests(users, monkeypatch, name, call):
    before = _everything()
    _fail_on_call(monkeypatch, name, call)

    with pytest.raises(Boom):
        services.record_import(actor=users["scorer"], record=sample("m1-legal"))

    assert _everything() == before
    assert not Player.objects.filter(username__startswith="p1-").exists()


@pytest.mark.django_db(transaction=True)  # the command's transaction is the outermost, as in a request
def test_a_deal_ending_card_failing_while_its_scores_are_written_stores_neither_card_nor_reveal(
    server_match, users, monkeypatch
):
    play_legal_cards(server_match, users["scorer"], 51)
    before = stored_state(server_match)
    _fail_on_call(monkeypatch, "deal_score_rows", 1)
    seat, card = legal_play(server_match)

    with pytest.raises(Boom):
        services.card_play(match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat)

    assert stored_state(server_match) == before
    assert not MatchEvent.objects.filter(match=server_match, type=T.HANDS_REVEALED).exists()


# --- optimistic concurrency -----------------------------------------------------------------


def test_a_stale_expected_version_is_a_version_conflict_naming_the_current_version(server_match, users):
    before = stored_state(server_match)
    seat, card = legal_play(server_match)

    with pytest.raises(VersionConflict) as raised:
        services.card_play(
            match_id=server_match.pk,
            actor=users["scorer"],
            card=card,
            seat=seat,
            expected_version=server_match.version - 1,
        )

    assert raised.value.extra == {"current_version": server_match.version}
    assert stored_state(server_match) == before


def test_the_current_expected_version_lets_the_play_land_as_the_next_version(server_match, users):
    seat, card = legal_play(server_match)

    result = services.card_play(
        match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat, expected_version=server_match.version
    )

    assert [(e.seq, e.type, e.payload) for e in result.events] == [
        (server_match.version + 1, T.CARD_PLAYED, {"seat": seat, "card": card})
    ]
    assert Match.objects.get(pk=server_match.pk).version == server_match.version + 1


# --- who may act for which seat -------------------------------------------------------------


def _user_at(users, seat: str):
    return users[SEATED[seat]]


def test_the_player_on_turn_plays_for_his_own_seat(server_match, users):
    seat, card = legal_play(server_match)

    result = services.card_play(match_id=server_match.pk, actor=_user_at(users, seat), card=card)

    assert result.events[0].payload == {"seat": seat, "card": card}
    assert result.events[0].actor == _user_at(users, seat)


def test_a_player_may_not_act_for_another_seat(server_match, users):
    seat, card = legal_play(server_match)
    other = SEATS[(SEATS.index(seat) + 1) % 4]
    before = stored_state(server_match)

    with pytest.raises(NotAllowed):
        services.card_play(match_id=server_match.pk, actor=_user_at(users, other), card=card, seat=seat)

    assert stored_state(server_match) == before


def test_a_player_not_on_turn_playing_for_himself_breaks_the_turn_rule(server_match, users):
    seat, card = legal_play(server_match)
    other = SEATS[(SEATS.index(seat) + 1) % 4]

    with pytest.raises(RuleBroken) as raised:
        services.card_play(match_id=server_match.pk, actor=_user_at(users, other), card=card)

    assert raised.value.code == "not_your_turn"


def test_someone_not_seated_may_not_act_nor_learn_that_the_match_exists(server_match, users):
    seat, card = legal_play(server_match)

    with pytest.raises(NotFound):  # the unit of work admits only whoever may read the match
        services.card_play(match_id=server_match.pk, actor=users["stranger"], card=card, seat=seat)
    with pytest.raises(NotFound):
        services.card_play(match_id=server_match.pk, actor=users["stranger"], card=card)


@pytest.mark.parametrize("name_the_seat", [True, False])
def test_the_scorer_acts_for_whichever_seat_is_on_turn(server_match, users, name_the_seat):
    for _ in range(4):  # four different seats in a row
        seat, card = legal_play(server_match)
        result = services.card_play(
            match_id=server_match.pk, actor=users["scorer"], card=card, seat=seat if name_the_seat else None
        )
        assert result.events[0].payload == {"seat": seat, "card": card}


def test_in_a_recorded_match_only_the_scorer_enters_the_hands(users):
    match = services.match_create(actor=users["scorer"], seats=SEATED, first_dealer="E", dealing=Match.Dealing.RECORDED)
    hands = sample("m3-legal")["deals"][0]["hands"]

    with pytest.raises(NotAllowed):
        services.deal_start(match_id=match.pk, actor=users["east"], hands=hands)
    result = services.deal_start(match_id=match.pk, actor=users["scorer"], hands=hands)

    assert result.events[0].payload["hands"] == hands
    assert "commitment" not in result.events[0].payload


def test_a_server_dealt_deal_publishes_a_commitment_and_no_hands(server_match):
    started = MatchEvent.objects.get(match=server_match, type=T.DEAL_STARTED)
    secret = DealSecret.objects.get(match=server_match, number=1)

    assert sorted(started.payload) == ["commitment", "compensating", "dealer", "kind", "leader", "number"]
    assert len(started.payload["commitment"]) == 64
    assert sorted(len(cards) for cards in secret.hands.values()) == [13] * 4


@pytest.mark.postgres
def test_an_abandon_reason_postgresql_cannot_store_is_bad_input(server_match, users):
    with pytest.raises(InvalidInput):
        services.match_abandon(match_id=server_match.pk, actor=users["north"], reason="rain\x00")
