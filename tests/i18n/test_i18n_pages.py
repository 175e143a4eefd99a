"""The pages in Polish by default and in English on request: chosen by Accept-Language, then by
the switch on every page; times in TIME_ZONE (Warsaw), dates and numbers as Poles write them."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from i18n_helpers import PLAYERS, autumn_season, english_leftovers, polish_people, ruled_match, sample, visible_text
from support.once import fresh, once_per_module
from support.polish_check import page_text, polish_problems

pytestmark = pytest.mark.django_db

# Names the pages show as data (users, club, season, statements), never words to translate.
NAMES = {*PLAYERS, "zenon", "wanda", "ada", "Klub", "Kierkowy", "Liga", "Jesie"}


def build():
    """The conftest's rows, built once for the module (support.once): the pages only read them."""
    users = polish_people(get_user_model())
    return users, ruled_match(users), autumn_season(users)


built = once_per_module(build)


@pytest.fixture
def users(built):
    return dict(built[0])


@pytest.fixture
def finished_match(built):
    return fresh(built[1])


@pytest.fixture
def season(built):
    return fresh(built[2])


def get(client, user, url, language=None, **kwargs):
    if user is not None:
        client.force_login(user)
    headers = {"accept-language": language} if language else None
    return client.get(url, headers=headers, **kwargs)


def pages(users, finished_match, season):
    """(who, url) of every page a club member reads: score sheet, deal viewer, standings, his
    matches, the record viewer, a 404."""
    return [
        (users["ala"], f"/matches/{finished_match.pk}/"),
        (users["ala"], f"/matches/{finished_match.pk}/deals/3/"),
        (users["ala"], f"/seasons/{season.pk}/"),
        (users["ala"], "/matches/"),
        (users["ala"], "/records/view/"),
        (users["ala"], "/matches/00000000-0000-0000-0000-000000000000/"),
        (None, "/accounts/login/"),
    ]


def test_every_page_asked_in_polish_shows_no_english(client, users, finished_match, season):
    for user, url in pages(users, finished_match, season):
        client.logout()
        response = get(client, user, url, "pl")
        html = response.content.decode()

        assert response["Content-Language"] == "pl", url
        assert '<html lang="pl">' in html, url
        assert english_leftovers(html, names=NAMES) == set(), url
        assert polish_problems(page_text(html)) == [], url  # no status code, decimal point, ISO date…


def test_the_record_viewer_shows_an_illegal_play_in_polish(client, users):
    record = sample("m1-legal")
    record["deals"][0]["plays"][0], record["deals"][0]["plays"][1] = (
        record["deals"][0]["plays"][1],
        record["deals"][0]["plays"][0],
    )
    client.force_login(users["ala"])
    response = client.post(
        "/records/view/", {"record": json.dumps(record), "deal": ""}, headers={"accept-language": "pl"}
    )
    html = response.content.decode()

    assert "Protokół narusza zasadę:" in html
    assert english_leftovers(html, names=NAMES) == set()


def test_a_bad_record_is_refused_in_the_readers_language(client, users):
    client.force_login(users["ala"])
    polish = client.post("/records/view/", {"record": "{", "deal": ""}, headers={"accept-language": "pl"})
    english = client.post("/records/view/", {"record": "{", "deal": ""}, headers={"accept-language": "en"})

    assert polish.status_code == english.status_code == 400
    assert "niepoprawny JSON" in polish.content.decode()
    assert "not valid JSON" in english.content.decode()


def test_every_page_asked_in_english_is_english(client, users, finished_match, season):
    for user, url in pages(users, finished_match, season):
        client.logout()
        html = get(client, user, url, "en").content.decode()
        assert '<html lang="en">' in html, url
        assert english_leftovers(html, names=NAMES), url  # the check above would see English
    sheet = visible_text(get(client, users["ala"], f"/matches/{finished_match.pk}/", "en").content.decode())
    assert "Score sheet" in sheet and "Totals" in sheet and "Rulings" in sheet
    assert "Razem" not in sheet and "Orzeczenia" not in sheet


def test_polish_is_the_default_when_the_browser_asks_for_neither(client, users, finished_match, settings):
    settings.LANGUAGE_CODE = "pl"  # the project's setting (tests/conftest.py makes the suite English)
    plain = visible_text(get(client, users["ala"], f"/matches/{finished_match.pk}/").content.decode())
    german = visible_text(get(client, users["ala"], f"/matches/{finished_match.pk}/", "de").content.decode())

    assert "Zapis" in plain and "Razem" in plain
    assert "Razem" in german


