"""Disputes and rulings on a phone, in Polish, in Debian's chromium: a seated player finds the
disputes page from the score sheet and disputes a card; the arbiter sees that the log is intact,
rules an adjustment, is told which seat's points lie outside the analysis with his typing kept,
gives his reason and records it; the ruling shows beside the played result on the score sheet.

Set ``WEB_SCREENSHOTS=<dir>`` to keep a screenshot of each step."""

import pytest
from support.polish_check import assert_polish, page_text
from web_helpers import PHONE, imported_match, keep, phone_tab

from games.domain.event_types import RulingRecorded
from games.domain.log import stream

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def fits(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]


def test_on_a_phone_a_player_disputes_a_card_and_the_arbiter_rules_on_it(browser, live_server, users):
    match = imported_match(users)
    page, refused = phone_tab(browser, live_server.url, users["ala"], "pl")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.click("#disputes-link")
    page.wait_for_url(f"{live_server.url}/matches/{match.pk}/disputes/")
    assert page.inner_text("h1") == "Protesty i orzeczenia" and fits(page)

    page.select_option("#id_deal", "1")
    page.fill("#id_card", "49")
    page.fill("#id_statement", "   ")  # no statement: refused, the card kept
    page.click("#raise-dispute button[type=submit]")
    page.wait_for_selector("#error-statement")
    assert page.input_value("#id_card") == "49" and fits(page)
    page.fill("#id_statement", "W zagrał kiera, choć miał pika.")
    page.click("#raise-dispute button[type=submit]")
    page.wait_for_selector("article.dispute[data-open=true]")
    assert "czeka na orzeczenie" in page.inner_text("#disputes") and fits(page)
    assert_polish(page_text(page.content()), "the player's disputes page")
    keep(page, "disputes-player-pl")

    arbiter, refused_too = phone_tab(browser, live_server.url, users["staff"], "pl")
    arbiter.goto(f"{live_server.url}/matches/{match.pk}/disputes/")
    assert arbiter.get_attribute("#audit", "data-ok") == "true"
    assert arbiter.inner_text("#audit h2") == "Czy dziennik jest nienaruszony?"
    arbiter.click("details.ruling summary")
    arbiter.check("input[name=type][value=score_adjusted]")
    played = {seat: int(arbiter.input_value(f"details.ruling input[name={seat}]")) for seat in "NESW"}
    assert played == match.projection.summary["deals"][0]["points"]  # the fields start as played
    arbiter.fill("details.ruling input[name=N]", "300")
    arbiter.fill("details.ruling textarea[name=reason]", "Rewoka W: lewy od 49. karty dla N.")
    arbiter.click("details.ruling button[type=submit]")
    arbiter.wait_for_selector("ul.outside")
    assert arbiter.locator("ul.outside li").count() == 1 and "N: +300" in arbiter.inner_text("ul.outside")
    assert arbiter.locator("#error-override").is_visible() and fits(arbiter)
    assert arbiter.input_value("details.ruling input[name=N]") == "300"
    keep(arbiter, "disputes-arbiter-outside-pl")
    arbiter.fill("details.ruling textarea[name=override]", "Kara regulaminowa klubu za rewokę.")
    arbiter.click("details.ruling button[type=submit]")
    arbiter.wait_for_selector("article.dispute[data-open=false]")
    assert "punkty skorygowane" in arbiter.inner_text("#disputes") and fits(arbiter)
    assert_polish(page_text(arbiter.content()), "the arbiter's disputes page")
    keep(arbiter, "disputes-arbiter-ruled-pl")

    [ruling] = [item.event for item in stream(match, RulingRecorded)]
    assert (ruling.ruling, ruling.points["N"]) == ("score_adjusted", 300)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    assert "punkty skorygowane" in page.inner_text("#rulings")
    assert refused == [] and refused_too == []
