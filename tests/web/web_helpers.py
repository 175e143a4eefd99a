"""Helpers for the page tests: sample records seated with our users, the engine as the oracle
for what the deal viewer must show, and readers for the rendered pages."""

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import support
from django.test import Client
from support import PLAYERS, SEATS, expected  # noqa: F401 - re-exported
from support.servers import PHONE, phone_signed_in  # noqa: F401 - re-exported for the page tests
from support.world import people

from games.engine import MatchState, Ruleset, Seat
from games.engine.cards import BY_NAME
from games.write import services
from scoring import recompute
from scoring import services as scoring


def sample(name: str, players=PLAYERS) -> dict:
    """A sample record with ``players`` seated N, E, S, W."""
    return support.sample(name, players)


def oracle(record: dict, number: int) -> list[dict]:
    """What the engine says of deal ``number``, card by card: before each play the hands, the
    seat on turn and his legal cards; after it, the trick's winner when the play completed one."""
    options = record["ruleset"].get("options") or {}
    state = MatchState.start(Ruleset.from_options(options), Seat[record["first_dealer"]])
    for index, deal in enumerate(record["deals"][:number], 1):
        state = state.start_deal([[BY_NAME[c] for c in deal["hands"][s]] for s in SEATS])
        if deal.get("sale"):
            state = state.offer_lead(deal["sale"]["buyer"], deal["sale"]["price"]).decide_lead(0)
        if index == number:
            break
        for card in deal["plays"]:
            state = state.play(BY_NAME[card])
    deal = state.deal
    seen = []
    for card in record["deals"][number - 1]["plays"]:
        seat = deal.to_play
        before = {s.name: sorted(str(c) for c in deal.hand(s)) for s in Seat}
        legal = sorted(str(c) for c in deal.legal_cards(seat))
        deal = deal.play(BY_NAME[card])
        winner = Seat(deal.winners[-1]).name if len(deal.plays) % 4 == 0 else None
        seen.append(
            {
                "seat": seat.name,
                "card": card,
                "hands_before": before,
                "legal": legal,
                "winner": winner,
                "tricks": {s.name: deal.tricks[s] for s in Seat},
            }
        )
    return seen


