"""The deal viewer's analysis panel: the page offers, for each step, the API call that gives
that position's analysis — to the scorer, staff and arbiters in any deal, to a seated player
only in finished deals — and each call answers for exactly that step's position."""

import pytest
from web_helpers import SEATS, deal_data, sample

pytestmark = pytest.mark.django_db


def deal_url(match, deal):
    return f"/matches/{match.pk}/deals/{deal}/"


def test_each_step_is_offered_the_analysis_of_its_own_position(client, users, finished_match):
    client.force_login(users["staff"])
    data = deal_data(client.get(deal_url(finished_match, 1)))
    links = data["analysis"]

    assert links["url"] == f"/api/v1/matches/{finished_match.pk}/analysis/"
    assert len(links["seqs"]) == len(data["steps"]) == 53
    for index in (44, 49, 52):
        step = data["steps"][index]
        body = client.get(links["url"], {"at": links["seqs"][index]}).json()
        assert (body["deal"], body["plays"]) == (1, index)
        result = body["analysis"]
        assert result["to_play"] == step["to_play"]
        assert sorted(result["cards"]) == sorted(step["legal"])  # the engine's legal cards, valued
        if step["to_play"] is not None:
            best = max(result["cards"].values())
            assert best == result["seats"][step["to_play"]]["guaranteed"]


def test_at_the_last_step_the_range_of_every_seat_is_the_played_result(client, users, finished_match):
    client.force_login(users["staff"])
    links = deal_data(client.get(deal_url(finished_match, 1)))["analysis"]
    seats = client.get(links["url"], {"at": links["seqs"][-1]}).json()["analysis"]["seats"]
    played = finished_match.projection.summary["deals"][0]["points"]
    assert {seat: seats[seat]["best"] for seat in SEATS} == played
    assert {seat: seats[seat]["worst"] for seat in SEATS} == played


def test_the_page_holds_the_analysis_panel_only_when_it_is_offered(client, users, finished_match):
    client.force_login(users["ala"])  # seated: finished deals
    html = client.get(deal_url(finished_match, 1)).content.decode()
    assert 'id="analysis"' in html and "What each seat could still reach" in html


def test_the_scorer_is_offered_the_deal_in_play_and_a_seated_player_is_not(client, users, live_match):
    client.force_login(users["scorer"])
    links = deal_data(client.get(deal_url(live_match, 3)))["analysis"]
    assert len(links["seqs"]) == 11
    assert client.get(links["url"], {"at": links["seqs"][-1]}).json()["plays"] == 10

    client.force_login(users["ala"])
    assert deal_data(client.get(deal_url(live_match, 2)))["analysis"] is not None  # finished
    assert client.get(links["url"], {"at": links["seqs"][-1]}).status_code == 403  # no advice in play


def test_the_pasted_record_viewer_offers_no_analysis(client, users):
    import json

    client.force_login(users["outsider"])
    response = client.post("/records/view/", {"record": json.dumps(sample("m1-legal")), "deal": "1"})
    assert response.status_code == 200
    assert 'id="analysis"' not in response.content.decode()
