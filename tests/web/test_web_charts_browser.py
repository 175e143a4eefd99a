"""The pages with charts in Debian's chromium on a 360 px phone, in Polish and in English: each
chart is drawn (a visible SVG as wide as the page allows, no wider), its numbers' table opens,
and the Content-Security-Policy refuses nothing; a player's accuracy plot on his profile leads
to his season's page (issue 27).

Set ``WEB_SCREENSHOTS=<dir>`` to keep a screenshot of each chart and each page."""

import pytest
from django.contrib.auth import get_user_model
from support.evenings import season_of_evenings
from web_helpers import PHONE, keep, phone_tab

from games.models import Match, Player
from scoring.annotations import match_annotate

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world():
    return season_of_evenings(get_user_model())


@pytest.mark.parametrize("language", ["pl", "en"])
def test_the_three_charts_show_on_a_phone_under_the_policy(browser, live_server, world, language):
    page, refused = phone_tab(browser, live_server.url, world.users["ada"], language)
    match = Match.objects.filter(season_match__season=world.season).order_by("created_at").first()
    player = Player.objects.get(username="celina")
    pages = [
        ("season", f"/seasons/{world.season.pk}/", "#balance-chart"),
        ("player", f"/players/{player.pk}/", "svg.chart"),
        ("match", f"/matches/{match.pk}/", "#running-chart"),
    ]
    for name, path, chart in pages:
        page.goto(live_server.url + path)
        svg = page.locator(chart).first
        svg.scroll_into_view_if_needed()
        box = svg.bounding_box()
        assert box is not None and 300 <= box["width"] and box["x"] >= 0, (name, box)
        assert box["x"] + box["width"] <= PHONE["width"], (name, box)  # no part of it off the phone's screen
        assert box["height"] > 150, (name, box)
        assert page.evaluate("document.documentElement.lang") == language
        title = svg.locator("title").text_content()
        assert title and (language == "en") == title.startswith(("Balance", "Rating", "Running")), title
        keep(page, f"chart-{name}-{language}", chart)
        details = page.locator("details.chart-data").first
        details.locator("summary").click()
        assert details.locator("table").is_visible()
        keep(page, f"page-{name}-{language}")
    assert refused == []


def test_a_players_profile_plots_his_accuracy_and_leads_to_his_season_page(browser, live_server, users, club):
    for link in club.season.season_matches.all():
        match_annotate(match_id=link.match_id)
    ala = Player.objects.get(username="ala")
    page, refused = phone_tab(browser, live_server.url, users["bartek"], "pl")
    page.goto(f"{live_server.url}/players/{ala.pk}/")

    section = page.locator("#accuracy")
    assert section.locator("h2").inner_text() == "Dokładność"
    assert "Ocenione karty, które nic nie kosztowały" in section.locator(".accuracy-figure").inner_text()
    svg = section.locator(f"#accuracy-plot-{club.season.pk}")
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    assert box is not None and box["width"] >= 300 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the page fits the phone
    keep(page, "page-player-accuracy-pl")

    section.locator("h3 a").click()
    page.wait_for_url(f"{live_server.url}/seasons/{club.season.pk}/players/{ala.pk}/")
    assert page.locator("#accuracy-plot").is_visible()
    assert page.locator("#accuracy-table tbody tr").count() == club.season.season_matches.count()
    assert refused == []
