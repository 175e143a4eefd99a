"""The pages through Django's test client: who may see a score sheet, a deal's table view and
a season's standings, and that what they show is what the engine and the read models say."""

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from support.once import fresh, once_per_module
from web_helpers import (
    PLAYERS,
    SEATS,
    club_with_standings,
    deal_data,
    expected,
    imported_match,
    match_in_play,
    oracle,
    page_people,
    sample,
    score_sheet,
)

from games.models import MatchProjection
from games.write import services

pytestmark = pytest.mark.django_db


def build():
    """The conftest's rows, built once for the module (support.once): the pages only read them."""
    users = page_people(get_user_model())
    club = club_with_standings(users, get_user_model())
    return users, imported_match(users), match_in_play(users), club


built = once_per_module(build)


@pytest.fixture
def users(built):
    return dict(built[0])


@pytest.fixture
def finished_match(built):
    return fresh(built[1])


@pytest.fixture
def live_match(built):
    return fresh(built[2])


@pytest.fixture
def club(built):
    club = fresh(built[3])
    club.ada, club.season = built[3].ada, fresh(built[3].season)
    return club


def page(client, user, url):
    if user is not None:
        client.force_login(user)
    return client.get(url)


def without_tokens(html: bytes) -> bytes:
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", html)


def match_url(match, deal=None):
    return f"/matches/{match.pk}/" + (f"deals/{deal}/" if deal else "")


# --- who sees what --------------------------------------------------------------------------------


def test_a_signed_out_visitor_is_sent_to_the_login_page(client, finished_match):
    for url in (match_url(finished_match), match_url(finished_match, 1), "/matches/", "/seasons/1/", "/records/view/"):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"/accounts/login/?next={url}"


@pytest.mark.parametrize("who", ["ala", "darek", "scorer", "staff"])
def test_the_seated_players_the_scorer_and_staff_see_the_score_sheet(client, users, finished_match, who):
    response = page(client, users[who], match_url(finished_match))
    assert response.status_code == 200
    assert b'id="zapis"' in response.content


def test_anyone_else_gets_a_404_that_does_not_reveal_the_match(client, users, finished_match):
    seen = page(client, users["outsider"], match_url(finished_match))
    missing = client.get(f"/matches/{uuid.uuid4()}/")
    assert seen.status_code == missing.status_code == 404
    assert without_tokens(seen.content) == without_tokens(missing.content)
    assert page(client, users["outsider"], match_url(finished_match, 1)).status_code == 404


def test_a_player_replays_finished_deals_only(client, users, live_match):
    client.force_login(users["ala"])
    assert client.get(match_url(live_match, 1)).status_code == 200
    assert client.get(match_url(live_match, 2)).status_code == 200
    assert client.get(match_url(live_match, 3)).status_code == 404  # in play: hidden hands
    assert client.get(match_url(live_match, 4)).status_code == 404  # not dealt
    sheet = client.get(match_url(live_match)).content.decode()
    assert "In play: deal 3" in sheet
    assert f'href="{match_url(live_match, 3)}"' not in sheet


@pytest.mark.parametrize("who", ["scorer", "staff"])
def test_the_scorer_and_staff_also_replay_the_deal_in_play(client, users, live_match, who):
    client.force_login(users[who])
    assert f'href="{match_url(live_match, 3)}"'.encode() in client.get(match_url(live_match)).content
    data = deal_data(client.get(match_url(live_match, 3)))
    assert len(data["steps"]) == 11  # dealt + 10 cards
    record = sample("m1-legal")
    assert [s["play"]["card"] for s in data["steps"][1:]] == record["deals"][2]["plays"][:10]
    assert client.get(match_url(live_match, 4)).status_code == 404


def test_the_match_list_shows_the_users_matches(client, users, finished_match, live_match):
    assert str(finished_match.pk).encode() in page(client, users["ala"], "/matches/").content
    assert str(finished_match.pk).encode() not in page(client, users["outsider"], "/matches/").content


