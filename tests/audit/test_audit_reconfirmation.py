"""A confirmation signs one result (issue 30, finding 4): a ruling or a filing that changes a
confirmed result voids the signatures on it, the match awaits confirmation again and leaves the
standings until two seated players sign the new result."""

import datetime
import random

import pytest
from audit_helpers import PLAYERS, SEATS, dispute, filed, play_to_the_end, rule, url

from games.models import Match, MatchEvent, MatchProjection
from scoring.models import StandingRow

pytestmark = pytest.mark.django_db

T = MatchEvent.Type


def standings(world) -> list[tuple]:
    return sorted(StandingRow.objects.filter(season=world.season).values_list("player__username", "balance"))


def confirm(client, match):
    return client.post(url(match.pk, "confirmations"), {}, format="json")


def summary(match) -> dict:
    return MatchProjection.objects.get(pk=match.pk).summary


def signed_by_bartek_and_celina(world, clients, capture):
    """R29's sheet filed by seated ``ala`` (her own cards too), then signed by two other seats."""
    match = filed(world, capture, by="ala", seed=2)
    for name in ("bartek", "celina"):
        with capture(execute=True):
            assert confirm(clients[name], match).status_code == 201
    match.refresh_from_db()
    assert match.confirmed
    return match


def ruled(clients, match, body, capture):
    last = summary(match)["deals"][-1]["number"]
    raised = dispute(clients["bartek"], match.pk, {"deal": last, "statement": "misdeal"}).json()["id"]
    with capture(execute=True):
        response = rule(clients["ari"], raised, body)
    assert response.status_code == 201, response.content


def test_a_voided_deal_and_a_different_replacement_void_the_signatures_until_the_table_signs_again(
    world, clients, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    match = signed_by_bartek_and_celina(world, clients, capture)
    before = standings(world)
    assert len(before) == 4

    ruled(clients, match, {"type": "deal_voided", "reason": "misdeal"}, capture)  # R31 rulings: the deal voided
    with capture(execute=True):
        play_to_the_end(match, world.users["ala"], random.Random(11))  # the filer enters another replacement

    match.refresh_from_db()
    totals = summary(match)["totals"]
    assert match.status == Match.Status.FINISHED and not match.confirmed
    assert standings(world) == [] and standings(world) != before
    detail = clients["darek"].get(url(match.pk)).json()["confirmation"]
    assert detail["status"] == "awaiting" and detail["rule"] is None and detail["by"] == []
    season = clients["bartek"].get(f"/api/v1/seasons/{world.season.pk}/standings/").json()
    assert season["awaiting_confirmation"] == [str(match.pk)]

    for name in ("bartek", "celina"):  # the same two seats sign the new result: not "already confirmed"
        with capture(execute=True):
            response = confirm(clients[name], match)
        assert response.status_code == 201, response.content

    match.refresh_from_db()
    assert match.confirmed
    assert standings(world) == sorted((name, totals[seat]) for seat, name in zip(SEATS, PLAYERS))
    detail = clients["darek"].get(url(match.pk)).json()["confirmation"]
    assert detail["status"] == "confirmed" and detail["rule"] == "players"
    assert [(c["seat"], c["player"]) for c in detail["by"]] == [("E", "bartek"), ("S", "celina")]


def test_an_adjusted_score_voids_the_signatures_too(world, clients, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    match = signed_by_bartek_and_celina(world, clients, capture)

    ruled(
        clients, match, {"type": "score_adjusted", "points": {"N": 0, "E": 0, "S": 0, "W": 0}, "reason": "x"}, capture
    )

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.confirmed
    assert standings(world) == []


def test_a_ruling_that_changes_nothing_keeps_the_signatures(world, clients, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    match = signed_by_bartek_and_celina(world, clients, capture)
    before = standings(world)

    ruled(clients, match, {"type": "no_change", "reason": "played as dealt"}, capture)

    match.refresh_from_db()
    assert match.confirmed and standings(world) == before


def test_each_signature_names_the_result_it_signs(world, clients, django_capture_on_commit_callbacks):
    match = signed_by_bartek_and_celina(world, clients, django_capture_on_commit_callbacks)

    from games.domain.confirmation import result_digest

    signed = MatchEvent.objects.filter(match=match, type=T.RESULT_CONFIRMED).values_list("payload", flat=True)

    assert {payload["result"] for payload in signed} == {result_digest(summary(match)["deals"])}


def test_signatures_stored_before_they_named_a_result_are_voided_by_a_change_too(
    world, clients, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    match = signed_by_bartek_and_celina(world, clients, capture)
    projection = MatchProjection.objects.get(pk=match.pk)  # the read model as an older release stored it
    projection.summary["confirmations"] = [
        {k: v for k, v in c.items() if k != "result"} for c in projection.summary["confirmations"]
    ]
    projection.save()

    ruled(
        clients, match, {"type": "score_adjusted", "points": {"N": 0, "E": 0, "S": 0, "W": 0}, "reason": "x"}, capture
    )

    match.refresh_from_db()
    assert not match.confirmed and standings(world) == []


def test_a_rebuild_counts_an_old_signature_only_if_no_change_of_the_result_followed_it():
    from types import SimpleNamespace

    from games.domain.confirmation import signed_now
    from games.domain.projections import sign_offs_of

    def row(seq, type, payload):
        return SimpleNamespace(
            seq=seq, type=type, payload=payload, created_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
        )

    signed = [
        row(200, T.RESULT_CONFIRMED, {"seat": "E", "by": "bartek"}),
        row(201, T.RESULT_CONFIRMED, {"seat": "S", "by": "celina"}),
    ]
    voided = row(
        202,
        T.RULING_RECORDED,
        {"dispute": 1, "ruling": "deal_voided", "deal": 9, "points": None, "reason": "x", "arbiter": "ari"},
    )
    kept = row(
        202,
        T.RULING_RECORDED,
        {"dispute": 1, "ruling": "no_change", "deal": 9, "points": None, "reason": "x", "arbiter": "ari"},
    )

    assert len(signed_now({"deals": [], **sign_offs_of([*signed, kept])})) == 2
    assert signed_now({"deals": [], **sign_offs_of([*signed, voided])}) == []
