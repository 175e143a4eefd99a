"""Corrections on the score-sheet page (issue 23, item 3): the latest filed row gets a "Popraw"
link that opens it as a form prefilled with its entry; saving (one Enter) files the correction
through ``games.write.services.deal_correct``; a refused correction keeps what was typed."""

import re

import pytest
from django.utils import translation
from web_helpers import PLAYERS, recorded_match, sheet_form

from games.models import MatchEvent

pytestmark = pytest.mark.django_db

N_TOOK_NOTHING = {  # R31: N took nothing, so a compensating odgrywka is due (R7)
    "N": (0, 0, 0, 0, False, 0),
    "E": (3, 4, 1, 2, False, 0),
    "S": (6, 5, 2, 4, True, 2),
    "W": (4, 4, 1, 2, False, 0),
}
ALL_TOOK = {
    "N": (3, 4, 1, 2, False, 0),
    "E": (3, 3, 1, 2, False, 0),
    "S": (4, 5, 1, 2, True, 2),
    "W": (3, 1, 1, 2, False, 0),
}


def form(tally, **extra) -> dict:
    return sheet_form(tally, **extra)


@pytest.fixture
def recorded(users):
    return recorded_match(users)


@pytest.fixture
def scorer(client, users):
    client.force_login(users["scorer"])
    with translation.override("pl"):
        yield client


def page(client, match, data=None, query=""):
    url = f"/matches/{match.pk}/sheet/{query}"
    headers = {"HTTP_ACCEPT_LANGUAGE": "pl"}
    return client.get(url, **headers) if data is None else client.post(url, data, **headers)


def value_of(html: str, name: str) -> str | None:
    found = re.search(rf'name="{re.escape(name)}"[^>]*value="([^"]*)"', html)
    return found.group(1) if found else None


def corrections(match) -> int:
    return MatchEvent.objects.filter(match=match, type="deal_corrected").count()


def test_the_latest_filed_row_opens_as_a_form_prefilled_with_its_entry(scorer, recorded):
    assert page(scorer, recorded, form(N_TOOK_NOTHING)).status_code == 302
    html = page(scorer, recorded).content.decode()
    assert 'id="correct-1"' in html and 'href="?popraw=1#correction"' in html

    opened = page(scorer, recorded, query="?popraw=1").content.decode()

    assert 'id="correction"' in opened and 'id="due-form"' not in opened  # one form: Enter saves the correction
    assert 'name="correct" value="1"' in opened
    assert value_of(opened, "E-hearts") == "4" and value_of(opened, "S-last_tricks") == "2"
    assert re.search(r'name="S-king_of_hearts"[^>]* checked', opened)


def test_saving_the_form_files_the_correction_and_the_totals_follow(scorer, recorded):
    page(scorer, recorded, form(N_TOOK_NOTHING))

    response = page(scorer, recorded, form(ALL_TOOK, correct="1"))

    assert response.status_code == 302 and corrections(recorded) == 1
    recorded.refresh_from_db()
    summary = recorded.projection.summary
    assert len(summary["deals"]) == 1 and summary["deals"][0]["points"]["N"] < 0  # N took hearts now
    assert not summary["next_deal"]["compensating"]  # no compensating odgrywka for N any more (R7)


def test_a_refused_correction_keeps_what_was_typed(scorer, recorded):
    page(scorer, recorded, form(N_TOOK_NOTHING))
    wrong = {**ALL_TOOK, "W": (3, 9, 1, 2, False, 0)}  # the hearts add up to more than 13 (R32)

    response = page(scorer, recorded, form(wrong, correct="1"))

    assert response.status_code == 400 and corrections(recorded) == 0
    html = response.content.decode()
    assert 'id="correction"' in html and value_of(html, "W-hearts") == "9"


def test_a_player_is_offered_no_correction(client, users, recorded, scorer):
    page(scorer, recorded, form(N_TOOK_NOTHING))
    client.force_login(users[PLAYERS[0]])  # seated N

    html = page(client, recorded, query="?popraw=1").content.decode()
    refused = page(client, recorded, form(ALL_TOOK, correct="1"))

    assert 'id="correct-1"' not in html and 'id="correction"' not in html
    assert refused.status_code == 403 and corrections(recorded) == 0


def test_the_page_needs_no_inline_script_or_style(scorer, recorded):
    page(scorer, recorded, form(N_TOOK_NOTHING))
    html = page(scorer, recorded, query="?popraw=1").content.decode()
    assert " style=" not in html and " onclick=" not in html and "<style" not in html
