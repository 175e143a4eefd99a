"""Replaying the stored events through the engine (audit.rules_check) and checking the deal
commitments of server-dealt matches (audit.commitments_check)."""

import pytest
from store_helpers import play_legal_cards, state_of
from support.event_table import json_param, tamperable

from games.domain.chain import canonical_json, deal_commitment
from games.models import MatchEvent
from games.read import audit
from games.write import services

pytestmark = pytest.mark.django_db

T = MatchEvent.Type


@pytest.fixture
def dealt_out(server_match, users):
    """A server-dealt match whose first deal has been played to the end."""
    play_legal_cards(server_match, users["scorer"], 52)
    return server_match


def _rewrite_payload(row: MatchEvent, payload: dict) -> None:
    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
            [canonical_json(payload).decode(), row.pk],
        )


@pytest.mark.parametrize("name", ["m5-legal", "m2-partial", "m10-legal"])
def test_an_imported_record_replays_cleanly_through_the_engine(import_sample, name):
    assert audit.rules_check(import_sample(name)) == audit.RulesCheck(True)


def test_a_live_server_dealt_match_replays_cleanly_with_its_secret_hands(server_match, users):
    play_legal_cards(server_match, users["scorer"], 9)

    assert audit.rules_check(server_match).ok


def test_a_card_edited_into_the_log_is_reported_with_its_seq_and_r30_error(import_sample):
    match = import_sample("m3-partial")
    row = MatchEvent.objects.get(match=match, seq=10)  # deal 1 (dealt at seq 2), its play 7
    seat = row.payload["seat"]
    someone_elses = next(
        cards for other, cards in MatchEvent.objects.get(match=match, seq=2).payload["hands"].items() if other != seat
    )[0]
    _rewrite_payload(row, {"seat": seat, "card": someone_elses})

    checked = audit.rules_check(match)

    assert (checked.ok, checked.first_bad_seq) == (False, 10)
    assert checked.error == {
        "code": "card_not_in_hand",
        "deal": 1,
        "play_index": 7,
        "seat": seat,
        "card": someone_elses,
    }


def test_server_dealt_deals_are_committed_before_play_and_revealed_after(dealt_out):
    dealt_out.refresh_from_db()
    started = MatchEvent.objects.get(match=dealt_out, type=T.DEAL_STARTED)
    revealed = MatchEvent.objects.get(match=dealt_out, type=T.HANDS_REVEALED)

    played = MatchEvent.objects.filter(match=dealt_out, type=T.CARD_PLAYED).values_list("payload", flat=True)

    assert "hands" not in started.payload
    assert revealed.seq == dealt_out.version and revealed.payload["number"] == 1
    assert {seat: sorted(p["card"] for p in played if p["seat"] == seat) for seat in "NESW"} == {
        seat: sorted(cards) for seat, cards in revealed.payload["hands"].items()
    }
    assert deal_commitment(revealed.payload["hands"], revealed.payload["salt"]) == started.payload["commitment"]
    assert audit.commitments_check(dealt_out) == audit.CommitmentCheck(True)
    assert audit.rules_check(dealt_out).ok


def test_a_deal_still_in_play_has_nothing_to_reveal_yet(server_match):
    assert audit.commitments_check(server_match).ok


def test_a_revealed_salt_that_does_not_match_the_commitment_is_reported(dealt_out):
    revealed = MatchEvent.objects.get(match=dealt_out, type=T.HANDS_REVEALED)
    _rewrite_payload(revealed, dict(revealed.payload, salt="0" * 32))

    assert audit.commitments_check(dealt_out) == audit.CommitmentCheck(
        False, 1, "the revealed hands and salt do not hash to the published commitment"
    )


def test_revealed_hands_other_than_those_played_fail_both_checks(dealt_out):
    revealed = MatchEvent.objects.get(match=dealt_out, type=T.HANDS_REVEALED)
    hands = revealed.payload["hands"]
    _rewrite_payload(revealed, dict(revealed.payload, hands=dict(hands, N=hands["E"], E=hands["N"])))

    assert audit.commitments_check(dealt_out).first_bad_deal == 1
    checked = audit.rules_check(dealt_out)
    assert not checked.ok and checked.error["deal"] == 1


def test_a_committed_deal_followed_by_another_without_a_reveal_is_reported(dealt_out, users):
    services.deal_start(match_id=dealt_out.pk, actor=users["north"])
    revealed = MatchEvent.objects.get(match=dealt_out, type=T.HANDS_REVEALED)
    _rewrite_payload(revealed, dict(revealed.payload, number=99))

    assert audit.commitments_check(dealt_out) == audit.CommitmentCheck(
        False, 1, "the deal ended but its hands were never revealed"
    )
    assert state_of(dealt_out).deal.spec.number == 2


def test_an_event_the_engine_cannot_read_is_reported_as_malformed(import_sample):
    match = import_sample("m3-partial")
    _rewrite_payload(MatchEvent.objects.get(match=match, seq=7), {"seat": "N"})

    checked = audit.rules_check(match)

    assert (checked.ok, checked.first_bad_seq) == (False, 7)
    assert checked.error["code"] == "malformed_event" and checked.error["deal"] == 1
