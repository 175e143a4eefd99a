"""Disputes and rulings: who raises and who rules, rulings as events in the log, their effect on
the summary and the read models, and how a later ruling supersedes an earlier one."""

import pytest
from audit_helpers import (
    PROBLEM,
    SEATS,
    dispute,
    play_next_deal,
    play_to_the_end,
    played_out,
    rule,
    simulated,
    url,
    with_audit_people,
)
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import TestCase
from support.once import fresh, fresh_world, once_per_module
from support.world import build_world

from games.domain.signals import match_result_changed
from games.models import DealScore, Dispute, Match, MatchEvent, MatchProjection, Player
from games.read import audit

pytestmark = pytest.mark.django_db

T = MatchEvent.Type
ADJUSTED = {"N": -100, "E": 0, "S": 0, "W": 0}


def build():
    """The audit's world and one finished match in it, built once for the module (support.once):
    each test raises disputes and rules on it, rolled back after it."""
    world = with_audit_people(build_world(get_user_model()))
    return world, played_out(world, TestCase.captureOnCommitCallbacks, seed=1)


built = once_per_module(build)


@pytest.fixture
def world(built):
    return fresh_world(built[0])


@pytest.fixture
def finished(built):
    return fresh(built[1])


@pytest.fixture
def last_deal(finished):
    return len(MatchProjection.objects.get(pk=finished.pk).summary["deals"])


def raised(client, match, deal, **extra) -> int:
    response = dispute(client, match.pk, {"deal": deal, "statement": "The last trick was miscounted.", **extra})
    assert response.status_code == 201, response.content
    return response.json()["id"]


def summary(match) -> dict:
    return MatchProjection.objects.get(pk=match.pk).summary


def read_models(match) -> dict:
    projection = MatchProjection.objects.get(pk=match.pk)
    return {
        "projection": (projection.version, projection.head_hash, projection.snapshot, projection.summary),
        "scores": list(
            DealScore.objects.filter(match=match)
            .order_by("number", "seat")
            .values_list("number", "seat", "points", "kreski", "tricks")
        ),
        "match": Match.objects.filter(pk=match.pk).values_list("version", "status").get(),
    }


# --- raising disputes -------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["ala", "darek", "sam"])
def test_a_seated_player_or_the_scorer_raises_a_dispute(finished, clients, who):
    response = dispute(clients[who], finished.pk, {"deal": 2, "play_index": 17, "statement": "W revoked."})

    assert response.status_code == 201, response.content
    body = response.json()
    assert {k: body[k] for k in ("deal", "play_index", "statement", "raised_by", "status", "ruling", "rulings")} == {
        "deal": 2,
        "play_index": 17,
        "statement": "W revoked.",
        "raised_by": who,
        "status": "open",
        "ruling": None,
        "rulings": [],
    }
    assert Match.objects.get(pk=finished.pk).version == finished.version  # a dispute is no event


@pytest.mark.parametrize("who", ["ari", "ada", "staff"])
def test_the_clubs_arbiters_admins_and_staff_raise_one_too(finished, clients, who):
    assert dispute(clients[who], finished.pk, {"deal": 1, "statement": "?"}).status_code == 201  # issue 14.4


@pytest.mark.parametrize("who", ["member", "rival", "outsider"])
def test_nobody_else_raises_one(finished, clients, who):
    assert dispute(clients[who], finished.pk, {"deal": 1, "statement": "?"}).status_code == 404
    assert not Dispute.objects.exists()


@pytest.mark.parametrize(
    "body, field",
    [
        ({"deal": 0, "statement": "x"}, "deal"),
        ({"deal": 99, "statement": "x"}, "deal"),
        ({"deal": 1, "play_index": 52, "statement": "x"}, "play_index"),
        ({"deal": 1, "statement": ""}, "statement"),
        ({"statement": "x"}, "deal"),
    ],
)
def test_a_dispute_names_a_dealt_deal_and_one_of_its_plays(finished, clients, body, field):
    response = dispute(clients["ala"], finished.pk, body)

    assert response.status_code == 400 and response.json()["field"] == field


