"""A match whose stored log was changed outside the service so that an event cannot be read: every
read that folds the log says so (409 ``log_unreadable`` naming the event, a Polish page), never a
500, and a command that would append on it stores nothing; the audit still finds the event."""

import random

import pytest
from audit_helpers import play_next_deal
from support.event_table import json_param, tamperable
from support.polish_check import assert_polish, page_text

from games.domain.chain import canonical_json
from games.domain.event_types import CardPlayed, DealStarted, parse
from games.models import MatchEvent
from games.write import services as games
from games.write import states

pytestmark = pytest.mark.django_db

SEATS = dict(zip("NESW", ("ala", "bartek", "celina", "darek")))


def altered(world, change) -> tuple:
    """A recorded match with 8 cards of its first deal played, ``change(row)`` of its third card
    play written behind the service's back; the row's seq."""
    match = games.match_create(
        actor=world.users["sam"],
        seats=SEATS,
        first_dealer="N",
        dealing="recorded",
        ruleset={"options": {"regular_deals": ["R"]}},
    )
    play_next_deal(match, world.users["sam"], random.Random(3), cards=8)
    row = MatchEvent.objects.filter(match=match, type="card_played").order_by("seq")[2]
    payload = change(dict(row.payload))
    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
            [canonical_json(payload).decode(), row.pk],
        )
    states.forget_all()  # the next request reads the stored rows, as another worker would
    return match, row.seq


CHANGES = {
    "an unknown key": lambda payload: {**payload, "x": 1},
    "a missing card": lambda payload: {"seat": payload["seat"]},
    "a card that is no card": lambda payload: {**payload, "card": "ZZ"},
    "a seat that is no seat": lambda payload: {**payload, "seat": "Q"},
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_the_record_export_names_the_event_it_cannot_read(world, clients, change):
    match, seq = altered(world, change)

    response = clients["sam"].get(f"/api/v1/matches/{match.pk}/record/", HTTP_ACCEPT_LANGUAGE="pl")

    assert response.status_code == 409, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert (body["code"], body["seq"]) == ("log_unreadable", seq)
    assert f"Zdarzenie {seq} (card_played)" in body["detail"]


def test_a_dispute_on_an_unreadable_log_is_refused_and_nothing_is_stored(world, clients):
    match, seq = altered(world, CHANGES["a card that is no card"])
    events = MatchEvent.objects.filter(match=match).count()

    response = clients["ala"].post(
        f"/api/v1/matches/{match.pk}/disputes/", {"deal": 1, "statement": "Rewoka"}, format="json"
    )

    assert response.status_code == 409 and response.json()["code"] == "log_unreadable"
    assert match.disputes.count() == 0 and MatchEvent.objects.filter(match=match).count() == events


def test_the_deal_page_says_in_polish_that_the_log_cannot_be_read(world, client):
    match, seq = altered(world, CHANGES["an unknown key"])
    client.force_login(world.users["sam"])

    response = client.get(f"/matches/{match.pk}/deals/1/", HTTP_ACCEPT_LANGUAGE="pl")

    assert response.status_code == 409
    text = page_text(response.content)
    assert "Zapisu partii nie da się odczytać" in text and f"Zdarzenie {seq}" in text
    assert_polish(text)


def test_the_audit_still_reports_the_event_at_its_seq(world, clients):
    match, seq = altered(world, CHANGES["a card that is no card"])

    rules = clients["staff"].get(f"/api/v1/matches/{match.pk}/audit/").json()["rules"]

    assert (rules["ok"], rules["first_bad_seq"], rules["error"]["code"]) == (False, seq, "malformed_event")
    assert rules["error"]["deal"] == 1


@pytest.mark.parametrize(
    "kind, payload",
    [
        ("card_played", {"seat": "N", "card": "1S"}),
        ("card_played", {"seat": "X", "card": "AS"}),
        (
            "deal_started",
            {
                "number": 1,
                "kind": "R",
                "dealer": "N",
                "leader": "E",
                "compensating": False,
                "hands": {"N": ["AS"], "E": ["ZZ"], "S": [], "W": []},
            },
        ),
        (
            "deal_started",
            {"number": 1, "kind": "R", "dealer": "N", "leader": "E", "compensating": False, "hands": {"N": ["AS"]}},
        ),
    ],
)
def test_a_typed_event_refuses_a_card_or_a_seat_that_does_not_exist(kind, payload):
    with pytest.raises(ValueError):
        parse(kind, payload)


def test_the_events_the_commands_write_still_read():
    assert parse("card_played", {"seat": "W", "card": "TH"}) == CardPlayed(seat="W", card="TH")
    hands = {"N": ["AS"], "E": ["2C"], "S": ["KH"], "W": ["QD"]}
    started = {"number": 1, "kind": "R", "dealer": "N", "leader": "E", "compensating": False, "hands": hands}
    assert parse("deal_started", started).hands == hands and isinstance(parse("deal_started", started), DealStarted)


def test_a_dispute_raised_on_the_page_keeps_what_was_typed_and_stores_nothing(world, client):
    match, seq = altered(world, CHANGES["a missing card"])
    client.force_login(world.users["ala"])

    response = client.post(
        f"/matches/{match.pk}/disputes/",
        {"deal": "1", "card": "", "statement": "Bartek nie dołożył kiera"},
        HTTP_ACCEPT_LANGUAGE="pl",
    )

    assert response.status_code == 409 and match.disputes.count() == 0
    html = response.content.decode()
    assert "Bartek nie dołożył kiera" in html and f"Zdarzenie {seq} (card_played)" in html


def test_under_asgi_the_page_says_the_same(world, async_client):
    from asgiref.sync import async_to_sync

    match, seq = altered(world, CHANGES["an unknown key"])
    async_client.force_login(world.users["sam"])

    response = async_to_sync(async_client.get)(f"/matches/{match.pk}/deals/1/", headers={"Accept-Language": "pl"})

    assert response.status_code == 409 and f"Zdarzenie {seq}" in page_text(response.content)
