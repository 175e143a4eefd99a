"""Fixtures for the page tests: users in every role, an imported finished match, a recorded
match with a deal in play, a club with a season and its standings."""

import pytest
from support.world import people
from web_helpers import PLAYERS, SEATS, sample

from games import services
from scoring import recompute
from scoring import services as scoring


@pytest.fixture
def users(django_user_model):
    """The four players (ala N, bartek E, celina S, darek W), ``scorer`` (scorers group),
    ``staff``, and ``outsider`` (signed in, no part of the match)."""
    return people(django_user_model, (*PLAYERS, "scorer", "outsider"))


@pytest.fixture
def finished_match(users):
    """The sample record m1-legal (9 deals, a sale, a ×2 deal with a kreska) imported by
    ``scorer``, who thereby scores it."""
    return services.record_import(actor=users["scorer"], record=sample("m1-legal"))


@pytest.fixture
def live_match(users):
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


@pytest.fixture
def club(users, django_user_model):
    """Club ``kk`` (admin ``ada``; the four players and ``scorer`` members), league ``Liga`` with
    season ``Wiosna`` holding m3-legal, its standings computed."""
    ada = django_user_model.objects.create_user("ada")
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
