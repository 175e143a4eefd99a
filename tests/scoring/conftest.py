"""Fixtures for the scoring tests: a club with members, a league and an open season. A module
whose every test starts from that world builds it once (support.once) and hands out copies::

    built = once_per_module(scoring_world)


    @pytest.fixture
    def world(built):
        return fresh_world(built)
"""

import pytest
from scoring_helpers import scoring_world


@pytest.fixture
def world(django_user_model):
    """scoring_helpers.scoring_world, built for the test (``django_user_model`` brings the database)."""
    return scoring_world()
