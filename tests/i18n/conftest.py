"""Fixtures for the language tests: a club with Polish-named members, a finished match with a
ruling, a season with its standings; the gettext tools' skip (a failure under CI=true)."""

import shutil

import pytest
from i18n_helpers import autumn_season, polish_people, ruled_match
from support import IN_CI


@pytest.fixture
def needs_gettext():
    """makemessages runs GNU gettext's xgettext and msgmerge (apt-get install gettext)."""
    if shutil.which("xgettext") and shutil.which("msgmerge"):
        return
    if IN_CI:
        pytest.fail("CI=true but GNU gettext is missing (apt-get install gettext)", pytrace=False)
    pytest.skip("needs GNU gettext (apt-get install gettext)")


@pytest.fixture
def users(django_user_model):
    """i18n_helpers.polish_people."""
    return polish_people(django_user_model)


@pytest.fixture
def finished_match(users):
    """i18n_helpers.ruled_match: m1-legal filed by ``zenon``, deal 1 adjusted by ``wanda``."""
    return ruled_match(users)


@pytest.fixture
def season(users):
    """i18n_helpers.autumn_season: season ``Jesień`` of the finished m3-legal, standings computed."""
    return autumn_season(users)
