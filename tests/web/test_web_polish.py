"""Issue 25, items 1, 2 and 5: the pages a club member reads, in Polish, pass the Polish check
(tests/support/polish_check.py): no English status code, no username where the person has a display
name, no decimal point, no ISO date, no hyphen for a minus; and the check itself fails on each."""

import datetime

import pytest
from support.polish_check import page_text, polish_problems
from web_helpers import club_with_standings, imported_match

from games.models import Player
from games.write import signoffs
from scoring import services as scoring
from scoring.models import SeasonMatch

pytestmark = pytest.mark.django_db

# Display names that differ from the accounts' usernames, with the letters Polish collation orders
NAMES = {
    "ala": "Łucja Żak",
    "bartek": "Bartłomiej Łoś",
    "celina": "Celina Ćwik",
    "darek": "Jędrzej Źrebiec",
    "scorer": "Zofia Wiśniewska",
}


@pytest.fixture
def polish_club(users, django_user_model, settings):
    settings.LANGUAGE_CODE = "pl"
    club = club_with_standings(users, django_user_model)
    for username, name in NAMES.items():
        Player.objects.update_or_create(user=users[username], defaults={"username": name})
    return club


def polish(client, user, url) -> str:
    client.force_login(user)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 200, url
    assert response["Content-Language"] == "pl"
    return page_text(response.content)


def test_every_page_of_a_season_reads_as_polish(client, users, polish_club):
    season = polish_club.season
    match = SeasonMatch.objects.filter(season=season).first().match
    scoring.season_close(actor=polish_club.ada, season_id=season.pk, reason="koniec")
    pages = {
        "club": f"/clubs/{polish_club.pk}/",
        "season": f"/seasons/{season.pk}/",
        "summary": f"/seasons/{season.pk}/summary/",
        "match": f"/matches/{match.pk}/",
        "deal": f"/matches/{match.pk}/deals/1/",
        "matches": "/matches/",
        "invitations": "/invitations/",
    }
    for name, url in pages.items():
        text = polish(client, users["ala"], url)
        assert not polish_problems(text, NAMES), (name, polish_problems(text, NAMES))
    members = polish(client, polish_club.ada, f"/clubs/{polish_club.pk}/members/")
    assert not polish_problems(members, NAMES, accounts=tuple(NAMES))  # its "Konto" column: the usernames


def test_the_standings_show_names_in_polish_order_with_decimal_commas(client, users, polish_club):
    text = polish(client, users["ala"], f"/seasons/{polish_club.season.pk}/")
    assert "Łucja Żak" in text and "ala " not in text
    assert "," in text and not polish_problems(text, NAMES)


def test_the_summary_says_first_place_not_a_masculine_title(client, users, polish_club):
    scoring.season_close(actor=polish_club.ada, season_id=polish_club.season.pk, reason="koniec")
    text = polish(client, users["ala"], f"/seasons/{polish_club.season.pk}/summary/")
    assert "1. miejsce" in text and "Mistrz" not in text and "Zwycięzca" not in text
    assert "UTC" not in text and "ada" in text  # the closing's time in Warsaw time, unlabelled


def test_a_withdrawal_names_who_withdrew_by_display_name(client, users, django_user_model, settings):
    settings.LANGUAGE_CODE = "pl"
    match = imported_match(users)
    Player.objects.update_or_create(user=users["staff"], defaults={"username": "Zofia Wiśniewska"})
    signoffs.match_withdraw(match_id=match.pk, actor=users["staff"], reason="zły stolik")  # staff rules on it
    text = polish(client, users["ala"], f"/matches/{match.pk}/")
    assert "Partia wycofana (decyzja: Zofia Wiśniewska)" in text
    assert "staff" not in text


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Stan: in_progress", "status code"),
        ("Wynik potwierdzony (filed)", "status code"),
        ("Bilans +8.07", "decimal point"),
        ("oczekuje (2026-12-10)", "ISO date"),
        ("Bilans -4", "hyphen for a minus"),
        ("przeliczono 08:56 UTC", "UTC"),
        ("Runda 1 · the table", "English"),
        ("Wycofana przez lucja", "username"),
    ],
)
def test_the_check_fails_on_each_kind_of_leftover(text, problem):
    found = polish_problems(text, {"lucja": "Łucja Nowak"})
    assert found and found[0].startswith(problem)


def test_the_check_passes_polish_as_a_club_writes_it():
    text = "3 grudnia 2026 19:05 · bilans −0,4 i +8,07 · R32 (c): kiery · lewy 1-13 · Łucja Nowak · R/O"
    assert polish_problems(text, {"lucja": "Łucja Nowak"}) == []


def test_page_text_reads_main_only_without_scripts():
    html = '<header>Sign out</header><main><h1>Sezon</h1><script>var x = "the";</script><input value="1.5"></main>'
    assert page_text(html) == "Sezon"


def test_dates_are_polish_on_pages(client, users, polish_club):
    polish_club.season.start_date = datetime.date(2026, 12, 1)
    polish_club.season.save()
    text = polish(client, users["ala"], f"/clubs/{polish_club.pk}/")
    assert "1 grudnia 2026" in text
