"""The pages the merged branches added (the landing page, clubs, members, invitations, password
reset, season summary, an evening) speak Polish when asked and English on request, like the rest."""

import datetime as dt

import pytest
from i18n_helpers import PLAYERS, english_leftovers
from test_i18n_pages import NAMES, get

pytestmark = pytest.mark.django_db

INVITED = "Bożena"  # a profile's name: data, not a word to translate


@pytest.fixture
def club_pages(users, season):
    """(who, url) of the club pages: an evening of the season with round 1 seated, and an
    invitation to a profile added by name."""
    from scoring import evening_services, invitations

    club_id = season.league.club_id
    evening = evening_services.evening_create(
        actor=users["ada"], season_id=season.pk, date=dt.date(2026, 9, 8), rounds=2, players=list(PLAYERS)
    )
    evening_services.evening_round_seat(actor=users["ada"], evening_id=evening.pk, number=1, tables=[list(PLAYERS)])
    player = invitations.club_player_add(actor=users["ada"], club_id=club_id, name=INVITED)
    _, token = invitations.invitation_create(actor=users["ada"], club_id=club_id, player_id=player.pk)
    return [
        (users["ala"], "/"),
        (None, "/"),
        (users["ala"], "/clubs/"),
        (users["ala"], f"/clubs/{club_id}/"),
        (users["ada"], f"/clubs/{club_id}/members/"),
        (users["ala"], f"/seasons/{season.pk}/summary/"),
        (users["ala"], f"/evenings/{evening.pk}/"),
        (None, f"/invitations/{token}/"),
        (None, "/invitations/not-a-token/"),
        (None, "/accounts/password_reset/"),
    ]


def test_the_club_pages_asked_in_polish_show_no_english(client, club_pages):
    for user, url in club_pages:
        client.logout()
        response = get(client, user, url, "pl")
        html = response.content.decode()
        assert response.status_code == (400 if "not-a-token" in url else 200), url
        assert response["Content-Language"] == "pl", url
        assert english_leftovers(html, names={*NAMES, INVITED, "Bo", "ena"}) == set(), url


def test_the_club_pages_asked_in_english_are_english(client, club_pages):
    for user, url in club_pages:
        client.logout()
        html = get(client, user, url, "en").content.decode()
        assert '<html lang="en">' in html, url
        assert english_leftovers(html, names=NAMES), url
