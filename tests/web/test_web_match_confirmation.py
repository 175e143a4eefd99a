"""The match page's confirmation line (issue 23, item 5): "confirmed" only once there is a result,
and the rule that confirmed it in words, never its raw code ("Wynik potwierdzony (filed)" was shown
before any deal was filed)."""

import re

import pytest
from web_helpers import recorded_match

from games.write import services

pytestmark = pytest.mark.django_db

TALLY = {
    "N": {"tricks": 0, "hearts": 0, "queens": 0, "kings_jacks": 0, "king_of_hearts": False, "last_tricks": 0},
    "E": {"tricks": 3, "hearts": 4, "queens": 1, "kings_jacks": 2, "king_of_hearts": False, "last_tricks": 0},
    "S": {"tricks": 6, "hearts": 5, "queens": 2, "kings_jacks": 4, "king_of_hearts": True, "last_tricks": 2},
    "W": {"tricks": 4, "hearts": 4, "queens": 1, "kings_jacks": 2, "king_of_hearts": False, "last_tricks": 0},
}


def confirmation_text(client, match) -> str:
    html = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    block = re.search(r'<div class="confirmation" id="confirmation"[^>]*>(.*?)</div>', html, re.S).group(1)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", block)).strip()


@pytest.fixture
def officials_match(users):
    """Filed by ``staff``, an official who does not play in it: confirmed by the rule ``filed``."""
    match = recorded_match(users, scorer="staff")
    assert match.filed_by_official
    return match


def test_a_match_with_no_deal_filed_is_not_called_confirmed(client, users, officials_match):
    client.force_login(users["ala"])

    text = confirmation_text(client, officials_match)

    assert "potwierdzony" not in text
    assert text.startswith("Nie ma jeszcze wyniku")
    assert "(filed)" not in text


def test_a_filed_result_is_confirmed_by_a_rule_named_in_polish(client, users, officials_match):
    services.deal_tally(match_id=officials_match.pk, actor=users["staff"], tally=TALLY)
    client.force_login(users["ala"])

    text = confirmation_text(client, officials_match)

    assert text.startswith("Wynik potwierdzony: przez osoby funkcyjne spoza stołu.")
    assert not re.search(r"\b(filed|players|online)\b", text)
