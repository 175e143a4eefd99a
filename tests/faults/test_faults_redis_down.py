"""Redis down: plays, imports and rulings still succeed, their recomputes wait in the outbox, and
once Redis is back the sweep hands them to a worker and the standings catch up.

Redis is reached through a door (a TCP forwarder) that is shut at first: the broker URL and
REDIS_URL stay the same while Redis is away and when it returns, as in production. A real
``celery worker`` runs on the test PostgreSQL database.
"""

import pytest
from faults_helpers import RedisDoor, file_match, outbox_of, rebuilt, recomputes, standings_of, started_match
from support import api_client as client_of
from support.polling import wait_for
from support.world import simulated

from games.models import Match
from scoring import outbox

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def door():
    opened = RedisDoor()
    yield opened
    opened.close()


def test_with_redis_down_the_api_succeeds_and_the_standings_catch_up_when_it_returns(
    world, broker, door, workers, truncatable_events, caplog
):
    ruled_match = file_match(world, seed=4)  # the embedded mode: in the standings already
    assert outbox_of(world.season) == 0
    broker(door.url)  # Redis is down
    match, last = started_match(world, seed=1)
    sam, ala, ari = (client_of(world.users[name]) for name in ("sam", "ala", "ari"))

    played = sam.post(f"/api/v1/matches/{match.pk}/plays/", {"card": last}, format="json")
    imported = sam.post(f"/api/v1/matches/import/?season={world.season.pk}", simulated(2), format="json")
    raised = ala.post(f"/api/v1/matches/{ruled_match.pk}/disputes/", {"deal": 1, "statement": "revoke"}, format="json")
    ruled = ari.post(
        f"/api/v1/disputes/{raised.json()['id']}/ruling/",
        {"type": "score_adjusted", "points": {"N": -100, "E": 0, "S": 0, "W": 0}, "reason": "revoke"},
        format="json",
    )

    assert [played.status_code, imported.status_code, raised.status_code, ruled.status_code] == [201] * 4
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert outbox_of(world.season) == 3 and recomputes(world.season) == 1
    assert caplog.text.count("could not schedule the standings of season") == 3
    assert outbox.sweep(grace=0) == [world.season.pk] and outbox_of(world.season) == 3  # still down: kept

    door.open()  # Redis is back, at the same address
    worker = workers(door.url, "faults-back")
    assert outbox.sweep(grace=0) == [world.season.pk]  # what beat does once the grace period is over

    wait_for(lambda: outbox_of(world.season) == 0, 60, "the standings to catch up", worker.log)
    assert recomputes(world.season) == 2  # one recompute for the three changes
    caught_up = standings_of(world.season)
    assert sum(row["matches"] for row in caught_up) == 3 * 4
    assert caught_up == rebuilt(world.season)
