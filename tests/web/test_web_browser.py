"""The deal viewer in a real browser: Playwright drives Debian's chromium headless (no browser
download) against a live server. Sign in, open a deal, step with the buttons and the keys, and
check the hands, the trick, the legal cards and the trick's winner against the engine.

Set ``WEB_SCREENSHOTS=<dir>`` to keep screenshots of what the browser showed."""

import json
import os
from pathlib import Path

import pytest
from web_helpers import SEATS, expected, oracle, sample

from games import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"


@pytest.fixture
def table(django_user_model):
    """m1-legal filed by ``scorer``; ``ala`` (seat N) and ``staff`` may sign in; bartek disputes
    the sixth card of deal 1."""
    from games import disputes

    make = django_user_model.objects.create_user
    make("ala", password=PASSWORD)
    make("staff", password=PASSWORD, is_staff=True)
    bartek = make("bartek")
    for name in ("celina", "darek"):
        make(name)
    scorer = make("scorer")
    match = services.record_import(actor=scorer, record=sample("m1-legal"))
    disputes.dispute_raise(match_id=match.pk, actor=bartek, deal=1, play_index=5, statement="a revoke, surely")
    return match


def sign_in(browser, url: str, username: str):
    """Open ``url``: the login page comes first, then the page itself."""
    page = browser.new_page(viewport={"width": 1360, "height": 1000})
    page.goto(url)
    assert "/accounts/login/" in page.url
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(url)
    return page


