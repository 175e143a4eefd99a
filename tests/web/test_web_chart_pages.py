"""The charts on the pages (issue 25 item 4): the season's balance after each evening, a player's
rating over time and results by deal kind, a match's running totals — each an SVG with its
accessible name and description and its numbers in a table, in Polish (decimal comma, real
minus) and in English; a player profile the reader may not see is a 404."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from support.evenings import season_of_evenings
from support.once import once_per_module

from games.models import Match, Player
from scoring import invitations
from scoring.models import StandingRow

pytestmark = pytest.mark.django_db

built = once_per_module(lambda: season_of_evenings(get_user_model()))
SVG = "{http://www.w3.org/2000/svg}"


def get(user, url: str, language: str = "pl"):
    client = Client()
    client.force_login(user)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    return response.content.decode()


def charts_in(page: str) -> list[ET.Element]:
    return [ET.fromstring(svg) for svg in re.findall(r"<svg .*?</svg>", page, re.S)]


def chart_table(page: str) -> str:
    return re.search(r'<details class="chart-data">.*?</details>', page, re.S).group(0)


def test_the_season_page_draws_each_players_balance_after_each_evening_in_polish(built):
    page = get(built.users["celina"], f"/seasons/{built.season.pk}/")

    (svg,) = charts_in(page)
    assert svg.get("role") == "img"
    assert svg.find(f"{SVG}title").text == "Bilans po każdym wieczorze"
    desc = svg.find(f"{SVG}desc").text
    leader = StandingRow.objects.filter(season=built.season).order_by("order").first()
    assert f"Na koniec prowadzi {leader.player.username} z bilansem {leader.balance:+d}" in desc.replace("−", "-")
    assert "od 1 października 2026" in desc
    assert [g.get("data-name") for g in svg.iter(f"{SVG}g")] == list(
        StandingRow.objects.filter(season=built.season).order_by("order").values_list("player__username", flat=True)
    )
    table = chart_table(page)
    assert "Dane wykresu" in table and "Łucja &amp; Ewa" in table and "&lt;script&gt;" in table
    assert "<script>" not in page.split("<main", 1)[1].split("</main>")[0]
    assert "1 paź" in [t.text for t in svg.iter(f"{SVG}text")]  # the axis: the day and the month in Polish


def test_the_season_page_draws_the_chart_in_english_too(built):
    page = get(built.users["celina"], f"/seasons/{built.season.pk}/", "en")

    (svg,) = charts_in(page)
    assert svg.find(f"{SVG}title").text == "Balance after each evening"
    assert "from Oct. 1, 2026" in svg.find(f"{SVG}desc").text
    assert "The chart's numbers" in chart_table(page)


def test_the_balances_in_the_polish_table_use_a_real_minus(built):
    table = chart_table(get(built.users["celina"], f"/seasons/{built.season.pk}/"))

    cells = re.findall(r'<td class="num">([^<]*)</td>', table)
    negative = [cell for cell in cells if cell.startswith("−")]
    assert negative and not any(cell.startswith("-") for cell in cells)


def test_the_player_page_draws_his_rating_with_its_band_and_his_results_by_kind(built):
    player = Player.objects.get(username="celina")

    page = get(built.users["celina"], f"/players/{player.pk}/")

    rating, kinds = charts_in(page)
    assert rating.find(f"{SVG}title").text == "Ranking: Liga"
    assert "Zacieniony pas obejmuje μ ± 3σ" in rating.find(f"{SVG}desc").text
    assert rating.find(f"{SVG}polygon[@fill-opacity]") is not None  # the band
    assert kinds.find(f"{SVG}title").text == "Punkty na rozdanie według rodzaju"
    assert "rozbójnik" in kinds.find(f"{SVG}desc").text and "na rozdanie" in kinds.find(f"{SVG}desc").text
    assert re.search(r"[−+]\d+,\d", kinds.find(f"{SVG}desc").text)  # a mean with a decimal comma
    assert f'href="/seasons/{built.season.pk}/"' in page


def test_the_player_page_in_english(built):
    player = Player.objects.get(username="celina")

    page = get(built.users["celina"], f"/players/{player.pk}/", "en")

    rating, kinds = charts_in(page)
    assert rating.find(f"{SVG}title").text == "Rating in Liga"
    assert "Points per deal by kind" == kinds.find(f"{SVG}title").text
    assert re.search(r"[−+]\d+\.\d", kinds.find(f"{SVG}desc").text)


def test_the_standings_link_each_player_with_an_account_to_his_page(built):
    page = get(built.users["celina"], f"/seasons/{built.season.pk}/")

    celina = Player.objects.get(username="celina")
    assert f'href="/players/{celina.pk}/"' in page


def test_a_profile_without_an_account_is_not_found_for_a_member_who_is_no_official(built):
    profile = invitations.club_player_add(actor=built.users["ada"], club_id=built.club.pk, name="Zofia Gość")
    client = Client()
    client.force_login(built.users["celina"])

    assert client.get(f"/players/{profile.pk}/").status_code == 404
    assert client.get("/players/999999/").status_code == 404
    client.force_login(built.users["ada"])
    assert client.get(f"/players/{profile.pk}/").status_code == 200


def test_the_match_page_draws_the_running_totals_one_line_per_seat(built):
    match = Match.objects.filter(season_match__season=built.season).order_by("created_at").first()

    page = get(built.users["ada"], f"/matches/{match.pk}/")

    (svg,) = charts_in(page)
    assert svg.find(f"{SVG}title").text == "Wynik narastająco po każdym rozdaniu"
    names = [f"{seat} · {p.username}" for seat, p in zip("NESW", match.seat_players())]
    assert [g.get("data-name") for g in svg.iter(f"{SVG}g")] == names
    totals = match.projection.summary["totals"]
    desc = svg.find(f"{SVG}desc").text
    for seat, name in zip("NESW", names):
        shown = f"{totals[seat]:+d}".replace("-", "−") if totals[seat] else "0"
        assert f"{name} {shown}" in desc
    english = get(built.users["ada"], f"/matches/{match.pk}/", "en")
    assert charts_in(english)[0].find(f"{SVG}title").text == "Running totals deal by deal"


def test_a_match_with_no_finished_deal_and_a_season_with_no_match_show_no_chart(built):
    from support.world import season_match

    from scoring import services

    match = season_match(built, ("Łucja & Ewa", "bartek", "celina", "darek"), by="sam")
    empty = services.season_create(actor=built.users["ada"], league_id=built.league.pk, name="Pusty")

    assert charts_in(get(built.users["ada"], f"/matches/{match.pk}/")) == []
    assert charts_in(get(built.users["ada"], f"/seasons/{empty.pk}/")) == []