def test_disputes_are_listed_per_match_and_per_club_for_its_arbiters(finished, clients, world):
    first, second = raised(clients["ala"], finished, 1), raised(clients["sam"], finished, 2)

    per_match = clients["bartek"].get(url(finished.pk, "disputes")).json()
    per_club = clients["ari"].get("/api/v1/disputes/", {"club": world.club.pk}).json()
    mine = clients["ari"].get("/api/v1/disputes/").json()

    assert [d["id"] for d in per_match] == [second, first]
    assert [d["id"] for d in per_club["results"]] == [second, first] == [d["id"] for d in mine["results"]]
    assert clients["ari"].get("/api/v1/disputes/", {"club": world.club.pk, "status": "ruled"}).json()["count"] == 0
    assert clients["rival"].get("/api/v1/disputes/").json()["count"] == 0
    assert clients["rival"].get("/api/v1/disputes/", {"club": world.club.pk}).status_code == 403
    assert clients["member"].get("/api/v1/disputes/", {"club": world.club.pk}).status_code == 403
    assert clients["staff"].get("/api/v1/disputes/", {"club": world.club.pk}).json()["count"] == 2
    assert clients["outsider"].get(url(finished.pk, "disputes")).status_code == 404
    assert clients["ari"].get(f"/api/v1/disputes/{first}/").json()["raised_by"] == "ala"
    assert clients["rival"].get(f"/api/v1/disputes/{first}/").status_code == 404


# --- rulings: who -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "who, status", [("ala", 403), ("sam", 403), ("rival", 404), ("member", 404), ("outsider", 404)]
)
def test_only_the_clubs_arbiters_and_staff_rule(finished, clients, who, status):
    dispute_id = raised(clients["ala"], finished, 1)

    response = rule(clients[who], dispute_id, {"type": "no_change", "reason": "legal"})

    assert response.status_code == status and response["Content-Type"] == PROBLEM
    assert not MatchEvent.objects.filter(type=T.RULING_RECORDED).exists()


def test_no_change_is_an_event_signed_by_the_arbiter_and_changes_nothing_else(finished, clients, last_deal):
    dispute_id = raised(clients["ala"], finished, last_deal)
    before = read_models(finished)

    response = rule(clients["ari"], dispute_id, {"type": "no_change", "reason": "The trick was counted right."})

    assert response.status_code == 201, response.content
    body = response.json()
    event = MatchEvent.objects.get(match=finished, type=T.RULING_RECORDED)
    assert event.seq == finished.version + 1 and event.actor.username == "ari"
    assert event.actor_name == Player.objects.get(username="ari").public_id  # hashed: an id, not the name
    assert event.payload == {
        "dispute": dispute_id,
        "ruling": "no_change",
        "deal": last_deal,
        "points": None,
        "reason": "The trick was counted right.",
        "arbiter": Player.objects.get(username="ari").public_id,  # the log names people by id (issue 28)
        "v": 2,
    }
    assert body["version"] == event.seq and body["status"] == "finished" and response["ETag"] == f'"{event.seq}"'
    assert body["dispute"]["status"] == "ruled" and body["dispute"]["ruling"]["seq"] == event.seq
    after = read_models(finished)
    assert after["scores"] == before["scores"]
    assert summary(finished)["totals"] == before["projection"][3]["totals"]
    assert summary(finished)["rulings"][0]["superseded_by"] is None
    assert audit.audit_failures(finished) == []


def test_staff_may_rule_on_a_match_outside_any_season(world, clients, rng):
    from games.write import services as games

    match = games.match_create(
        actor=world.users["sam"],
        seats=dict(zip(SEATS, ("ala", "bartek", "celina", "darek"))),
        first_dealer="N",
        dealing="recorded",
        ruleset={"options": {"regular_deals": ["R"]}},
    )
    play_next_deal(match, world.users["sam"], rng)
    dispute_id = raised(clients["ala"], match, 1)

    assert rule(clients["ari"], dispute_id, {"type": "no_change", "reason": "x"}).status_code == 404
    assert rule(clients["staff"], dispute_id, {"type": "no_change", "reason": "x"}).status_code == 201


@pytest.mark.parametrize(
    "body, field",
    [
        ({"type": "no_change"}, "reason"),
        ({"type": "no_change", "reason": "   "}, "reason"),
        ({"type": "pardon", "reason": "x"}, "type"),
        ({"type": "score_adjusted", "reason": "x"}, "points"),
        ({"type": "score_adjusted", "reason": "x", "points": {"N": 1}}, "points"),
        ({"type": "no_change", "reason": "x", "points": ADJUSTED}, "points"),
        ({"type": "score_adjusted", "reason": "x", "override": "o", "points": {**ADJUSTED, "N": 10**11}}, "points"),
    ],
)
def test_a_ruling_is_checked_before_anything_is_stored(finished, clients, body, field):
    dispute_id = raised(clients["ala"], finished, 1)

    response = rule(clients["ari"], dispute_id, body)

    assert response.status_code == 400 and response.json()["field"].startswith(field)
    assert Match.objects.get(pk=finished.pk).version == finished.version


