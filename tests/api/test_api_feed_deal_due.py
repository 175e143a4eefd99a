"""``GET /api/v1/me/stream/``'s ``deal_due`` notice (issue 29, items 2 and 7): between deals the
seat that deals next (the engine's schedule, the match's ``next_deal``) is told the deal is due;
the other seats are told nothing. The stream serves exactly these notices (``games.read.live``)."""

import pytest

from games.models import Match
from games.read import live
from games.write import services

PLAYERS = ("ala", "bartek", "celina", "darek")
SEATS = ("N", "E", "S", "W")


@pytest.fixture
def users(db, django_user_model):
    made = {name: django_user_model.objects.create_user(name) for name in PLAYERS}
    for user in made.values():
        services.player_for_user(user)
    return made


def server_match(users, first_dealer="N"):
    return services.match_create(
        actor=users["ala"],
        first_dealer=first_dealer,
        seats=dict(zip(SEATS, PLAYERS)),
        dealing=Match.Dealing.SERVER,
        ruleset={"options": {}},
    )


def notices(users, name, seen=None):
    if seen is None:
        feed = live.feed_start(user=users[name], after_id=None)
    else:
        feed = live.feed_next(user=users[name], seen=seen)
    return [(notice.type, notice.data) for notice in feed.notices]


def test_on_connecting_the_next_dealer_learns_that_his_deal_is_due(users):
    match = server_match(users, first_dealer="S")

    [(kind, data)] = notices(users, "celina")

    assert kind == "deal_due"
    assert data["match"] == match.pk and data["seat"] == "S" and data["deal"] == 1 and data["version"] == 1
    assert data["next_deal"]["dealer"] == "S" and data["next_deal"]["number"] == 1
    assert all(notices(users, name) == [] for name in ("ala", "bartek", "darek"))


def test_a_new_match_tells_its_first_dealer_the_deal_is_due(users):
    match = server_match(users)

    found = notices(users, "ala", seen={})

    assert [kind for kind, _ in found] == ["match_started", "deal_due"]
    assert found[1][1]["match"] == match.pk and found[1][1]["seat"] == "N"
    assert [kind for kind, _ in notices(users, "bartek", seen={})] == ["match_started"]


def test_once_the_deal_is_dealt_it_is_no_longer_due(users):
    match = server_match(users)
    services.deal_start(match_id=match.pk, actor=users["ala"])

    assert [kind for kind, _ in notices(users, "ala")] == []
    assert [kind for kind, _ in notices(users, "bartek")] == ["your_turn"]
