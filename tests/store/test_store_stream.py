"""The typed stream (issue 31, item 1): every stored event read once into a ``Recorded`` with its
envelope, the fold ``apply`` exhaustive over the kinds, and the read models folded from it."""

import dataclasses
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from store_helpers import SEATS, play_legal_cards

from games.domain import event_types, projections
from games.domain.deal_log import PlayedDeal, deal_log
from games.domain.event_types import CardPlayed, DealStarted, Event, LeadOffered, MatchCreated
from games.domain.log import stream
from games.domain.offers import standing_offers
from games.domain.stream import Recorded, of_kind, stream_of
from games.engine.ruleset import RULESET_NAME, RULESET_VERSION
from games.models import MatchEvent

HANDS = {seat: [] for seat in SEATS}
RULESET = {"name": RULESET_NAME, "version": RULESET_VERSION, "options": {}}

# One event of every kind, as apply meets it.
SAMPLES = {
    "match_created": event_types.MatchCreated(
        seats=dict(zip(SEATS, "abcd")), first_dealer="N", ruleset=RULESET, dealing="recorded", scorer=None
    ),
    "deal_started": event_types.DealStarted(
        number=1, kind="no_tricks", dealer="N", leader="E", compensating=False, hands=HANDS
    ),
    "lead_offered": event_types.LeadOffered(buyer="S", price=2),
    "lead_sold": event_types.LeadSold(offer_index=0, buyer="S", price=2),
    "lead_kept": event_types.LeadKept(),
    "card_played": event_types.CardPlayed(seat="E", card="2C"),
    "hands_revealed": event_types.HandsRevealed(number=1, hands=HANDS, salt="00"),
    "match_abandoned": event_types.MatchAbandoned(reason="rain"),
    "ruling_recorded": event_types.RulingRecorded(
        dispute=1, ruling="no_change", deal=1, points=None, reason="fine", arbiter="ari"
    ),
    "result_confirmed": event_types.ResultConfirmed(seat="N", by="a"),
    "match_withdrawn": event_types.MatchWithdrawn(reason="mistake", by="ari"),
    "match_reinstated": event_types.MatchReinstated(reason="not a mistake", by="ari"),
    "deal_tallied": event_types.DealTallied(number=1, kind="no_tricks", entry="points", points=dict.fromkeys(SEATS, 0)),
    "deal_corrected": event_types.DealCorrected(
        number=1, kind="no_tricks", entry="points", points=dict.fromkeys(SEATS, 0)
    ),
}


def test_the_samples_cover_every_kind():
    assert set(SAMPLES) == set(event_types.TYPES)
    assert all(type(SAMPLES[kind]) is event_types.EVENTS.classes[kind] for kind in SAMPLES)


@pytest.mark.parametrize("kind", event_types.TYPES)
def test_apply_has_a_case_for_every_kind(kind):
    """``apply`` ends in ``assert_never``: a kind without its case raises instead of passing by."""
    state = mock.Mock(name="state")  # the engine's answers are not the point: the case is
    state.results = []
    after = projections.apply(state, SAMPLES[kind], {})
    assert after is not None


def test_a_kind_without_a_case_is_not_passed_by_silently():
    @dataclasses.dataclass(frozen=True)
    class Unheard(Event):
        TYPE = "unheard"

    with pytest.raises(AssertionError):
        projections.apply(mock.Mock(), Unheard())


def test_the_stream_reads_each_row_once_with_its_envelope(server_match, users):
    play_legal_cards(server_match, users["scorer"], 5)
    with CaptureQueriesContext(connection) as queries:
        log = stream(server_match)
    assert len(queries) == 1
    rows = list(MatchEvent.objects.filter(match=server_match).order_by("seq"))
    assert [(r.seq, r.type, r.payload, r.actor, r.recorded_at, r.hash) for r in log] == [
        (row.seq, row.type, row.payload, row.actor_name, row.created_at, row.hash) for row in rows
    ]
    assert isinstance(log[0].event, MatchCreated) and isinstance(log[1].event, DealStarted)
    assert [r.event.card for r in of_kind(log, CardPlayed)] == [row.payload["card"] for row in rows[2:]]
    assert log[-1].actor == users["scorer"].player.public_id  # the log names people by id (issue 28)


def test_the_stream_of_a_few_kinds_or_the_latest_few(server_match, users):
    play_legal_cards(server_match, users["scorer"], 6)
    every = stream(server_match)
    assert stream(server_match, CardPlayed, latest=2) == list(of_kind(every, CardPlayed))[-2:]
    assert stream(server_match, DealStarted) == list(of_kind(every, DealStarted))
    assert stream(server_match, upto=3) == every[:3]
    assert stream(server_match, LeadOffered, latest=0) == []


def test_an_exported_log_reads_into_the_same_stream(server_match, users):
    from games.read import audit

    play_legal_cards(server_match, users["scorer"], 3)
    exported = audit.audit_report(server_match)["events"]
    assert stream_of(exported) == stream(server_match)


def test_the_standing_offers_are_the_latest_offers_of_the_stream():
    offers = [Recorded(seq, event_types.LeadOffered(buyer=buyer, price=1)) for seq, buyer in ((3, "E"), (7, "S"))]
    log = [offers[0], Recorded(5, event_types.LeadKept()), offers[1], Recorded(8, event_types.CardPlayed("N", "2C"))]
    assert standing_offers(log, 1) == [offers[1]]
    assert standing_offers(log, 2) == offers
    assert standing_offers(log, 0) == []


def test_a_sale_decided_before_its_deal_goes_to_the_next_deal_dealt():
    """R28: a lead sold once a deal's cards are out belongs to the next deal (the deal log's fold)."""
    started = [
        event_types.DealStarted(number=n, kind="no_tricks", dealer="N", leader="E", compensating=False, hands=HANDS)
        for n in (1, 2)
    ]
    log = [
        Recorded(1, started[0]),
        Recorded(2, event_types.LeadSold(offer_index=0, buyer="S", price=1)),  # in deal 1, before its first card
        Recorded(3, event_types.CardPlayed("E", "2C")),
        Recorded(4, event_types.LeadSold(offer_index=0, buyer="W", price=2)),  # after a card: the next deal's
        Recorded(5, started[1]),
    ]
    deals = deal_log(log)
    assert all(isinstance(deal, PlayedDeal) for deal in deals)
    assert [(deal.number, deal.sale and deal.sale.buyer, deal.plays) for deal in deals] == [
        (1, "S", ["2C"]),
        (2, "W", []),
    ]