def test_a_stale_if_match_stores_nothing(finished, clients):
    dispute_id = raised(clients["ala"], finished, 1)

    response = rule(
        clients["ari"], dispute_id, {"type": "no_change", "reason": "x"}, **{"If-Match": f'"{finished.version - 1}"'}
    )

    assert response.status_code == 412 and response.json()["current_version"] == finished.version


def test_a_stale_ruling_by_a_non_arbiter_is_refused_for_his_role_as_in_v1(finished, clients):
    """v1 1.0.0 answered 403; the version is a precondition, ignored when the request would fail
    without it (RFC 9110 §13.2.1): 403, not 412 (issue 29, item 7)."""
    dispute_id = raised(clients["ala"], finished, 1)

    response = rule(
        clients["ala"], dispute_id, {"type": "no_change", "reason": "x"}, **{"If-Match": f'"{finished.version - 1}"'}
    )

    assert response.status_code == 403 and response.json()["code"] == "not_allowed"
    assert Match.objects.get(pk=finished.pk).version == finished.version


# --- score_adjusted ---------------------------------------------------------------------------------------


def test_an_adjusted_score_counts_while_the_played_result_stays_visible(
    finished, clients, django_capture_on_commit_callbacks
):
    played = summary(finished)["deals"][0]
    totals = summary(finished)["totals"]
    dispute_id = raised(clients["ala"], finished, 1)
    sent = []
    match_result_changed.connect(receiver := lambda **kw: sent.append(kw["status"]), weak=False)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = rule(
                clients["ari"],
                dispute_id,
                {"type": "score_adjusted", "points": ADJUSTED, "reason": "N revoked in trick 5."},
            )
    finally:
        match_result_changed.disconnect(receiver)

    assert response.status_code == 201, response.content
    deal = summary(finished)["deals"][0]
    assert deal["points"] == played["points"] and deal["adjusted_points"] == ADJUSTED
    assert summary(finished)["totals"] == {s: totals[s] - played["points"][s] + ADJUSTED[s] for s in SEATS}
    assert dict(DealScore.objects.filter(match=finished, number=1).values_list("seat", "points")) == ADJUSTED
    assert sent == ["finished"]
    detail = clients["ala"].get(url(finished.pk)).json()
    assert detail["deals"][0]["adjusted_points"] == ADJUSTED and detail["totals"] == summary(finished)["totals"]
    assert detail["rulings"][0]["ruling"] == "score_adjusted" and detail["rulings"][0]["arbiter"] == "ari"


def test_a_later_ruling_supersedes_an_earlier_one_on_the_same_dispute(finished, clients):
    dispute_id = raised(clients["ala"], finished, 1)
    first = rule(clients["ari"], dispute_id, {"type": "no_change", "reason": "legal"}).json()
    second = rule(
        clients["staff"], dispute_id, {"type": "score_adjusted", "points": ADJUSTED, "reason": "on review: a revoke"}
    ).json()
    third = rule(
        clients["ari"], dispute_id, {"type": "score_adjusted", "points": {**ADJUSTED, "N": -50}, "reason": "halved"}
    ).json()

    rulings = summary(finished)["rulings"]
    assert [r["superseded_by"] for r in rulings] == [second["version"], third["version"], None]
    assert third["dispute"]["ruling"]["points"]["N"] == -50 and len(third["dispute"]["rulings"]) == 3
    assert summary(finished)["deals"][0]["adjusted_points"]["N"] == -50
    assert first["dispute"]["ruling_seq"] == first["version"]

    back = rule(clients["ari"], dispute_id, {"type": "no_change", "reason": "undo"})
    assert back.status_code == 422 and back.json()["code"] == "ruling_not_allowed"


def test_rulings_replay_from_the_log_alone(finished, clients, last_deal):
    rule(
        clients["ari"],
        raised(clients["ala"], finished, 1),
        {"type": "score_adjusted", "points": ADJUSTED, "reason": "x"},
    )
    rule(clients["ari"], raised(clients["bartek"], finished, last_deal), {"type": "deal_voided", "reason": "y"})
    live = read_models(finished)

    call_command("rebuild_projections", "--match", str(finished.pk), stdout=open("/dev/null", "w"))

    assert read_models(finished) == live
    assert audit.rules_check(finished).ok and audit.chain_check(finished).ok


# --- deal_voided ------------------------------------------------------------------------------------------


