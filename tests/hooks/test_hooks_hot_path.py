"""``events_appended`` runs on every card play: a play inside a deal must cost webhooks nothing,
whatever endpoints the club has registered."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hooks_helpers import PLAYERS, fresh_world, hooks_world, play, simulated
from support.once import once_per_module
from support.world import season_match as recorded_match

from games.engine.match import restore
from games.models import MatchProjection
from games.write import services as games
from scoring import services as scoring
from webhooks.models import Endpoint

pytestmark = pytest.mark.django_db


built = once_per_module(hooks_world)  # every test starts from the world: built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built)


WEBHOOK_TABLES = ("webhooks_", "scoring_seasonmatch", "scoring_season")
ROLE_LOOKUP = (
    '"scoring_membership"."role"'  # who the scorer is in the club (games.domain.roles.club_role), not webhooks'
)


def _play_one(match, world, dealing: str) -> list[str]:
    """One legal card by whoever is on turn; the SQL it ran."""
    deal = restore(MatchProjection.objects.get(pk=match.pk).snapshot).deal
    seat = deal.to_play
    actor = world.users["sam"] if dealing == "recorded" else world.users[PLAYERS["NESW".index(seat.name)]]
    with CaptureQueriesContext(connection) as queries:
        games.card_play(match_id=match.pk, actor=actor, card=str(deal.legal_cards(seat)[0]), seat=seat.name)
    return [q["sql"] for q in queries.captured_queries]


@pytest.mark.parametrize("dealing", ["recorded", "server"])
def test_a_card_play_within_a_deal_runs_no_webhook_query(world, hook, dealing):
    hook()  # every event type
    if dealing == "recorded":
        match = recorded_match(world, PLAYERS)
        play(match, simulated(21), world.users["sam"], deals=1, cards=0)
    else:
        match = scoring.season_match_create(
            actor=world.users["p1"], season_id=world.season.pk, seats=dict(zip("NESW", PLAYERS)), first_dealer="N"
        )
        games.deal_start(match_id=match.pk, actor=world.users["p1"])
    _play_one(match, world, dealing)

    with_endpoints = _play_one(match, world, dealing)
    Endpoint.objects.all().delete()
    without = _play_one(match, world, dealing)

    webhook_queries = [sql for sql in with_endpoints if ROLE_LOOKUP not in sql]
    assert not [sql for sql in webhook_queries if any(table in sql for table in WEBHOOK_TABLES)]
    assert len(with_endpoints) == len(without)


def test_the_card_that_ends_a_deal_does_look_for_endpoints(world, hook, season_match):
    hook(["deal.finished"])
    record = simulated(22)
    play(season_match, record, world.users["sam"], deals=1, cards=51)

    with CaptureQueriesContext(connection) as queries:
        games.card_play(match_id=season_match.pk, actor=world.users["sam"], card=record["deals"][0]["plays"][51])

    assert any("webhooks_endpoint" in q["sql"] for q in queries.captured_queries)
