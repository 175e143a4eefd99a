"""A deal's page on a match whose stored log was changed outside the service, on a 360 px phone in
Chromium: the scorer reads in Polish that the log cannot be read, which event, and that nothing
was saved, where the page was a server error; the link leads back to his matches."""

import pytest
from support.event_table import json_param, tamperable
from support.polish_check import assert_polish
from web_helpers import PHONE, keep, phone_tab

from games.domain.chain import canonical_json
from games.models import MatchEvent
from games.write import states

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_scorer_reads_on_his_phone_that_the_log_cannot_be_read(browser, live_server, users, live_match):
    row = MatchEvent.objects.filter(match=live_match, type="card_played").order_by("seq")[4]
    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
            [canonical_json({**row.payload, "card": "ZZ"}).decode(), row.pk],
        )
    states.forget_all()
    page, _ = phone_tab(browser, live_server.url, users["scorer"], "pl")

    response = page.goto(f"{live_server.url}/matches/{live_match.pk}/deals/1/")

    keep(page, "log-unreadable-pl")
    assert response.status == 409
    assert page.locator("h1").inner_text() == "Zapisu partii nie da się odczytać"
    assert f"Zdarzenie {row.seq} (card_played)" in page.locator("#log-unreadable").inner_text()
    assert_polish(page.locator("main").inner_text())
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    assert page.locator("main").bounding_box()["width"] <= PHONE["width"]
    page.get_by_role("link", name="Wróć do listy partii").click()
    page.wait_for_url(f"{live_server.url}/matches/")