def test_voiding_the_last_deal_reopens_the_match_for_a_replacement_of_the_same_deal(
    finished, clients, last_deal, world, rng, django_capture_on_commit_callbacks
):
    voided = summary(finished)["deals"][-1]
    totals = summary(finished)["totals"]
    dispute_id = raised(clients["celina"], finished, last_deal)
    sent = []
    match_result_changed.connect(receiver := lambda **kw: sent.append(kw["status"]), weak=False)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = rule(clients["ari"], dispute_id, {"type": "deal_voided", "reason": "misdeal"})
    finally:
        match_result_changed.disconnect(receiver)

    assert response.status_code == 201, response.content
    assert response.json()["status"] == "in_progress" and sent == ["in_progress"]
    assert Match.objects.get(pk=finished.pk).status == Match.Status.IN_PROGRESS
    after = summary(finished)
    assert after["deals"][-1]["voided"] is True and after["deals"][-1]["points"] == voided["points"]
    assert after["totals"] == {s: totals[s] - voided["points"][s] for s in SEATS}
    assert not after["complete"] and after["winners"] == []
    assert after["next_deal"] == {
        "number": last_deal + 1,
        "kind": voided["kind"],
        "dealer": voided["dealer"],
        "leader": voided["leader"] if not voided["compensating"] else after["next_deal"]["leader"],
        "compensating": False,
    }
    assert not DealScore.objects.filter(match=finished, number=last_deal).exists()

    play_to_the_end(finished, world.users["sam"], rng)  # the replacement (and what it makes due)

    finished.refresh_from_db()
    assert finished.status == Match.Status.FINISHED
    assert DealScore.objects.filter(match=finished, number=last_deal + 1).count() == 4
    assert audit.audit_failures(finished) == []


def test_only_the_latest_finished_deal_can_be_voided_and_only_before_the_next_starts(season_match, clients, world):
    match = season_match(deals=1)
    first = raised(clients["ala"], match, 1)
    from games.write import services as games

    games.deal_start(match_id=match.pk, actor=world.users["sam"], hands=simulated(1)["deals"][1]["hands"])
    in_play = raised(clients["ala"], match, 2)

    for dispute_id in (first, in_play):
        response = rule(clients["ari"], dispute_id, {"type": "deal_voided", "reason": "x"})
        assert response.status_code == 422, response.content
        assert response.json()["code"] == "ruling_not_allowed" and response.json()["rule"] == "R7"
    adjust = rule(clients["ari"], in_play, {"type": "score_adjusted", "points": ADJUSTED, "reason": "x"})
    assert adjust.status_code == 422
    assert rule(clients["ari"], in_play, {"type": "no_change", "reason": "x"}).status_code == 201


def test_a_voided_deal_stays_voided(finished, clients, last_deal):
    dispute_id = raised(clients["ala"], finished, last_deal)
    other = raised(clients["bartek"], finished, last_deal)
    assert rule(clients["ari"], dispute_id, {"type": "deal_voided", "reason": "misdeal"}).status_code == 201

    for body in (
        {"type": "no_change", "reason": "x"},
        {"type": "deal_voided", "reason": "x"},
        {"type": "score_adjusted", "points": ADJUSTED, "reason": "x"},
    ):
        response = rule(clients["ari"], dispute_id, body)
        assert response.status_code == 422 and response.json()["code"] == "ruling_not_allowed"
    assert rule(clients["ari"], other, {"type": "score_adjusted", "points": ADJUSTED, "reason": "x"}).status_code == 422
    assert rule(clients["ari"], other, {"type": "no_change", "reason": "x"}).status_code == 201


def test_a_deal_of_an_abandoned_match_is_not_voided_but_may_be_adjusted(season_match, clients, world):
    from games.write import services as games

    match = season_match(deals=1)
    games.match_abandon(match_id=match.pk, actor=world.users["ala"])
    dispute_id = raised(clients["ala"], match, 1)

    assert rule(clients["ari"], dispute_id, {"type": "deal_voided", "reason": "x"}).status_code == 422
    assert (
        rule(clients["ari"], dispute_id, {"type": "score_adjusted", "points": ADJUSTED, "reason": "x"}).json()["status"]
        == "abandoned"
    )


def test_a_ruling_retried_with_its_idempotency_key_is_recorded_once(finished, clients):
    dispute_id = raised(clients["ala"], finished, 1)
    body = {"type": "no_change", "reason": "legal"}

    first = rule(clients["ari"], dispute_id, body, **{"Idempotency-Key": "r-1"})
    again = rule(clients["ari"], dispute_id, body, **{"Idempotency-Key": "r-1"})

    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert MatchEvent.objects.filter(type=T.RULING_RECORDED).count() == 1
