"""Standings are recomputed after a ruling (scoring listens to match_result_changed): an adjusted
score and a voided deal show in the season's lines and standings."""

import pytest
from audit_helpers import PLAYERS, SEATS, dispute, play_to_the_end, rule

from games.models import DealScore, Match, MatchProjection
from scoring.models import MatchLine, StandingRow

pytestmark = pytest.mark.django_db

ADJUSTED = {"N": -300, "E": 0, "S": 0, "W": 0}


def lines(match) -> dict:
    return {
        seat: (total, deals)
        for seat, total, deals in MatchLine.objects.filter(season_match__match=match).values_list(
            "seat", "total", "deals"
        )
    }


def balances(season) -> dict:
    return dict(StandingRow.objects.filter(season=season).values_list("player__username", "balance"))


def summary(match) -> dict:
    return MatchProjection.objects.get(pk=match.pk).summary


def ruled(clients, match, deal, body, capture) -> dict:
    raised = dispute(clients["ala"], match.pk, {"deal": deal, "statement": "disputed"}).json()["id"]
    with capture(execute=True):
        response = rule(clients["ari"], raised, body)
    assert response.status_code == 201, response.content
    return response.json()


def test_an_adjusted_score_is_in_the_standings(season_match, clients, world, django_capture_on_commit_callbacks):
    match = season_match(seed=2)
    counted = len(summary(match)["deals"])
    assert balances(world.season) == dict(zip(PLAYERS, (summary(match)["totals"][s] for s in SEATS)))

    ruled(
        clients,
        match,
        1,
        {"type": "score_adjusted", "points": ADJUSTED, "reason": "revoke"},
        django_capture_on_commit_callbacks,
    )

    totals = summary(match)["totals"]
    assert lines(match) == {seat: (totals[seat], counted) for seat in SEATS}
    assert balances(world.season) == dict(zip(PLAYERS, (totals[s] for s in SEATS)))


def test_a_voided_deal_leaves_the_standings_once_its_replacement_is_played(
    season_match, clients, world, rng, django_capture_on_commit_callbacks
):
    match = season_match(seed=2)
    last = summary(match)["deals"][-1]
    ruled(
        clients, match, last["number"], {"type": "deal_voided", "reason": "misdeal"}, django_capture_on_commit_callbacks
    )
    assert Match.objects.get(pk=match.pk).status == Match.Status.IN_PROGRESS

    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(match, world.users["sam"], rng)

    final = summary(match)
    counted = [d for d in final["deals"] if not d.get("voided")]
    assert final["complete"] and [d["number"] for d in final["deals"] if d.get("voided")] == [last["number"]]
    assert {s: sum(d.get("adjusted_points", d["points"])[s] for d in counted) for s in SEATS} == final["totals"]
    assert lines(match) == {seat: (final["totals"][seat], len(counted)) for seat in SEATS}
    assert balances(world.season) == dict(zip(PLAYERS, (final["totals"][s] for s in SEATS)))
    assert not DealScore.objects.filter(match=match, number=last["number"]).exists()


def test_a_reopened_match_counts_for_nothing_until_it_finishes_again(
    season_match, clients, world, django_capture_on_commit_callbacks
):
    match = season_match(seed=2)
    ruled(
        clients,
        match,
        summary(match)["deals"][-1]["number"],
        {"type": "deal_voided", "reason": "misdeal"},
        django_capture_on_commit_callbacks,
    )

    assert lines(match) == {}