def test_the_switch_on_every_page_keeps_the_chosen_language(client, users, finished_match, season):
    for user, url in pages(users, finished_match, season):
        client.logout()
        html = get(client, user, url, "pl").content.decode()
        assert 'action="/i18n/setlang/"' in html and 'name="language" value="en"' in html, url

    client.force_login(users["ala"])
    sheet = f"/matches/{finished_match.pk}/"
    switched = client.post(
        "/i18n/setlang/", {"language": "en"}, headers={"referer": f"http://testserver{sheet}", "accept-language": "pl"}
    )
    assert switched.status_code == 302 and switched["Location"] == f"http://testserver{sheet}"
    # the browser still prefers Polish, but the reader chose English
    assert "Totals" in visible_text(get(client, None, sheet, "pl").content.decode())

    client.post("/i18n/setlang/", {"language": "pl"}, headers={"referer": f"http://testserver{sheet}"})
    assert "Razem" in visible_text(get(client, None, sheet, "en").content.decode())


def test_times_are_shown_in_warsaw_and_dates_in_polish(client, users, finished_match, season):
    # the match was filed and ruled at 10:00 UTC on 1 September 2026: 12:00 in Warsaw (CEST)
    listing = visible_text(get(client, users["ala"], "/matches/", "pl").content.decode())
    rulings = visible_text(get(client, users["ala"], f"/matches/{finished_match.pk}/", "pl").content.decode())
    standings = visible_text(get(client, users["ala"], f"/seasons/{season.pk}/", "pl").content.decode())

    assert "1 września 2026 12:00" in listing
    assert "UTC" not in rulings
    assert "1 września 2026" in standings  # the season's start date
    english = visible_text(get(client, users["ala"], "/matches/", "en").content.decode())
    assert "Sept. 1, 2026, noon" in english


def test_the_time_zone_comes_from_the_setting(client, users, finished_match, settings):
    settings.TIME_ZONE = "America/New_York"
    listing = visible_text(get(client, users["ala"], "/matches/", "pl").content.decode())
    assert "1 września 2026 06:00" in listing


def test_the_api_keeps_timestamps_in_utc_whatever_the_time_zone(users, finished_match, season):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(users["ala"])
    response = client.get(f"/api/v1/matches/{finished_match.pk}/", headers={"accept-language": "pl"})

    assert response.status_code == 200
    assert response.json()["created_at"] == "2026-09-01T10:00:00Z"
    standings = client.get(f"/api/v1/seasons/{season.pk}/standings/").json()
    computed = standings.get("computed_at") if isinstance(standings, dict) else None
    if computed:
        assert computed.endswith("Z")


def test_numbers_use_the_polish_decimal_comma(client, users, season):
    from django.utils import translation

    from web.templatetags.web_tags import per_match

    with translation.override("pl"):
        assert per_match(-12.5) == "−12,50" and per_match(3) == "+3,00"
    with translation.override("en"):
        assert per_match(-12.5) == "−12.50"
    html = get(client, users["ala"], f"/seasons/{season.pk}/", "pl").content.decode()
    assert re.search(r"<td class=\"num\">[+−]\d+,\d\d</td>", html)  # balance per match


def test_the_deal_viewer_speaks_polish(client, users, finished_match):
    html = get(client, users["ala"], f"/matches/{finished_match.pk}/deals/3/", "pl").content.decode()
    found = re.search(r'<script id="viewer-text" type="application/json">(.*?)</script>', html, re.S)
    texts = json.loads(found.group(1))

    assert texts["suits"]["H"] == "kier" and texts["ranks"]["Q"] == "dama"
    assert texts["card"] % {"rank": "dama", "suit": "kier"} == "dama kier"
    assert 'title="dama kier"' in html or 'title="król kier"' in html  # the cards' names in the trick list


def test_the_annotated_deal_and_the_matchs_annotations_speak_polish(client, users, finished_match, settings):
    """Issue 27 items 2–4: the grades, the costliest cards, each seat's range after each trick
    (a real minus sign, as every other number) and the match's progress, in Polish."""
    from scoring.annotations import match_annotate

    settings.ANNOTATION_BUDGET_NODES = 20_000  # most cards graded, the first ones not: both texts show
    match_annotate(match_id=finished_match.pk)
    pages = {
        f"/matches/{finished_match.pk}/deals/3/": "Rozdanie z oceną kart",
        f"/matches/{finished_match.pk}/": "Rozdania z oceną kart",
    }
    for url, heading in pages.items():
        html = get(client, users["ala"], url, "pl").content.decode()

        assert heading in html, url
        assert english_leftovers(html, names=NAMES) == set(), url
        problems = polish_problems(page_text(html))
        assert problems == [], "\n".join(problems)
