"""The deal viewer in a real browser: Playwright drives Debian's chromium headless (no browser
download) against a live server. Sign in, open a deal, step with the buttons and the keys, and
check the hands, the trick, the legal cards and the trick's winner against the engine; the
analysis panel shows an arbiter each seat's range and the cost of each legal card in the deal in
play, and shows a player of that deal nothing.

Set ``WEB_SCREENSHOTS=<dir>`` to keep screenshots of what the browser showed."""

import json
import os
from pathlib import Path

import pytest
from web_helpers import PLAYERS, SEATS, expected, oracle, sample

from games.write import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase"


@pytest.fixture(autouse=True)
def analysis_in_the_request(monkeypatch):
    """The live server computes an analysis job at once, as under ``make run``, without Celery:
    whatever an earlier test left in the Celery app (a broker, a closed producer pool, which even
    an eager task acquires)."""
    from games.tasks import analyse_position

    monkeypatch.setattr(analyse_position, "delay", lambda **job: analyse_position.run(**job))


@pytest.fixture
def table(django_user_model):
    """m1-legal filed by ``scorer``; ``ala`` (seat N) and ``staff`` may sign in; bartek disputes
    the sixth card of deal 1."""
    from games.write import disputes

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


# --- the analysis panel (issue 17) ----------------------------------------------------------------------

IN_PLAY = 3  # m1-legal's third deal (a compensating odgrywka, its lead sold) is in play…
PLAYED = 36  # …with 36 of its cards on the table: what is left is analysed exactly at once
RANGE = ("worst", "best", "guaranteed")


@pytest.fixture
def club_match(django_user_model, settings):
    """A season match of club ``kk`` recorded by its scorer: m1-legal's deals 1 and 2 played, deal
    3 dealt, sold and 36 cards in. ``ola`` is an arbiter of the club, ``ala`` plays N; both may
    sign in."""
    from scoring import services as scoring

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, for tests only
    make = django_user_model.objects.create_user
    users = {name: make(name) for name in (*PLAYERS[1:], "ada", "scorer")}
    users |= {name: make(name, password=PASSWORD) for name in ("ala", "ola")}
    ada, scorer = users["ada"], users["scorer"]
    club = scoring.club_create(actor=ada, name="Klub Kierkowy", slug="kk")
    for name, role in [*((player, "member") for player in PLAYERS), ("scorer", "scorer"), ("ola", "arbiter")]:
        scoring.membership_set(actor=ada, club_id=club.pk, username=name, role=role)
    record = sample("m1-legal")
    league = scoring.league_create(actor=ada, club_id=club.pk, name="Liga", ruleset=record["ruleset"])
    season = scoring.season_create(actor=ada, league_id=league.pk, name="Wiosna")
    match = scoring.season_match_create(
        actor=scorer,
        season_id=season.pk,
        seats=dict(zip(SEATS, PLAYERS)),
        first_dealer=record["first_dealer"],
        dealing="recorded",
    )
    for number, deal in enumerate(record["deals"][:IN_PLAY], 1):
        services.deal_start(match_id=match.pk, actor=scorer, hands=deal["hands"])
        if "sale" in deal:
            offered = services.lead_offer(
                match_id=match.pk, actor=scorer, price=deal["sale"]["price"], seat=deal["sale"]["buyer"]
            )
            services.lead_decide(match_id=match.pk, actor=scorer, offer=offered.events[0].seq)
        for card in deal["plays"][:PLAYED] if number == IN_PLAY else deal["plays"]:
            services.card_play(match_id=match.pk, actor=scorer, card=card)
    return match


def deal_data(page) -> dict:
    return page.evaluate("() => JSON.parse(document.getElementById('deal-data').textContent)")


def shown_points(text: str) -> int:
    """Points as the page writes them: a real minus sign (U+2212), never a hyphen."""
    assert "-" not in text, text
    return int(text.replace("−", "-"))


def panel(page) -> dict:
    """What the analysis panel shows: each seat's worst, best and guaranteed points, the seat
    marked on turn, and each card offered with its value and cost."""
    seats = {
        seat: {
            field: shown_points(page.inner_text(f"#analysis-table tr[data-seat='{seat}'] .{field}")) for field in RANGE
        }
        for seat in SEATS
    }
    on_turn = page.locator("#analysis-table tr.on-turn").evaluate_all("nodes => nodes.map(n => n.dataset.seat)")
    costs = page.locator("#analysis-cards .card-value").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.card, Number(n.dataset.cost)])"
    )
    return {"seats": seats, "on_turn": on_turn, "costs": dict(costs)}


