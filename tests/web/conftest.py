"""Fixtures for the page tests: users in every role, an imported finished match, a recorded
match with a deal in play."""

import pytest
from django.contrib.auth.models import Group
from web_helpers import PLAYERS, SEATS, sample

from games import services


@pytest.fixture
def users(django_user_model):
    """The four players (ala N, bartek E, celina S, darek W), ``scorer`` (scorers group),
    ``staff``, and ``outsider`` (signed in, no part of the match)."""
    make = django_user_model.objects.create_user  # no password: hashing one is slow
    made = {name: make(name) for name in (*PLAYERS, "scorer", "outsider")}
    made["staff"] = make("staff", is_staff=True)
    made["scorer"].groups.add(Group.objects.get_or_create(name="scorers")[0])
    return made


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
