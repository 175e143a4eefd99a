"""Racing admins seating the same round, each request on its own PostgreSQL connection
(PostgreSQL only): one round, one set of matches."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Match
from scoring import services
from scoring.models import EveningRound

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENTS = 4


def test_four_admins_seating_round_1_at_once_seat_it_once(django_user_model, settings):
    settings.EVENING_SEATING_SECONDS = 0.3
    ada = django_user_model.objects.create_user("ada")
    club = services.club_create(actor=ada, name="Klub", slug="kk")
    for k in range(8):
        django_user_model.objects.create_user(f"m{k}")
        services.membership_set(actor=ada, club_id=club.pk, username=f"m{k}")
    league = services.league_create(actor=ada, club_id=club.pk, name="Liga")
    season = services.season_create(actor=ada, league_id=league.pk, name="Zima")
    api = APIClient()
    api.force_authenticate(ada)
    evening = api.post(
        "/api/v1/evenings/",
        {"season": season.pk, "date": "2026-12-03", "rounds": 3, "players": [f"m{k}" for k in range(8)]},
        format="json",
    ).json()
    start = threading.Barrier(CLIENTS)

    def seat(_):
        try:
            start.wait()
            one = APIClient()
            one.force_authenticate(ada)
            return one.post(f"/api/v1/evenings/{evening['id']}/rounds/", {"round": 1}, format="json")
        finally:
            connection.close()

    with ThreadPoolExecutor(CLIENTS) as pool:
        responses = list(pool.map(seat, range(CLIENTS)))

    assert sorted(r.status_code for r in responses) == [201] + [409] * (CLIENTS - 1)
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"round_seated"}
    assert EveningRound.objects.filter(evening_id=evening["id"]).count() == 1
    assert Match.objects.count() == 2
