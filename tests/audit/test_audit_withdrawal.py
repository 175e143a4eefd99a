"""Withdrawal (issue 13 item 5): an arbiter withdraws a season match filed by mistake, and may
reinstate it; the match then counts for nothing, and nothing is deleted."""

import json

import pytest
from audit_helpers import PROBLEM, league_figures, url
from django.db import transaction

from games.models import MatchEvent, Player
from games.read import audit
from scoring import recompute
from scoring.models import SeasonMatch

pytestmark = pytest.mark.django_db

T = MatchEvent.Type


def withdraw(client, match, reason="Filed twice.", **headers):
    return client.post(url(match.pk, "withdrawal"), {"reason": reason}, format="json", headers=headers or None)


def reinstate(client, match, reason="Not a duplicate after all.", **headers):
    return client.post(url(match.pk, "reinstatement"), {"reason": reason}, format="json", headers=headers or None)


class _RolledBack(Exception):
    pass


@pytest.fixture
def three(season_match):
    """Three finished season matches filed by the club's scorer, standings recomputed."""
    return [season_match(seed=seed) for seed in (1, 2, 3)]


def rebuilt_figures(world):
    recompute.standings_rebuild(season_ids=[world.season.pk])
    return league_figures(world)


def test_a_withdrawn_match_leaves_the_standings_a_full_rebuild_without_it_gives(
    world, clients, three, django_capture_on_commit_callbacks
):
    before = league_figures(world)
    assert before == rebuilt_figures(world)
    withdrawn = three[1]

    with django_capture_on_commit_callbacks(execute=True):
        response = withdraw(clients["ari"], withdrawn, **{"If-Match": f'"{withdrawn.version}"'})
    assert response.status_code == 201, response.content
    assert [e["type"] for e in response.json()["events"]] == [T.MATCH_WITHDRAWN]
    assert response.json()["events"][0]["payload"] == {
        "reason": "Filed twice.",
        "by": Player.objects.get(username="ari").public_id,  # the log names people by id (issue 28)
        "v": 2,
    }
    after = league_figures(world)
    assert after != before

    # the same league without that match at all: a full rebuild with it taken out, then put back
    expected = None
    with pytest.raises(_RolledBack), transaction.atomic():
        SeasonMatch.objects.filter(match=withdrawn).delete()
        expected = rebuilt_figures(world)
        raise _RolledBack
    assert after == expected
    assert rebuilt_figures(world) == after  # the incremental recompute and the full rebuild agree

    standings = clients["ala"].get(f"/api/v1/seasons/{world.season.pk}/standings/").json()
    assert standings["withdrawn"] == [str(withdrawn.pk)] and standings["awaiting_confirmation"] == []
    detail = clients["ala"].get(url(withdrawn.pk)).json()
    assert detail["withdrawn"] is True and detail["withdrawal"]["by"] == "ari"
    assert MatchEvent.objects.filter(match=withdrawn).count() == withdrawn.version + 1  # nothing deleted
    assert audit.audit_failures(withdrawn) == []

    with django_capture_on_commit_callbacks(execute=True):
        assert reinstate(clients["ada"], withdrawn).status_code == 201  # a club admin may too
    assert league_figures(world) == before
    assert clients["ala"].get(url(withdrawn.pk)).json()["withdrawn"] is False


@pytest.mark.parametrize(
    "who, status, code",
    [
        ("ala", 403, "not_allowed"),
        ("sam", 403, "arbiter_involved"),
        ("member", 404, "not_found"),
        ("rival", 404, "not_found"),
        ("outsider", 404, "not_found"),
    ],
)
def test_only_uninvolved_arbiters_withdraw(world, clients, season_match, who, status, code):
    match = season_match(seed=1)  # sam scores it
    response = withdraw(clients[who], match)
    assert response.status_code == status and response.json()["code"] == code
    assert response.headers["Content-Type"] == PROBLEM
    assert not MatchEvent.objects.filter(match=match, type=T.MATCH_WITHDRAWN).exists()


def test_withdrawing_twice_or_reinstating_what_stands_is_a_conflict(clients, season_match):
    match = season_match(seed=1)
    assert reinstate(clients["staff"], match).json()["code"] == "withdrawal_conflict"
    assert withdraw(clients["staff"], match).status_code == 201
    assert withdraw(clients["staff"], match).json()["code"] == "withdrawal_conflict"
    assert withdraw(clients["staff"], match, reason="").status_code == 400


def test_the_season_export_marks_a_withdrawn_match(world, clients, season_match):
    match = season_match(seed=1)
    withdraw(clients["ari"], match)
    lines = clients["ada"].get(f"/api/v1/seasons/{world.season.pk}/records/").getvalue().decode().splitlines()
    assert [json.loads(line).get("withdrawn") for line in lines] == [True]


def test_the_score_sheet_and_season_pages_show_a_withdrawn_match(world, clients, season_match):
    from django.test import Client

    match = season_match(seed=1)
    withdraw(clients["ari"], match, reason="Wrong season.")
    page = Client()
    page.force_login(world.users["ala"])
    sheet = page.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="withdrawn"' in sheet and "Wrong season." in sheet
    assert 'class="withdrawn"' in page.get(f"/seasons/{world.season.pk}/").content.decode()
