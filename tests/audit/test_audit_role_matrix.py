"""The role matrix (issue 11 "What to build" 1, issue 14 item 4): one role per user and match
(``games.domain.roles.role_of``) — seated first, whatever else he is — decides every read that shows
hands and every ruling. Role × seated or not × every endpoint and page that shows hands, and
× every ruling kind."""

import json

import pytest
from audit_helpers import SEATS, url, with_audit_people
from audit_helpers import filed as filed_by
from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from rest_framework.test import APIClient
from support.once import fresh, fresh_world, once_per_module
from support.world import build_world

from games.domain.exceptions import NotFound
from games.engine.cards import BY_NAME
from games.models import Dispute, MatchEvent, MatchProjection
from games.read import live
from scoring import services as leagues

pytestmark = pytest.mark.django_db

T = MatchEvent.Type
TABLE = ("ala", "sit_staff", "sit_arbiter", "sit_admin")  # seats N, E, S, W: a member and three officials
SEATED = TABLE
ALL_HANDS = ("sam", "staff", "ari", "ada")  # the scorer (not seated) and the arbiters (not seated)
NOBODY = ("member", "rival", "outsider")
EVERYONE = (*SEATED, *ALL_HANDS, *NOBODY)
PLAYS_INTO_DEAL_2 = 9


def seat_officials(world):
    """Seated officials: ``sit_staff`` (staff, a member), ``sit_arbiter`` and ``sit_admin`` (the
    club's arbiter and admin), at one table with ``ala``."""
    make = type(world.users["ada"]).objects.create_user
    for name, role in (("sit_staff", "member"), ("sit_arbiter", "arbiter"), ("sit_admin", "admin")):
        world.users[name] = make(name, is_staff=name == "sit_staff")
        leagues.membership_set(actor=world.users["ada"], club_id=world.club.pk, username=name, role=role)
    return world


def build():
    """The table's world and its two matches, built once for the module (support.once): every test
    here reads them or adds a dispute or ruling to them, rolled back after it."""
    table = seat_officials(with_audit_people(build_world(get_user_model())))
    return {
        "table": table,
        "finished": filed(table, TestCase.captureOnCommitCallbacks),
        "mid_deal": filed(table, TestCase.captureOnCommitCallbacks, deals=2, cards=PLAYS_INTO_DEAL_2),
    }


built = once_per_module(build)


@pytest.fixture
def table(built):
    return fresh_world(built["table"])


@pytest.fixture
def api(table):
    def client(name):
        made = APIClient()
        made.force_authenticate(table.users[name])
        return made

    return client


def filed(world, capture, *, deals=None, cards=None, seed=4):
    """A recorded season match at ``TABLE``, scored by the club's scorer ``sam`` (not seated)."""
    return filed_by(world, capture, TABLE, deals=deals, cards=cards, seed=seed)


@pytest.fixture
def mid_deal(built):
    """Deal 1 finished, deal 2 in play after a few cards: every seat still holds hidden cards."""
    match = fresh(built["mid_deal"])
    started = MatchEvent.objects.filter(match=match, type=T.DEAL_STARTED).order_by("seq").last()
    return match, started


def hidden_forms(started, seat: str) -> list[str]:
    """The ways ``seat``'s hand of the deal in play could show up in a body: as dealt (stored and
    sorted order) and as he still holds it (sorted), in compact and spaced JSON."""
    dealt = started.payload["hands"][seat]
    plays = MatchEvent.objects.filter(match_id=started.match_id, type=T.CARD_PLAYED, seq__gt=started.seq)
    played = {e.payload["card"] for e in plays if e.payload["seat"] == seat}
    by_rank = sorted(dealt, key=BY_NAME.get)
    forms = [dealt, by_rank, [c for c in by_rank if c not in played]]
    return [json.dumps(form, separators=separator) for form in forms for separator in ((",", ":"), (", ", ": "))]


def reads(match, started, client, web):
    """Every read that can show a hand: (name, status, body)."""
    found = []
    for name, path, query in (
        ("detail", url(match.pk), {}),
        ("state", url(match.pk, "state"), {}),
        ("state_at", url(match.pk, "state"), {"at": started.seq + 3}),
        ("events", url(match.pk, "events"), {}),
        ("record", url(match.pk, "record"), {}),
        ("audit", url(match.pk, "audit"), {}),
    ):
        response = client.get(path, query)
        found.append((name, response.status_code, response.content.decode()))
    for name, path in (
        ("sheet_page", f"/matches/{match.pk}/"),
        ("deal_page", f"/matches/{match.pk}/deals/{started.payload['number']}/"),
    ):
        response = web.get(path)
        found.append((name, response.status_code, response.content.decode()))
    return found


def live_reads(match, user) -> list[tuple[str, int, str]]:
    """What the SSE stream sends (``live.match_batch``: its frames' data) and what the long-poll
    waits on (``live.match_version``; once it has waited, the ``events`` action answers). They
    run in worker threads under ASGI (tests/live serves them); here they are called directly."""
    found = []
    for name, read in (
        ("stream", lambda: json.dumps(live.match_batch(match_id=str(match.pk), user=user, after=0).events)),
        ("long_poll", lambda: json.dumps(live.match_version(match_id=str(match.pk), user=user))),
    ):
        try:
            found.append((name, 200, read()))
        except NotFound:
            found.append((name, 404, ""))
    return found


SEATED_STATUS = {
    "detail": 200,
    "state": 200,
    "state_at": 403,
    "events": 200,
    "record": 200,
    "audit": 403,
    "sheet_page": 200,
    "deal_page": 404,
    "stream": 200,
    "long_poll": 200,
}


