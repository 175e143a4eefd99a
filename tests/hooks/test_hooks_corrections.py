"""Webhooks for a corrected deal (issue 23, item 3): ``deal.finished`` again, with the new points."""

import pytest
from hooks_helpers import PLAYERS, hooks_world, simulated
from support.world import season_match

from games.engine import record as records
from games.engine.replay import replay
from games.write import services as games


@pytest.fixture
def world(django_user_model):
    return hooks_world()


def test_a_corrected_deal_is_announced_finished_again_with_its_new_points(
    world, hook, receiver, django_capture_on_commit_callbacks
):
    hook(["deal.finished", "match.finished"])
    first, other = (replay(records.decode(simulated(seed))).summary()["deals"][0] for seed in (3, 4))
    assert first["points"] != other["points"]
    match = season_match(world, PLAYERS)

    with django_capture_on_commit_callbacks(execute=True):
        games.deal_tally(match_id=match.pk, actor=world.users["sam"], points=first["points"])
        games.deal_correct(match_id=match.pk, actor=world.users["sam"], points=other["points"])

    bodies = [r.json() for r in receiver.received]
    assert [(b["type"], b["data"]["deal"]) for b in bodies] == [("deal.finished", 1), ("deal.finished", 1)]
    assert [b["data"]["points"] for b in bodies] == [first["points"], other["points"]]