def screenshot(page, name: str) -> None:
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def cards(page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("nodes => nodes.map(n => n.dataset.card)")


def hands(page) -> dict[str, list[str]]:
    return {seat: sorted(cards(page, f"#hand-{seat} .card")) for seat in SEATS}


def trick(page) -> dict[str, str]:
    return {seat: found[0] for seat in SEATS if (found := cards(page, f"#trick-{seat} .card"))}


def counter(page) -> str:
    return page.inner_text("#step-counter")


def test_stepping_through_a_deal_with_buttons_and_keys(live_server, table, browser):
    record = sample("m1-legal")
    truth = oracle(record, 1)
    page = sign_in(browser, f"{live_server.url}/matches/{table.pk}/deals/1/", "ala")

    # step 0: the hands as dealt; the leader on turn with his legal cards marked
    assert counter(page) == "Dealt · 0 / 52"
    assert hands(page) == truth[0]["hands_before"]
    leader = truth[0]["seat"]
    assert "on-turn" in page.get_attribute(f"#seat-{leader}", "class")
    assert sorted(cards(page, f"#hand-{leader} .card.legal")) == truth[0]["legal"]
    assert trick(page) == {}
    screenshot(page, "deal-1-dealt")

    # forward (button): the first card on the table, its legal alternatives listed
    page.click("#go-forward")
    first = truth[0]
    assert counter(page) == "Play 1 / 52"
    assert trick(page) == {first["seat"]: first["card"]}
    assert first["card"] not in cards(page, f"#hand-{first['seat']} .card")
    assert sorted(cards(page, "#play-legal .card")) == first["legal"]
    assert cards(page, "#play-legal .card.played") == [first["card"]]
    assert page.get_attribute("#play-text", "aria-live") == "polite"
    assert f"{first['seat']} (" in page.inner_text("#play-text")
    assert sorted(cards(page, f"#hand-{truth[1]['seat']} .card.legal")) == truth[1]["legal"]

    # forward (key) to the end of the first trick: its winner is marked
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert counter(page) == "Play 4 / 52"
    winner = truth[3]["winner"]
    assert trick(page) == {seen["seat"]: seen["card"] for seen in truth[:4]}
    assert page.locator("#trick .slot.winner").count() == 1
    assert cards(page, "#trick .slot.winner .card") == [trick(page)[winner]]
    assert f"won by {winner}" in page.inner_text("#trick-caption")
    assert page.inner_text(f"#tricks-{winner}") == "1"
    assert "on-turn" in page.get_attribute(f"#seat-{winner}", "class")
    screenshot(page, "deal-1-trick-1-won")

    # back (key): the trick is incomplete again, nobody has won it
    page.keyboard.press("ArrowLeft")
    assert counter(page) == "Play 3 / 52"
    assert len(trick(page)) == 3 and page.locator("#trick .slot.winner").count() == 0
    assert hands(page) == truth[3]["hands_before"]
    assert sorted(cards(page, f"#hand-{truth[3]['seat']} .card.legal")) == truth[3]["legal"]

    # End and Home keys; the last and first buttons
    page.keyboard.press("End")
    assert counter(page) == "Play 52 / 52"
    assert hands(page) == {seat: [] for seat in SEATS}
    taken = {seat: int(page.inner_text(f"#tricks-{seat}")) for seat in SEATS}
    assert taken == expected("m1-legal")["deals"][0]["tricks"]
    assert f"won by {truth[-1]['winner']}" in page.inner_text("#trick-caption")
    page.keyboard.press("Home")
    assert counter(page) == "Dealt · 0 / 52" and trick(page) == {}
    page.click("#go-last")
    assert counter(page) == "Play 52 / 52"
    page.click("#go-back")
    assert counter(page) == "Play 51 / 52"
    page.click("#go-first")
    assert counter(page) == "Dealt · 0 / 52"

    # a play in the list of tricks jumps to its step
    page.click("button.jump[data-step='17']")
    assert counter(page) == "Play 17 / 52"
    assert trick(page)[truth[16]["seat"]] == truth[16]["card"]
    assert hands(page) == {seat: sorted(c) for seat, c in truth[17]["hands_before"].items()}
    assert page.get_attribute("button.jump[data-step='17']", "aria-current") == "step"
    screenshot(page, "deal-1-play-17")

    # the disputed sixth card: marked in the list, its dispute shown, and no rule broken
    assert "disputed" in page.get_attribute("button.jump[data-step='6']", "class")
    page.click("button.jump[data-step='6']")
    assert page.locator("#play-disputes").is_visible()
    assert "a revoke, surely" in page.inner_text("#play-disputes")
    assert "no rule broken" in page.inner_text("#play-disputes")
    assert not page.locator("#play-violation").is_visible()
    screenshot(page, "deal-1-disputed-play-6")


def test_the_score_sheet_links_to_the_table_view(live_server, table, browser):
    page = sign_in(browser, f"{live_server.url}/matches/{table.pk}/", "ala")
    summary = expected("m1-legal")
    assert page.locator("#zapis tbody tr").count() == len(summary["deals"])
    screenshot(page, "score-sheet")
    page.click("#zapis tbody tr[data-deal='2'] a")
    page.wait_for_url(f"{live_server.url}/matches/{table.pk}/deals/2/")
    assert counter(page) == "Dealt · 0 / 52"


def test_an_illegal_play_in_a_pasted_record_shows_the_rule_it_breaks(live_server, table, browser):
    error = expected("m1-illegal")["error"]
    page = sign_in(browser, f"{live_server.url}/records/view/", "staff")
    page.fill("#id_record", json.dumps(sample("m1-illegal")))
    page.click("form.record-form button[type=submit]")
    page.wait_for_selector("#viewer")
    plays = len(sample("m1-illegal")["deals"][error["deal"] - 1]["plays"])
    at_the_illegal_play = f"Play {error['play_index'] + 1} / {plays}"  # where the page's script opens it
    page.wait_for_function(
        "text => document.querySelector('#step-counter').innerText === text", arg=at_the_illegal_play, timeout=10_000
    )  # a busy machine runs the script late
    assert counter(page) == at_the_illegal_play
    violation = page.locator("#play-violation")
    assert violation.is_visible()
    assert error["code"] in violation.inner_text()
    assert "illegal" in page.get_attribute(f"#trick-{error['seat']}", "class")
    assert error["card"] not in cards(page, "#play-legal .card")
    screenshot(page, "record-illegal-play")
    page.keyboard.press("ArrowLeft")
    assert not page.locator("#play-violation").is_visible()
