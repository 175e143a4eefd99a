"""The table's score-sheet page (issue 23, item 2): a recorded match's deals filed row by row by
tally (R31) or points (R33) through ``games.write.services.deal_tally``; a fault is shown next to its
field in Polish with every typed value kept; the htmx check answers the same without storing;
running totals; the schedule laid out ahead."""

import re

import pytest
from django.utils import translation
from web_helpers import recorded_match, sheet_form

from games.models import MatchEvent

pytestmark = pytest.mark.django_db

# R31: a rozbójnik tally, one seat after the other (N took nothing).
GOOD = {
    "N": (0, 0, 0, 0, False, 0),
    "E": (3, 4, 1, 2, False, 0),
    "S": (6, 5, 2, 4, True, 2),
    "W": (4, 4, 1, 2, False, 0),
}
ALL_TOOK = {  # every player took a trick: no compensating deal (R7)
    "N": (3, 4, 1, 2, False, 0),
    "E": (3, 3, 1, 2, False, 0),
    "S": (4, 5, 1, 2, True, 2),
    "W": (3, 1, 1, 2, False, 0),
}


def form(tally=GOOD, **extra) -> dict:
    return sheet_form(tally, **extra)


@pytest.fixture
def recorded(users):
    """web_helpers.recorded_match: regular deals R, O, R; first dealer N; scored by ``scorer``."""
    return recorded_match(users)


@pytest.fixture
def scorer(client, users):
    client.force_login(users["scorer"])
    with translation.override("pl"):
        yield client


def page(client, match, data=None, path="sheet/"):
    url = f"/matches/{match.pk}/{path}"
    headers = {"HTTP_ACCEPT_LANGUAGE": "pl"}
    return client.get(url, **headers) if data is None else client.post(url, data, **headers)


def value_of(html: str, name: str) -> str:
    found = re.search(rf'name="{re.escape(name)}"[^>]*value="([^"]*)"', html)
    return found.group(1) if found else None


def error_of(html: str, name: str) -> str:
    found = re.search(rf'id="err-{re.escape(name)}"[^>]*>([^<]*)<', html)
    return found.group(1).strip() if found else None


def test_the_page_lays_out_the_deals_the_engine_schedules(scorer, recorded):
    html = page(scorer, recorded).content.decode()

    due = re.search(r'<tr class="due-row" id="due" data-deal="1">(.*?)</tr>', html, re.S).group(1)
    assert 'data-value="rozbojnik"' in due and '<td data-field="dealer">N</td>' in due
    ahead = re.findall(
        r'<tr class="ahead-row" data-deal="(\d)">.*?data-value="(\w+)".*?data-field="dealer">(\w)<', html, re.S
    )
    assert ahead == [("2", "odgrywka", "E"), ("3", "rozbojnik", "S")]  # R6: the dealer turns clockwise
    assert "<svg" in html  # the QR code to this page


def test_a_good_row_is_filed_by_one_post_and_the_running_totals_follow(scorer, recorded):
    response = page(scorer, recorded, form())

    assert response.status_code == 302
    html = page(scorer, recorded).content.decode()
    filed = re.search(r'<tr data-deal="1" class="filed-row">(.*?)</tr>', html, re.S).group(1)
    running = re.findall(r'data-field="running">(-?\d+)<', filed)
    # R31: E 2·3+2·4+5+3·2 = 25, S 12+10+10+12+16+18 = 78, W 8+8+5+6 = 27; R20, R22: negative,
    # × 2 for the one player (N) without a trick
    assert running == ["0", "-50", "-156", "-54"]
    assert re.findall(r'data-field="total">(-?\d+)<', html) == ["0", "-50", "-156", "-54"]
    assert MatchEvent.objects.filter(match=recorded, type="deal_tallied").count() == 1
    assert 'data-deal="2"' in re.search(r'<tr class="due-row"[^>]*>', html).group(0)  # the odgrywka is due


def test_a_refused_row_keeps_every_value_and_names_the_field_in_polish(scorer, recorded):
    typed = form({**GOOD, "W": (4, "x3", 1, 2, False, 0)})

    response = page(scorer, recorded, typed)

    html = response.content.decode()
    assert response.status_code == 400
    assert error_of(html, "W-hearts") == "kiery: wpisz liczbę całkowitą, 0 lub więcej"
    for name, value in typed.items():
        if name != "entry" and not name.endswith("king_of_hearts"):
            assert value_of(html, name) == value, name
    assert 'name="S-king_of_hearts" id="f-S-king_of_hearts" aria-label="S: król kier" checked' in html
    assert not MatchEvent.objects.filter(match=recorded, type="deal_tallied").exists()