def test_the_match_list_pages_fifty_matches_at_a_time_newest_first(client, users):
    from web.views import MATCHES_PER_PAGE

    made = [
        services.match_create(
            actor=users["scorer"], seats=dict(zip(SEATS, PLAYERS)), first_dealer="N", dealing="recorded"
        )
        for _ in range(MATCHES_PER_PAGE + 2)
    ]
    newest_first = [str(m.pk) for m in reversed(made)]

    first = page(client, users["ala"], "/matches/").content.decode()
    second = page(client, users["ala"], "/matches/?page=2").content.decode()

    shown = [[pk for pk in newest_first if pk in html] for html in (first, second)]
    assert shown == [newest_first[:MATCHES_PER_PAGE], newest_first[MATCHES_PER_PAGE:]]
    assert 'rel="next" href' not in first and 'href="?page=2" rel="next"' in first
    assert 'href="?page=1" rel="prev"' in second and 'rel="next"' not in second
    assert page(client, users["ala"], "/matches/?page=x").status_code == 200  # a bad page: the first


def test_the_login_page_signs_in_and_goes_on(client, django_user_model, finished_match):
    django_user_model.objects.create_user("ewa", password="a-long-pass-phrase")
    assert b'name="password"' in client.get("/accounts/login/").content
    response = client.post(
        "/accounts/login/", {"username": "ewa", "password": "a-long-pass-phrase", "next": "/matches/"}
    )
    assert response.status_code == 302 and response["Location"] == "/matches/"
    assert client.get("/matches/").status_code == 200


# --- the score sheet ----------------------------------------------------------------------------------


def test_the_score_sheet_shows_the_summary_deal_by_deal(client, users, finished_match):
    rows, totals = score_sheet(page(client, users["ala"], match_url(finished_match)))
    summary = expected("m1-legal")
    assert sorted(rows) == [deal["number"] for deal in summary["deals"]]
    for deal in summary["deals"]:
        row = rows[deal["number"]]
        assert row[(None, "kind")] == deal["kind"]
        assert row[(None, "dealer")] == deal["dealer"]
        assert row[(None, "leader")] == deal["leader"]
        assert row[(None, "multiplier")] == str(deal["multiplier"])
        assert ((None, "compensating") in row) == deal["compensating"]
        for seat in SEATS:
            assert row[(seat, "tricks")] == str(deal["tricks"][seat])
            assert row[(seat, "points")] == str(deal["points"][seat])
            assert row[(seat, "kreski")] == str(deal["kreski"][seat])
    assert totals == {seat: str(summary["totals"][seat]) for seat in SEATS}


def test_kreski_are_strokes_and_multipliers_are_marked(client, users, finished_match):
    html = page(client, users["ala"], match_url(finished_match)).content.decode()
    summary = expected("m1-legal")
    doubled = next(d for d in summary["deals"] if d["multiplier"] == 2)
    holder = next(seat for seat in SEATS if doubled["kreski"][seat] == 1)
    stroke = '<span aria-hidden="true" class="strokes">|</span>'
    assert f'data-seat="{holder}" data-field="kreski" data-value="1">{stroke}' in html
    assert "×2" in html
    assert ">comp.</abbr>" in html


def test_the_winners_are_named(client, users, finished_match):
    html = page(client, users["ala"], match_url(finished_match)).content.decode()
    names = dict(zip(SEATS, ("ala", "bartek", "celina", "darek")))
    for seat in expected("m1-legal")["winners"]:
        assert f"<strong>{names[seat]}</strong> ({seat})" in html


def test_rulings_show_beside_the_played_result(client, users, finished_match):
    from games.write import disputes

    adjusted = {"N": -10, "E": -40, "S": -40, "W": -40}
    first = disputes.dispute_raise(match_id=finished_match.pk, actor=users["ala"], deal=1, statement="miscounted")
    disputes.ruling_record(
        dispute_id=first.pk, actor=users["staff"], ruling="score_adjusted", reason="recount", points=adjusted
    )
    last = disputes.dispute_raise(match_id=finished_match.pk, actor=users["bartek"], deal=9, statement="misdeal")
    disputes.ruling_record(dispute_id=last.pk, actor=users["staff"], ruling="deal_voided", reason="a misdeal")
    response = page(client, users["ala"], match_url(finished_match))
    rows, totals = score_sheet(response)
    played = expected("m1-legal")["deals"]
    assert {seat: rows[1][(seat, "adjusted")] for seat in SEATS} == {s: str(p) for s, p in adjusted.items()}
    assert rows[1][("N", "points")] == str(played[0]["points"]["N"])  # the played result stays beside it
    assert rows[1][(None, "ruling")].startswith("points adjusted")
    assert rows[9][(None, "ruling")].startswith("voided")
    summary = MatchProjection.objects.get(pk=finished_match.pk).summary
    assert totals == {seat: str(summary["totals"][seat]) for seat in SEATS}
    html = response.content.decode()
    assert "“recount”" in html and "“a misdeal”" in html
    assert "Next deal due: 10" in html  # the replacement of the voided deal


