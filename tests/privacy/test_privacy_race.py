"""Erasures at the same moment (issue 28), each on its own PostgreSQL connection: each person
gets his own "erased player #N" — none fails on another's N (PostgreSQL only)."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from accounts.erasure import person_erase
from games.models import Player
from games.write.people import player_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PEOPLE = 6


def test_people_erased_at_once_each_take_a_number_of_their_own(django_user_model):
    staff = django_user_model.objects.create_user("ula", is_staff=True)
    players = [player_of(django_user_model.objects.create_user(f"m{k}")) for k in range(PEOPLE)]
    start = threading.Barrier(PEOPLE)

    def erase(player):
        try:
            start.wait()
            return person_erase(actor=staff, player=player).erased_number
        finally:
            connection.close()

    with ThreadPoolExecutor(PEOPLE) as pool:
        numbers = list(pool.map(erase, players))

    assert sorted(numbers) == list(range(1, PEOPLE + 1))
    assert sorted(Player.objects.values_list("erased_number", flat=True)) == list(range(1, PEOPLE + 1))