def test_a_column_that_does_not_add_up_is_named_next_to_its_sum_without_english_keys(scorer, recorded):
    typed = form({**GOOD, "W": (4, 3, 1, 2, False, 0)})  # hearts 4 + 5 + 3 = 12 (R32 (c))

    html = page(scorer, recorded, typed).content.decode()

    fault = re.search(r'id="sum-hearts".*?class="field-error" role="status">([^<]*)<', html, re.S).group(1)
    assert fault == "kiery: razem 12, a powinno być 13 (R32)"
    assert value_of(html, "W-hearts") == "3"
    assert not re.search(r"\b(hearts|kings_jacks|last_tricks|tricks)\b", fault)


def test_a_player_without_a_trick_who_took_cards_is_told_at_his_tricks(scorer, recorded):
    typed = form({**GOOD, "N": (0, 1, 0, 0, False, 0), "E": (3, 3, 1, 2, False, 0)})

    html = page(scorer, recorded, typed).content.decode()

    assert error_of(html, "N-tricks") == "bez lewy nie ma kar: wszędzie 0 i bez króla kier (R32)"


def test_the_htmx_check_answers_the_fields_messages_and_stores_nothing(scorer, recorded):
    typed = form({**GOOD, "W": (4, 3, 1, 2, False, 0)})

    response = scorer.post(
        f"/matches/{recorded.pk}/sheet/check/", typed, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="pl"
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="sum-hearts" hx-swap-oob="true"' in html
    assert "kiery: razem 12, a powinno być 13 (R32)" in html
    assert 'id="err-W-hearts" role="status" hx-swap-oob="true"></span>' in html  # no fault there: cleared
    assert not MatchEvent.objects.filter(match=recorded, type="deal_tallied").exists()


def test_points_only_rows_are_filed_by_points(scorer, recorded):
    response = page(
        scorer, recorded, {"entry": "points", "N-points": "0", "E-points": "-50", "S-points": "-156", "W-points": "-54"}
    )

    assert response.status_code == 302
    event = MatchEvent.objects.get(match=recorded, type="deal_tallied")
    assert event.payload["entry"] == "points"


def test_points_the_engine_refuses_are_the_rows_message_with_the_points_kept(scorer, recorded):
    typed = {"entry": "points", "N-points": "0", "E-points": "-50", "S-points": "-156", "W-points": "-56"}

    html = page(scorer, recorded, typed).content.decode()

    message = re.search(r'id="row-error" role="alert">([^<]+)<', html).group(1)
    assert "R33" in message or "130" in message
    assert value_of(html, "W-points") == "-56"


def test_a_seated_player_files_his_tables_sheet_and_two_others_confirm_it(client, users, recorded):
    """Issue 23: a table's player files on his phone; the usual confirmation then applies — he
    is its filer, so two other seated players confirm (games/write/signoffs.py)."""
    client.force_login(users["ala"])
    assert 'id="due-form"' in page(client, recorded).content.decode()
    for number, typed in enumerate(
        [form(ALL_TOOK), {"entry": "points", "N-points": "40", "E-points": "30", "S-points": "30", "W-points": "30"}]
        + [form(ALL_TOOK)],
        1,
    ):
        assert page(client, recorded, typed).status_code == 302, number
    recorded.refresh_from_db()
    assert recorded.status == "finished" and not recorded.confirmed

    own = client.post(f"/matches/{recorded.pk}/confirmation/", HTTP_ACCEPT_LANGUAGE="pl")
    for name in ("bartek", "celina"):
        client.force_login(users[name])
        client.post(f"/matches/{recorded.pk}/confirmation/")
    recorded.refresh_from_db()

    assert own.status_code == 302 and recorded.confirmed
    filed_by = MatchEvent.objects.filter(match=recorded, type="deal_tallied").values_list("actor__username", flat=True)
    assert set(filed_by) == {"ala"}
    signed = [e.actor.username for e in MatchEvent.objects.filter(match=recorded, type="result_confirmed")]
    assert signed == ["bartek", "celina"]  # not the filer


def test_a_player_of_an_officials_match_who_files_makes_it_need_two_confirmations(client, users):
    match = recorded_match(users, scorer="staff")
    assert match.confirmed  # filed by an official who does not play: confirmed by the rule "filed"
    client.force_login(users["ala"])

    assert page(client, match, form()).status_code == 302
    match.refresh_from_db()

    assert not match.filed_by_official and not match.confirmed


def test_an_outsider_gets_404(client, users, recorded):
    client.force_login(users["outsider"])
    assert page(client, recorded).status_code == 404


def test_the_check_without_htmx_sends_back_to_the_page(scorer, recorded):
    response = scorer.post(f"/matches/{recorded.pk}/sheet/check/", form())

    assert response.status_code == 302 and response["Location"].endswith(f"/matches/{recorded.pk}/sheet/")


def test_the_page_loads_htmx_from_this_site_and_has_no_inline_script(scorer, recorded):
    response = page(scorer, recorded)

    html = response.content.decode()
    assert re.findall(r"<script[^>]*>", html) == ['<script src="/static/web/vendor/htmx-2.0.11.min.js">']
    assert "script-src 'self'" in response["Content-Security-Policy"]