def test_a_voided_deal_can_still_be_replayed(client, users, finished_match):
    from games.write import disputes

    dispute = disputes.dispute_raise(match_id=finished_match.pk, actor=users["ala"], deal=9, statement="misdeal")
    disputes.ruling_record(dispute_id=dispute.pk, actor=users["staff"], ruling="deal_voided", reason="a misdeal")
    response = page(client, users["ala"], match_url(finished_match, 9))
    assert len(deal_data(response)["steps"]) == 53
    assert "voided by a ruling" in response.content.decode()


# --- the deal's table view ----------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3, 9])
def test_the_steps_are_the_engines_replay_of_the_deal(client, users, finished_match, number):
    record = sample("m1-legal")
    truth = oracle(record, number)
    steps = deal_data(page(client, users["bartek"], match_url(finished_match, number)))["steps"]
    assert len(steps) == 53
    dealt = record["deals"][number - 1]["hands"]
    assert {s: sorted(cards) for s, cards in steps[0]["hands"].items()} == {s: sorted(c) for s, c in dealt.items()}
    for position, seen in enumerate(truth, 1):
        before, step = steps[position - 1], steps[position]
        assert {s: sorted(c) for s, c in before["hands"].items()} == seen["hands_before"]
        assert before["to_play"] == seen["seat"]
        assert sorted(before["legal"]) == seen["legal"]
        assert step["play"]["seat"] == seen["seat"] and step["play"]["card"] == seen["card"]
        assert sorted(step["play"]["legal"]) == seen["legal"]
        assert step["play"]["violation"] is None
        assert step["winner"] == seen["winner"]
        assert step["tricks"] == seen["tricks"]
        if seen["winner"]:
            assert len(step["trick"]) == 4  # the completed trick stays on the table with its winner
    assert steps[-1]["hands"] == {s: [] for s in SEATS}
    assert steps[-1]["tricks"] == expected("m1-legal")["deals"][number - 1]["tricks"]


def test_a_sold_lead_starts_with_the_buyer(client, users, finished_match):
    response = page(client, users["ala"], match_url(finished_match, 3))
    steps = deal_data(response)["steps"]
    assert steps[0]["to_play"] == "E" == steps[1]["play"]["seat"]  # m1-legal deal 3: E bought the lead for 2
    assert "bought from" in response.content.decode()


def test_the_page_lists_every_trick_with_its_winner(client, users, finished_match):
    html = page(client, users["ala"], match_url(finished_match, 1)).content.decode()
    truth = oracle(sample("m1-legal"), 1)
    assert html.count('class="jump') == 52
    winners = [seen["winner"] for seen in truth if seen["winner"]]
    for number, _winner in enumerate(winners, 1):
        assert f'data-trick="{number}"' in html
    assert html.count('<td class="won">') == 13
    assert all(f'<td class="won">{w}</td>' in html for w in set(winners))
    assert '<script src="/static/web/viewer.js" defer></script>' in html


def test_a_server_dealt_deal_is_replayed_from_its_revealed_hands(client, users):
    from games.read import selectors
    from games.write import services

    match = services.match_create(
        actor=users["ala"],
        seats=dict(zip(SEATS, ("ala", "bartek", "celina", "darek"))),
        first_dealer="N",
        dealing="server",
    )
    services.deal_start(match_id=match.pk, actor=users["ala"])
    by_seat = {"N": users["ala"], "E": users["bartek"], "S": users["celina"], "W": users["darek"]}
    for _ in range(52):
        loaded, viewer = selectors.match_get(match_id=match.pk, user=users["staff"])
        state = selectors.match_state(match=loaded, viewer=viewer)["deal"]
        services.card_play(match_id=match.pk, actor=by_seat[state["to_play"]], card=state["legal_cards"][0])
    revealed = match.events.get(type="hands_revealed").payload["hands"]
    steps = deal_data(page(client, users["celina"], match_url(match, 1)))["steps"]
    assert {s: sorted(c) for s, c in steps[0]["hands"].items()} == {s: sorted(c) for s, c in revealed.items()}
    assert all(step["play"]["card"] == step["play"]["legal"][0] for step in steps[1:])


