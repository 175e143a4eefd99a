"""Fixtures for the page tests: users in every role, an imported finished match, a recorded
match with a deal in play, a club with a season and its standings."""

import pytest
from web_helpers import club_with_standings, imported_match, match_in_play, page_people


@pytest.fixture
def users(django_user_model):
    """web_helpers.page_people: the four players, ``scorer``, ``staff``, ``outsider``."""
    return page_people(django_user_model)


@pytest.fixture
def finished_match(users):
    """web_helpers.imported_match: m1-legal imported by ``scorer``, who thereby scores it."""
    return imported_match(users)


@pytest.fixture
def live_match(users):
    """web_helpers.match_in_play: m1-legal's first two deals played, the third 10 cards in."""
    return match_in_play(users)


@pytest.fixture
def club(users, django_user_model):
    """web_helpers.club_with_standings: club ``kk``, season ``Wiosna`` of m3-legal, standings computed."""
    return club_with_standings(users, django_user_model)
