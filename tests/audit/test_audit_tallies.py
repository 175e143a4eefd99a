"""The audit of paper-sheet deals (issue 13): which entry each deal had, and the rules check
re-validating a tally or points stored in the log."""

import json

import pytest
from audit_helpers import url
from support import TALLY_EXAMPLES
from support.event_table import json_param, tamperable

from games.domain.chain import canonical_json
from games.models import MatchEvent
from games.write import services as games

pytestmark = pytest.mark.django_db


@pytest.fixture
def mixed(world):
    """tally-legal-mixed: played, tallied and points-only deals, imported by the scorer ``sam`` (staff,
    who audits it, must not be its scorer: a match's scorer is no arbiter of it)."""
    data = json.loads((TALLY_EXAMPLES / "tally-legal-mixed-m800000.record.json").read_text())
    return data, games.record_import(actor=world.users["sam"], record=data)


def test_the_audit_says_per_deal_whether_it_was_played_tallied_or_filed_by_points(mixed, clients):
    data, match = mixed

    body = clients["staff"].get(url(match.pk, "audit")).json()

    assert body["ok"] is True
    wanted = ["played" if "plays" in d else "tally" if "tally" in d else "points" for d in data["deals"]]
    assert [d["entry"] for d in body["deals"]] == wanted
    assert [d["number"] for d in body["deals"]] == list(range(1, len(data["deals"]) + 1))
    assert len(set(wanted)) == 3


def test_the_rules_check_re_validates_a_stored_tally(mixed, clients):
    """R32 again at audit time: a tally edited in the log into one no split of the deck gives."""
    _, match = mixed
    row = MatchEvent.objects.filter(match=match, type="deal_tallied", payload__entry="tally").order_by("seq").first()
    tally = {**row.payload["tally"]}
    seat = next(s for s in "NESW" if "hearts" in tally[s] and tally[s]["tricks"])
    tally[seat] = {**tally[seat], "hearts": tally[seat]["hearts"] + 1}
    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
            [canonical_json({**row.payload, "tally": tally}).decode(), row.pk],
        )

    body = clients["staff"].get(url(match.pk, "audit")).json()

    assert (body["rules"]["ok"], body["rules"]["first_bad_seq"]) == (False, row.seq)
    assert body["rules"]["error"] == {
        "code": "bad_tally",
        "deal": row.payload["number"],
        "play_index": None,
        "seat": None,
        "card": None,
    }
    assert body["chain"]["first_bad_seq"] == row.seq


def test_a_filed_deal_can_be_disputed_as_a_whole(mixed, clients):
    """Disputes number filed deals like played ones; a filed deal has no plays to point at. (Staff
    imported the match: it is its scorer.)"""
    data, match = mixed
    number = next(i for i, d in enumerate(data["deals"], 1) if "points" in d)

    whole = clients["staff"].post(
        url(match.pk, "disputes"), {"deal": number, "statement": "N wrote -130"}, format="json"
    )
    at_a_play = clients["staff"].post(
        url(match.pk, "disputes"), {"deal": number, "play_index": 0, "statement": "?"}, format="json"
    )

    assert whole.status_code == 201, whole.content
    assert at_a_play.status_code == 400 and at_a_play.json()["field"] == "play_index"