def test_a_disputed_play_is_marked_with_the_rule_it_breaks_or_none(client, users, finished_match):
    from games.write import disputes

    disputes.dispute_raise(
        match_id=finished_match.pk, actor=users["bartek"], deal=1, play_index=5, statement="E revoked"
    )
    disputes.dispute_raise(match_id=finished_match.pk, actor=users["ala"], deal=1, statement="the whole deal")
    response = page(client, users["ala"], match_url(finished_match, 1))
    steps = deal_data(response)["steps"]
    marked = steps[6]["play"]["disputes"]
    assert [(d["statement"], d["raised_by"], d["status"]) for d in marked] == [("E revoked", "bartek", "open")]
    assert steps[6]["play"]["violation"] is None  # stored plays are legal: the viewer says so
    assert all(not step["play"]["disputes"] for step in steps[1:] if step["play"]["index"] != 5)
    assert "the whole deal" in response.content.decode()
    assert b'class="disputed">disputed</span>' in page(client, users["ala"], match_url(finished_match)).content


def test_an_illegal_play_has_its_rule_and_is_forced_onto_the_table():
    """The step list itself (``web.steps``): a play the engine forbids carries the rule it breaks
    (``Variant.violation``) and the disputes naming it, and the deal goes on from it."""
    from games.engine import MatchState, Ruleset, Seat
    from games.engine.cards import BY_NAME
    from web.steps import deal_steps

    record = sample("m1-legal")
    hands = [[BY_NAME[c] for c in record["deals"][0]["hands"][s.name]] for s in Seat]
    deal = MatchState.start(Ruleset.from_options(record["ruleset"]["options"]), Seat.E).start_deal(hands).deal
    leader = deal.to_play.name
    heart = next(c for c in record["deals"][0]["hands"][leader] if c.endswith("H"))  # R10: not while holding others
    steps = deal_steps(deal, [BY_NAME[heart]], disputes={0: [{"statement": "led a heart"}]})
    play = steps[1]["play"]
    assert play["violation"]["code"] == "hearts_lead_forbidden" and play["violation"]["rule"] == "R10"
    assert heart not in play["legal"] and play["disputes"] == [{"statement": "led a heart"}]
    assert play["applied"] and steps[1]["trick"] == [{"seat": leader, "card": heart}]
    assert heart not in steps[1]["hands"][leader] and steps[1]["to_play"] == Seat[leader].next().name


# --- a pasted record, illegal plays included --------------------------------------------------------------


def test_the_record_viewer_shows_an_illegal_play_with_its_rule(client, users):
    import json

    error = expected("m1-illegal")["error"]
    client.force_login(users["outsider"])
    response = client.post("/records/view/", {"record": json.dumps(sample("m1-illegal"))})
    assert response.status_code == 200
    data = deal_data(response)
    step = data["steps"][error["play_index"] + 1]
    assert data["start"] == error["play_index"] + 1
    assert step["play"]["violation"]["code"] == error["code"]
    assert step["play"]["violation"]["seat"] == error["seat"] and step["play"]["card"] == error["card"]
    assert step["play"]["card"] not in step["play"]["legal"]
    assert step["play"]["applied"]  # held, so forced onto the table: the record goes on
    assert error["card"] in [c["card"] for c in step["trick"]]
    assert f"breaks a rule: <strong>{error['code']}</strong>".encode() in response.content


def test_the_record_viewer_stops_at_a_card_its_player_does_not_hold(client, users):
    import json

    record = sample("m1-legal")
    plays = record["deals"][0]["plays"]
    plays[1], plays[2] = plays[2], plays[1]  # the third card played out of turn
    client.force_login(users["outsider"])
    data = deal_data(client.post("/records/view/", {"record": json.dumps(record)}))
    assert len(data["steps"]) == 3 and data["start"] == 2
    assert data["steps"][2]["play"]["violation"]["code"] == "not_your_turn"
    assert data["steps"][2]["play"]["applied"] is False