def deal_data(response) -> dict:
    """The step list a deal page embeds (``json_script`` #deal-data)."""
    html = response.content.decode()
    found = re.search(r'<script id="deal-data" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page embeds no #deal-data"
    return json.loads(found.group(1))


class _Sheet(HTMLParser):
    """Collects the score sheet's cells, nested ones too: {deal: {(seat or None, field): data-value
    or text}}, and the totals row's {seat: value}."""

    def __init__(self):
        super().__init__()
        self.rows, self.totals, self.deal, self.open = {}, {}, None, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and "data-deal" in attrs:
            self.deal = int(attrs["data-deal"])
            self.rows[self.deal] = {}
        field = None
        if "data-field" in attrs:
            field = (attrs.get("data-seat"), attrs["data-field"], attrs.get("data-value"))
        self.open.append([tag, field, ""])

    def handle_data(self, data):
        for element in self.open:
            element[2] += data

    def handle_endtag(self, tag):
        while self.open:
            name, field, text = self.open.pop()
            if field is not None:
                seat, key, value = field
                shown = value if value is not None else text.strip()
                if key == "total":
                    self.totals[seat] = shown
                elif self.deal is not None:
                    self.rows[self.deal][(seat, key)] = shown
            if name == tag:
                break
        if tag == "tr":
            self.deal = None


def score_sheet(response) -> tuple[dict, dict]:
    parser = _Sheet()
    parser.feed(response.content.decode())
    return parser.rows, parser.totals


# --- the pages' rows (tests/web/conftest.py's fixtures; test_web_pages builds them once) ---


def page_people(user_model):
    """The four players (ala N, bartek E, celina S, darek W), ``scorer`` (scorers group),
    ``staff``, and ``outsider`` (signed in, no part of the match)."""
    return people(user_model, (*PLAYERS, "scorer", "outsider"))


def imported_match(users):
    """The sample record m1-legal (9 deals, a sale, a ×2 deal with a kreska) imported by
    ``scorer``, who thereby scores it."""
    return services.record_import(actor=users["scorer"], record=sample("m1-legal"))


def match_in_play(users):
    """A recorded match scored by ``scorer``: m1-legal's first two deals played, the third dealt
    and sold, 10 cards into it."""
    record = sample("m1-legal")
    match = services.match_create(
        actor=users["scorer"],
        seats=dict(zip(SEATS, PLAYERS)),
        first_dealer=record["first_dealer"],
        dealing="recorded",
        ruleset={"options": record["ruleset"]["options"]},
    )
    for number, deal in enumerate(record["deals"][:3], 1):
        services.deal_start(match_id=match.pk, actor=users["scorer"], hands=deal["hands"])
        if "sale" in deal:
            offered = services.lead_offer(
                match_id=match.pk, actor=users["scorer"], price=deal["sale"]["price"], seat=deal["sale"]["buyer"]
            )
            services.lead_decide(match_id=match.pk, actor=users["scorer"], offer=offered.events[0].seq)
        for card in deal["plays"][:10] if number == 3 else deal["plays"]:
            services.card_play(match_id=match.pk, actor=users["scorer"], card=card)
    match.refresh_from_db()
    return match


def club_with_standings(users, user_model):
    """Club ``kk`` (admin ``ada``; the four players and ``scorer`` members), league ``Liga`` with
    season ``Wiosna`` holding m3-legal, its standings computed."""
    ada = user_model.objects.create_user("ada")
    club = scoring.club_create(actor=ada, name="Klub Kierkowy", slug="kk")
    for name in ("ala", "bartek", "celina", "darek"):
        scoring.membership_set(actor=ada, club_id=club.pk, username=name)
    scoring.membership_set(actor=ada, club_id=club.pk, username="scorer", role="scorer")
    league = scoring.league_create(actor=ada, club_id=club.pk, name="Liga")
    season = scoring.season_create(actor=ada, league_id=league.pk, name="Wiosna")
    scoring.season_record_import(actor=users["scorer"], season_id=season.pk, record=sample("m3-legal"))
    recompute.standings_recompute(season_id=season.pk)
    club.ada, club.season = ada, season
    return club


def recorded_match(users, scorer="scorer"):
    """A recorded match scored by ``scorer`` (regular deals R, O, R; first dealer N), its players'
    seats accepted (issue 30), nothing filed yet."""
    from scoring import invitations
    from scoring.models import SeatInvitation

    match = services.match_create(
        actor=users[scorer],
        seats=dict(zip(SEATS, PLAYERS)),
        first_dealer="N",
        dealing="recorded",
        ruleset={"options": {"regular_deals": ["R", "O", "R"]}},
    )
    for invitation in SeatInvitation.objects.filter(match=match, accepted_at__isnull=True):
        invitations.seat_accept(actor=invitation.user, invitation_id=invitation.pk)
    return match


SHEET_KEYS = ("tricks", "hearts", "queens", "kings_jacks", "king_of_hearts", "last_tricks")  # R31, in column order


def sheet_form(tally, **extra) -> dict:
    """The score-sheet page's POST for a deal's ``tally`` (per seat, the values in ``SHEET_KEYS``
    order): the king of hearts a ticked box, every other count as typed."""
    data = {"entry": "tally"}
    for seat, values in tally.items():
        for key, value in zip(SHEET_KEYS, values):
            if key == "king_of_hearts":
                if value:
                    data[f"{seat}-{key}"] = "on"
            else:
                data[f"{seat}-{key}"] = str(value)
    return {**data, **extra}


# --- in the browser (Playwright) ---------------------------------------------------------------------


def phone_tab(browser, base: str, user, language: str):
    """A phone-sized tab of ``user`` (his session cookie: no password to hash) reading ``language``,
    and the list the Content-Security-Policy's refusals are written to."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE, locale="pl-PL" if language == "pl" else "en-GB")
    host = base.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [
            {"name": "sessionid", "value": client.cookies["sessionid"].value, "domain": host, "path": "/"},
            {"name": "kierki_language", "value": language, "domain": host, "path": "/"},
        ]
    )
    page = context.new_page()
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    return page, refused


def keep(page, name: str, selector: str | None = None) -> None:
    """A screenshot of the page (or of ``selector``) under ``WEB_SCREENSHOTS``, when it is set."""
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        target = page.locator(selector).first if selector else page
        target.screenshot(path=str(Path(folder) / f"{name}.png"), **({} if selector else {"full_page": True}))