def test_an_arbiter_sees_each_seats_range_and_the_cost_of_each_legal_card(live_server, club_match, browser):
    truth = oracle(sample("m1-legal"), IN_PLAY)
    page = sign_in(browser, f"{live_server.url}/matches/{club_match.pk}/", "ola")
    assert "you: arbiter" in page.inner_text("body")
    page.click("#in-play a")  # the deal in play: its table is open to the club's arbiters
    page.wait_for_url(f"{live_server.url}/matches/{club_match.pk}/deals/{IN_PLAY}/")
    links = deal_data(page)["analysis"]
    assert links is not None and len(links["seqs"]) == PLAYED + 1

    for steps_back, shown in ((0, PLAYED), (4, PLAYED - 4)):  # the position reached (S to play), then N to play
        page.keyboard.press("End")
        for _ in range(steps_back):
            page.keyboard.press("ArrowLeft")
        assert counter(page).startswith(f"Play {shown} /")
        page.wait_for_selector("#analysis-table:not([hidden])", timeout=30_000)  # asked for after a pause
        answer = page.request.get(f"{live_server.url}{links['url']}?at={links['seqs'][shown]}").json()["analysis"]
        seen = panel(page)
        on_turn = truth[shown]["seat"]
        assert hands(page) == truth[shown]["hands_before"]  # every hand: the arbiter sees them all
        assert seen["seats"] == {seat: {field: answer["seats"][seat][field] for field in RANGE} for seat in SEATS}
        assert all(r["worst"] <= r["guaranteed"] <= r["best"] for r in seen["seats"].values())
        assert seen["on_turn"] == [on_turn] == [answer["to_play"]]
        assert sorted(seen["costs"]) == truth[shown]["legal"] and len(seen["costs"]) > 1  # each legal card, valued
        top = max(answer["cards"].values())
        assert seen["costs"] == {card: top - value for card, value in answer["cards"].items()}
        assert top == seen["seats"][on_turn]["guaranteed"] and 0 in seen["costs"].values()
        for card, cost in seen["costs"].items():  # as the reader sees it: the value, and the cost when there is one
            shown_text = page.inner_text(f"#analysis-cards .card-value[data-card='{card}']")
            value = str(answer["cards"][card]).replace("-", "−")
            assert shown_text.endswith(f"{value} (−{cost})" if cost else value)
        if shown == PLAYED:
            assert max(seen["costs"].values()) > 0  # here three of S's four cards cost him 10
        assert "Analysing" not in page.inner_text("#analysis-status")
        screenshot(page, f"analysis-deal-{IN_PLAY}-play-{shown}")


def test_a_player_of_the_deal_in_play_sees_no_table_and_no_analysis_of_it(live_server, club_match, browser):
    url = f"{live_server.url}/matches/{club_match.pk}/"
    page = sign_in(browser, url, "ala")
    assert page.locator("#in-play").is_visible() and page.locator("#in-play a").count() == 0  # no table view

    page.goto(f"{url}deals/{IN_PLAY}/")  # asked for all the same: a 404 that shows nothing of it
    assert page.locator("#viewer, #deal-data, #analysis, .card").count() == 0
    assert "data-card" not in page.content()  # not one card of any hand, his own included
    screenshot(page, "analysis-player-deal-in-play")

    page.goto(f"{url}deals/{IN_PLAY - 1}/")  # a finished deal: his to replay, with its analysis
    assert page.locator("#analysis").is_visible()
    seqs = deal_data(page)["analysis"]["seqs"]
    analysis = f"{live_server.url}/api/v1/matches/{club_match.pk}/analysis/"
    assert page.request.get(f"{analysis}?at={seqs[-1]}").ok
    assert page.request.get(analysis).status == 403  # the deal in play: no advice drawn from hidden hands


def test_a_position_still_being_computed_shows_analysing_until_its_answer_arrives(live_server, club_match, browser):
    """Issue 30, finding 2: a new position is computed by a job; the API answers 202 with
    Retry-After meanwhile (429 while the user's other jobs run), and the panel keeps saying so
    and asks again (here a 429, then a 202, as with a broker and a busy worker)."""
    page = sign_in(browser, f"{live_server.url}/matches/{club_match.pk}/", "ola")
    asked = []

    def pending_twice(route):
        asked.append(route.request.url)
        if len(asked) > 2:
            return route.continue_()
        if len(asked) == 1:  # the user's other jobs still run
            body = json.dumps({"status": 429, "code": "throttled"})
            return route.fulfill(
                status=429, headers={"Retry-After": "1"}, content_type="application/problem+json", body=body
            )
        body = json.dumps({"status": "pending", "poll": route.request.url})
        return route.fulfill(status=202, headers={"Retry-After": "1"}, content_type="application/json", body=body)

    page.route("**/api/v1/matches/*/analysis/*", pending_twice)
    page.click("#in-play a")
    page.wait_for_url(f"{live_server.url}/matches/{club_match.pk}/deals/{IN_PLAY}/")
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.includes('Analysing')")
    assert page.locator("#analysis-table").is_hidden()

    page.wait_for_selector("#analysis-table:not([hidden])", timeout=30_000)
    assert len(asked) == 3 and len(set(asked)) == 1  # the same position, asked again after each 202
    assert "Analysing" not in page.inner_text("#analysis-status")