@pytest.mark.parametrize("who", EVERYONE)
def test_every_read_that_shows_hands_answers_by_the_role_and_no_seated_user_sees_a_hidden_hand(
    table, api, mid_deal, who
):
    match, started = mid_deal
    user = table.users[who]
    web = Client()
    web.force_login(user)
    found = reads(match, started, api(who), web) + live_reads(match, user)
    statuses = {name: status for name, status, _ in found}
    if who in NOBODY:
        assert set(statuses.values()) == {404}, statuses
        return
    if who in ALL_HANDS:  # the audit is the arbiters' (and the players' once the match has ended), not the scorer's
        assert statuses == {**dict.fromkeys(statuses, 200), **({"audit": 403} if who == "sam" else {})}, statuses
        state = json.loads(next(body for name, _, body in found if name == "state"))
        assert state["role"] == ("scorer" if who == "sam" else "arbiter") and state["deal"]["hands"] is not None
        return
    assert statuses == SEATED_STATUS, statuses
    seat = SEATS[TABLE.index(who)]
    state = json.loads(next(body for name, _, body in found if name == "state"))
    assert state["role"] == "player" and state["seat"] == seat and state["deal"]["hands"] is None
    assert state["deal"]["hand"] is not None
    for other in SEATS:
        if other == seat:
            continue
        for form in hidden_forms(started, other):
            for name, _, body in found:
                assert form not in body, f"{who} sees {other}'s hidden hand in {name}"


def test_regression_a_seated_staff_user_reading_state_at_mid_deal_sees_no_other_hand(api, mid_deal):
    match, started = mid_deal
    response = api("sit_staff").get(url(match.pk, "state"), {"at": started.seq + 3})
    assert response.status_code == 403 and response.json()["code"] == "not_allowed"
    assert "hands" not in response.json()
    audit = api("sit_staff").get(url(match.pk, "audit"))
    assert audit.status_code == 403 and "deal_started" not in audit.content.decode()


# --- rulings ------------------------------------------------------------------------------------------

RULINGS = ("no_change", "score_adjusted", "deal_voided", "withdrawal")
INVOLVED = ("sit_staff", "sit_arbiter", "sit_admin", "sam")  # officials seated, and the (club) scorer
RULING_STATUS = {
    **dict.fromkeys(("staff", "ari", "ada"), (201, None)),
    **dict.fromkeys(INVOLVED, (403, "arbiter_involved")),
    "ala": (403, "not_allowed"),
    **dict.fromkeys(NOBODY, (404, "not_found")),
}


@pytest.fixture
def finished(built):
    return fresh(built["finished"])


def ruling_body(kind, deal):
    body = {"type": kind, "reason": "Ruled in the matrix test."}
    if kind == "score_adjusted":
        body["points"] = {"N": -10, "E": 0, "S": 0, "W": 0}
        body["override"] = "points no play could give: the matrix tests who rules, not what"
    return body


@pytest.mark.parametrize("kind", RULINGS)
@pytest.mark.parametrize("who", EVERYONE)
def test_every_ruling_kind_is_made_only_by_an_arbiter_who_neither_plays_nor_scores(api, finished, who, kind):
    deals = MatchProjection.objects.get(pk=finished.pk).summary["deals"]
    if kind == "withdrawal":
        response = api(who).post(url(finished.pk, "withdrawal"), {"reason": "Filed by mistake."}, format="json")
    else:
        raised = api("ala").post(
            url(finished.pk, "disputes"), {"deal": len(deals), "statement": "Wrong."}, format="json"
        )
        assert raised.status_code == 201
        response = api(who).post(
            f"/api/v1/disputes/{raised.json()['id']}/ruling/", ruling_body(kind, len(deals)), format="json"
        )
    status, code = RULING_STATUS[who]
    assert response.status_code == status, response.content
    if code is not None:
        assert response.json()["code"] == code
    ruled = MatchEvent.objects.filter(match=finished, type__in=[T.RULING_RECORDED, T.MATCH_WITHDRAWN])
    assert ruled.count() == (1 if status == 201 else 0)


def test_regression_a_seated_arbiter_adjusting_his_own_deal_is_refused(api, finished):
    dispute = api("sit_arbiter").post(
        url(finished.pk, "disputes"), {"deal": 1, "statement": "Count again."}, format="json"
    )
    assert dispute.status_code == 201  # he may raise it, as a player of the table
    response = api("sit_arbiter").post(
        f"/api/v1/disputes/{dispute.json()['id']}/ruling/",
        {"type": "score_adjusted", "points": {"N": 0, "E": 0, "S": 500, "W": 0}, "reason": "Mine."},
        format="json",
    )
    assert response.status_code == 403 and response.json()["code"] == "arbiter_involved"
    assert response.headers["Content-Type"] == "application/problem+json"
    assert Dispute.objects.get(pk=dispute.json()["id"]).status == "open"
    assert not MatchEvent.objects.filter(match=finished, type=T.RULING_RECORDED).exists()


@pytest.mark.parametrize("who", ("ari", "ada", "staff", "ala", "sit_arbiter", "sam"))
def test_the_clubs_arbiters_and_admins_raise_disputes_and_read_them(api, finished, who):
    response = api(who).post(url(finished.pk, "disputes"), {"deal": 1, "statement": "Look at it."}, format="json")
    assert response.status_code == 201
    assert api(who).get(url(finished.pk, "disputes")).status_code == 200


@pytest.mark.parametrize(
    "who, listed", [("ari", True), ("ada", True), ("staff", True), ("sam", True), ("member", False), ("rival", False)]
)
def test_the_clubs_arbiters_and_admins_find_its_season_matches_in_the_list(api, finished, who, listed):
    ids = [m["id"] for m in api(who).get("/api/v1/matches/").json()["results"]]
    assert (str(finished.pk) in ids) == listed
