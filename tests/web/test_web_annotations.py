"""The annotated deal on the deal page (issue 27 item 4): each played card in the list of tricks
coloured by its grade with its symbol, the best card beside a costly one, each seat's range after
each trick; the match's progress while it is computed; nothing for a deal in play."""

import re

import pytest
from django.core.cache import cache
from web_helpers import SEATS

from scoring.annotations import match_annotate, queued_mark
from scoring.models import DealAnnotation

pytestmark = pytest.mark.django_db

MARKS = {"best": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??", "unknown": "~"}


def deal_url(match, deal):
    return f"/matches/{match.pk}/deals/{deal}/"


def test_every_card_of_an_annotated_deal_carries_its_grade_as_a_colour_and_a_symbol(client, users, finished_match):
    match_annotate(match_id=finished_match.pk)
    row = DealAnnotation.objects.get(match=finished_match, number=1)
    client.force_login(users["ala"])  # seated: a finished deal
    html = client.get(deal_url(finished_match, 1)).content.decode()

    cells = re.findall(r'<td class="graded grade-(\w+)">.*?</td>', html, re.S)
    assert cells and len(cells) == 52
    by_trick = sorted(row.cards, key=lambda n: (n["play"] // 4, SEATS.index(n["seat"])))
    assert cells == [n["grade"] or "unknown" for n in by_trick]
    for grade in set(cells):
        assert f'class="grade-mark grade-{grade}"' in html and MARKS[grade] in html
    costly = [n for n in row.cards if n["cost"][0] > 0]
    assert costly  # a best card is shown beside each
    assert html.count('class="best-card"') == len(costly)
    assert len(re.findall(r'<tr><th scope="row">\d+</th>', html.split('id="ranges"')[1])) == 13


def test_while_it_is_computed_the_page_says_how_far_the_match_is(client, users, finished_match, settings):
    settings.ANNOTATE_DEALS = True
    cache.add(queued_mark(finished_match.pk), 1)  # its job is queued and has not started
    client.force_login(users["ala"])
    html = client.get(deal_url(finished_match, 1)).content.decode()
    assert 'id="annotation-status"' in html and "Being annotated: 0 of 9 deals" in html
    assert "graded grade-" not in html and "annotate_deals" not in html


def test_where_no_job_annotates_deals_the_pages_say_who_does_instead_of_asking_to_wait(
    client, users, finished_match, settings
):
    settings.ANNOTATE_DEALS = False  # the embedded default (make run): no task queue
    client.force_login(users["ala"])
    deal = client.get(deal_url(finished_match, 1)).content.decode()
    assert 'id="annotation-status"' in deal and "Not annotated yet: 0 of 9 deals" in deal
    assert "<code>manage.py annotate_deals</code>" in deal and "Reload in a while" not in deal
    sheet = client.get(f"/matches/{finished_match.pk}/").content.decode()
    assert "0 of 9 played deals annotated" in sheet and "<code>manage.py annotate_deals</code>" in sheet

    match_annotate(match_id=finished_match.pk)  # what the command does
    sheet = client.get(f"/matches/{finished_match.pk}/").content.decode()
    assert "9 of 9 played deals annotated" in sheet and "annotate_deals" not in sheet


def test_a_deal_in_play_shows_no_annotation_even_to_the_scorer(client, users, live_match):
    client.force_login(users["scorer"])
    html = client.get(deal_url(live_match, 3)).content.decode()
    assert 'id="annotation"' not in html and "graded grade-" not in html


def test_the_standings_show_each_players_accuracy_and_say_only_played_deals_count(client, users, club):
    from scoring.annotation_selectors import season_accuracy

    for link in club.season.season_matches.all():
        match_annotate(match_id=link.match_id)
    figures = season_accuracy(season_id=club.season.pk)
    client.force_login(users["ala"])
    html = client.get(f"/seasons/{club.season.pk}/").content.decode()

    assert "Accuracy" in html and 'id="accuracy-note"' in html and "paper sheet" in html
    cells = dict(
        re.findall(r'<tr data-player="(\w+)">.*?data-field="accuracy"><a href="[^"]+">([^<]+)</a>', html, re.S)
    )
    for player_id, accuracy in figures.items():
        from games.models import Player

        name = Player.objects.get(pk=player_id).username
        assert cells[name] == (f"{accuracy.share:.1f} %" if accuracy.share is not None else "–")


def test_a_players_season_page_plots_his_running_accuracy_beside_a_table_of_the_same(client, users, club):
    from games.models import Player

    for link in club.season.season_matches.all():
        match_annotate(match_id=link.match_id)
    ala = Player.objects.get(username="ala")
    client.force_login(users["bartek"])
    html = client.get(f"/seasons/{club.season.pk}/players/{ala.pk}/").content.decode()

    svg = html[html.index('<svg xmlns="http://www.w3.org/2000/svg"') : html.index("</svg>") + len("</svg>")]
    assert 'role="img"' in svg and 'id="accuracy-plot"' in svg and "<title" in svg and "<desc" in svg
    assert "style=" not in svg  # the strict CSP allows no inline style
    rows = re.findall(r"<tr><th scope=\"row\">\d+</th>", html)
    assert (
        len(rows) == club.season.season_matches.count() == svg.count("<circle ") - 1
    )  # a marker per match + the legend's
    assert client.get(f"/seasons/{club.season.pk}/players/999999/").status_code == 404
    client.force_login(users["outsider"])
    assert client.get(f"/seasons/{club.season.pk}/players/{ala.pk}/").status_code == 404


def test_the_score_sheet_gives_the_matchs_progress_accuracy_and_costliest_cards(client, users, finished_match):
    from scoring.annotation_selectors import match_accuracy, match_costliest

    client.force_login(users["ala"])
    before = client.get(f"/matches/{finished_match.pk}/").content.decode()
    assert "0 of 9 played deals annotated" in before and 'id="match-accuracy"' not in before

    match_annotate(match_id=finished_match.pk)
    html = client.get(f"/matches/{finished_match.pk}/").content.decode()
    assert "9 of 9 played deals annotated" in html
    shares = re.findall(
        r'<td class="num">([^<]+)</td><td class="num">[^<]*</td></tr>', html.split('id="match-accuracy"')[1]
    )
    figures = match_accuracy(match=finished_match)
    expected = [figures[p].share for p in finished_match.seat_player_ids()]
    assert shares == [f"{s:.1f} %" if s is not None else "–" for s in expected]
    costly = match_costliest(match=finished_match)
    assert html.count(f'href="/matches/{finished_match.pk}/deals/', html.index('id="match-costliest"')) >= len(costly)


def test_a_players_profile_gives_his_accuracy_in_each_season_with_its_plot(client, users, club):
    """Issue 27 item 3: on his profile, the season's figure the standings give, the running plot of
    his season page, and a link to it; only played deals count."""
    from games.models import Player
    from scoring.annotation_selectors import season_accuracy

    ala = Player.objects.get(username="ala")
    client.force_login(users["bartek"])
    before = client.get(f"/players/{ala.pk}/").content.decode()
    assert 'id="accuracy"' in before and "No annotated deal of his yet." in before

    for link in club.season.season_matches.all():
        match_annotate(match_id=link.match_id)
    figure = season_accuracy(season_id=club.season.pk)[ala.pk]
    html = client.get(f"/players/{ala.pk}/").content.decode()
    section = html[html.index('id="accuracy"') : html.index('id="rating"')]

    assert "paper sheet" in section
    assert f'href="/seasons/{club.season.pk}/players/{ala.pk}/"' in section
    assert f"{figure.share:.1f} % (of {figure.graded})" in section
    assert f"points lost per deal: {figure.lost_per_deal:.1f} (annotated deals: {figure.deals})" in section
    assert f'id="accuracy-plot-{club.season.pk}"' in section
    assert section.count("<circle ") - 1 == club.season.season_matches.count()  # a marker per match + the legend's


def test_a_cost_known_only_as_a_range_reads_as_points_lost_at_both_ends(client, users, finished_match):
    """A search cut short by its budget proves a card's cost as a range: the costliest cards,
    and the card's own label in the viewer, write it "−12…−40" (points lost, both ends), never
    "−12…40" nor only "−12"."""
    match_annotate(match_id=finished_match.pk)
    rows = DealAnnotation.objects.filter(match=finished_match)
    low = 1 + max(card["cost"][0] for row in rows for card in row.cards)  # the costliest card of the match
    high = low + 28
    row = rows.get(number=1)
    row.cards[5] = {**row.cards[5], "cost": [low, high], "grade": None}  # as a search cut short leaves it
    row.save(update_fields=["cards"])
    client.force_login(users["ala"])

    for url in (f"/matches/{finished_match.pk}/", deal_url(finished_match, 1)):
        html = client.get(url).content.decode()
        assert f"−{low}…−{high}" in html and f"−{low}…{high}" not in html, url
    label = re.search(r'aria-label="Play 6: [^"]*"', html).group()
    assert label.endswith(f'−{low}…−{high}"'), label