def test_the_record_viewer_reports_an_unreadable_record(client, users):
    client.force_login(users["outsider"])
    response = client.post("/records/view/", {"record": "{not json"})
    assert response.status_code == 400 and b"not valid JSON" in response.content
    response = client.post("/records/view/", {"record": '{"deals": []}'})
    assert response.status_code == 400 and b'role="alert"' in response.content


# --- season standings -------------------------------------------------------------------------------------


@pytest.fixture
def season(club):
    """The season of ``club`` (web/conftest.py), m3-legal filed in it, its standings computed."""
    return club.season


def test_club_members_and_staff_see_the_standings(client, users, season):
    from scoring.models import StandingRow

    rows = list(StandingRow.objects.filter(season=season).order_by("order"))
    assert len(rows) == 4
    for who in ("darek", "staff"):
        html = page(client, users[who], f"/seasons/{season.pk}/").content.decode()
        for row in rows:
            assert f'<tr data-player="{row.player.username}">' in html
            assert f'data-field="balance" data-value="{row.balance}"' in html
    assert html.index(rows[0].player.username) < html.index(rows[-1].player.username)


def test_a_non_member_gets_a_404_for_a_season(client, users, season):
    assert page(client, users["outsider"], f"/seasons/{season.pk}/").status_code == 404
    assert page(client, users["outsider"], "/seasons/999999/").status_code == 404


def test_the_clubs_arbiters_read_its_matches_as_staff_do(client, users, season, django_user_model):
    from games.models import Match
    from games.write import services
    from scoring import services as scoring
    from scoring.models import Membership

    arbiter, member = django_user_model.objects.create_user("arbi"), django_user_model.objects.create_user("ewa")
    club = season.league.club
    Membership.objects.create(club=club, user=arbiter, role="arbiter")
    Membership.objects.create(club=club, user=member, role="member")
    filed = Match.objects.get(season_match__season=season)
    record = sample("m3-legal")
    live = scoring.season_match_create(
        actor=users["scorer"],
        season_id=season.pk,
        first_dealer=record["first_dealer"],
        seats=dict(zip(SEATS, ("ala", "bartek", "celina", "darek"))),
        dealing="recorded",
    )
    deal = record["deals"][0]
    services.deal_start(match_id=live.pk, actor=users["scorer"], hands=deal["hands"])
    for card in deal["plays"][:5]:
        services.card_play(match_id=live.pk, actor=users["scorer"], card=card)

    client.force_login(arbiter)
    assert "you: arbiter" in client.get(match_url(filed)).content.decode()
    assert client.get(match_url(filed, 2)).status_code == 200
    assert len(deal_data(client.get(match_url(live, 1)))["steps"]) == 6  # the deal in play, every hand
    client.force_login(member)
    assert client.get(match_url(filed)).status_code == 404
    assert client.get(match_url(live, 1)).status_code == 404
    assert client.get(f"/seasons/{season.pk}/").status_code == 200


def test_the_season_page_lists_its_matches_and_says_when_it_shows_only_the_newest(client, users, season, monkeypatch):
    from scoring import services as scoring
    from web import selectors

    live = scoring.season_match_create(
        actor=users["scorer"],
        season_id=season.pk,
        first_dealer="N",
        seats=dict(zip(SEATS, ("ala", "bartek", "celina", "darek"))),
        dealing="recorded",
    )
    client.force_login(users["staff"])

    def listed() -> tuple[list[str], str]:
        html = client.get(f"/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
        section = html[html.index('id="season-matches"') :]
        return re.findall(r'<li><a href="/matches/([0-9a-f-]+)/">', section), section

    assert len(listed()[0]) == 2 and "Najnowsz" not in listed()[1]
    monkeypatch.setattr(selectors, "SEASON_PAGE_MATCHES", 1)

    shown, section = listed()

    assert shown == [str(live.pk)]
    assert "Najnowsza 1 z 2; wszystkie są w skoroszycie „Partie i rozdania (XLSX)”." in section
