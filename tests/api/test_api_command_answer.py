"""A command's answer carries what a client needs next (issue 14): the state as the actor sees it
(whose turn, the trick so far, his legal cards when on turn), the trick its card completed with its
winner, the deal it ended — so that a client plays a card in one request."""

import pytest
from api_helpers import dealt_once, post, state
from support.world import legal_play

pytestmark = pytest.mark.django_db


built, users, dealt_match = dealt_once()  # the users and the dealt match, built once (support.once)


SEATS = {"N": "ala", "E": "bartek", "S": "celina", "W": "darek"}


def play_on_turn(clients, match_id, card=None):
    """The seat on turn plays ``card`` or its first legal card; (seat, answer)."""
    seat, first_legal = legal_play(match_id)  # from the read model: no request
    response = post(clients[SEATS[seat]], match_id, "plays", {"card": card or first_legal})
    assert response.status_code == 201, response.content
    return seat, response.json()


def test_a_card_within_a_trick_answers_the_trick_so_far_and_whose_turn_it_is(dealt_match, clients):
    seat, answer = play_on_turn(clients, dealt_match)

    assert answer["trick_completed"] is None and answer["deal_ended"] is None
    assert answer["state"] == state(clients[SEATS[seat]], dealt_match)
    assert answer["state"]["deal"]["trick"] == [{"seat": seat, "card": answer["events"][0]["payload"]["card"]}]
    assert answer["state"]["deal"]["to_play"] != seat and answer["state"]["deal"]["legal_cards"] == []


def test_the_fourth_card_answers_the_completed_trick_its_winner_and_the_winners_turn(dealt_match, clients):
    played = [play_on_turn(clients, dealt_match) for _ in range(4)]
    seat, answer = played[-1]

    trick = answer["trick_completed"]
    assert [card["seat"] for card in trick["cards"]] == [seat for seat, _ in played]
    assert answer["state"]["deal"]["to_play"] == trick["winner"]
    assert answer["state"]["deal"]["trick"] == [] and answer["state"]["deal"]["last_trick"] == trick
    assert answer["state"] == state(clients[SEATS[seat]], dealt_match)
    if trick["winner"] == seat:  # he leads again: his legal cards are in the answer
        assert answer["state"]["deal"]["legal_cards"]


def test_the_last_card_of_a_deal_answers_the_deal_ended_and_the_next_deal_due(dealt_match, clients):
    for _ in range(51):
        play_on_turn(clients, dealt_match)

    seat, answer = play_on_turn(clients, dealt_match)

    assert answer["trick_completed"]["winner"] in SEATS and len(answer["trick_completed"]["cards"]) == 4
    ended = answer["deal_ended"]
    assert ended["number"] == 1 and sum(ended["tricks"].values()) == 13
    assert answer["state"]["deal"] is None and answer["state"]["next_deal"]["number"] == 2
    assert answer["state"]["status"] == "in_progress"
    assert answer["state"] == state(clients[SEATS[seat]], dealt_match)


def test_a_deal_answers_the_dealt_state_with_the_leaders_turn(server_match, clients):
    response = post(clients["ala"], server_match, "deals")

    answer = response.json()
    assert response.status_code == 201 and answer["trick_completed"] is None and answer["deal_ended"] is None
    assert answer["state"]["deal"]["to_play"] == answer["state"]["deal"]["leader"]
    assert len(answer["state"]["deal"]["hand"]) == 13 and answer["state"]["deal"]["hands"] is None
