"""Rows built once per module instead of once per test, for modules whose every test starts from
the same costly rows (whole matches played through the commands).

``once_per_module(build)`` makes a module-scoped fixture: ``build()`` runs inside a transaction
that stays open for the module and is rolled back at its end. Each test's own ``db`` transaction is
then a savepoint inside it (pytest-django's TestCase-style tests), so whatever a test writes is gone
for the next one, and the built rows are as ``build`` left them. Python objects are shared by the
module's tests: the fixtures that hand them out give fresh copies (``fresh``) so that no test sees
another's changes in memory. A module using it must not hold tests that need a transactional
database (their flush would empty the built rows). The fuzz tests seed their world the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from support import SUITE_SETTINGS


def once_per_module(build: Callable[[], object], *, on_commit: bool = False):
    """A module-scoped fixture giving what ``build()`` returns, built once with the settings every
    test has (``support.SUITE_SETTINGS``). With ``on_commit`` the on-commit work that ``build`` registers
    (standings, webhooks) runs when it returns, as ``django_capture_on_commit_callbacks(execute=True)``
    runs it in a test; else it never runs, as in a test's transaction."""

    @pytest.fixture(scope="module")
    def built(django_db_setup, django_db_blocker):
        from django.db import transaction
        from django.test import TestCase, override_settings

        with django_db_blocker.unblock(), override_settings(**SUITE_SETTINGS), transaction.atomic():
            if on_commit:
                with TestCase.captureOnCommitCallbacks(execute=True):
                    made = build()
            else:
                made = build()
            yield made
            transaction.set_rollback(True)

    return built


def once_per_class(build: Callable[[object], object]):
    """A class-scoped fixture giving ``build(built)``, built once for the tests of a class on top of
    the module's rows (its ``built`` fixture, ``once_per_module``): in a savepoint of the module's
    transaction, rolled back after the class's last test, so the module's other tests never see
    these rows. ``build`` runs the on-commit work it means to (``TestCase.captureOnCommitCallbacks``)
    and gets the module's own objects (``fresh_world``/``fresh_users`` give it its own). A test of
    the class asks for it by name (``request.getfixturevalue`` would open it inside the test's own
    transaction)."""

    @pytest.fixture(scope="class")
    def built_for_class(built, django_db_blocker):
        from django.db import transaction
        from django.test import override_settings

        with django_db_blocker.unblock(), override_settings(**SUITE_SETTINGS), transaction.atomic():
            yield build(built)
            transaction.set_rollback(True)

    return built_for_class


def fresh(instance):
    """A model instance read again from the database: a test's changes to its copy stay its own."""
    return type(instance)._default_manager.get(pk=instance.pk)


def fresh_users(users: dict) -> dict:
    """The users of ``users`` (by name) read again, in one query: a user object caches what a test
    gives it (``user.player``, made by games.write.services.player_for_user), which the test's rollback
    removes."""
    from django.contrib.auth import get_user_model

    found = get_user_model()._default_manager.in_bulk([user.pk for user in users.values()])
    return {name: found[user.pk] for name, user in users.items()}


def fresh_world(world):
    """The world with its users, club, league and season read again."""
    return replace(
        world,
        users=fresh_users(world.users),
        club=fresh(world.club),
        league=fresh(world.league),
        season=fresh(world.season),
        other_club=fresh(world.other_club) if world.other_club is not None else None,
    )
