"""Fixtures for the language tests: a club with Polish-named members, a finished match with a
ruling, a season with its standings; the gettext tools' skip (a failure under CI=true)."""

import datetime as dt
import shutil

import pytest
from i18n_helpers import PLAYERS, sample
from support import IN_CI
from support.world import people


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
    """The four players, ``zenon`` (scorer, in the scorers group), ``wanda`` (staff, an
    arbiter of the club) and ``ada`` (the club's admin): names no English word shares."""
    return people(django_user_model, (*PLAYERS, "zenon", "ada"), staff="wanda", scorers=("zenon",))


@pytest.fixture
def finished_match(users):
    """m1-legal (9 deals, a sale, a kreska) filed by ``zenon``, deal 1's points adjusted by a
    ruling of ``wanda`` at 10:00 UTC on 1 September 2026 (12:00 in Warsaw)."""
    from games import disputes, services
    from games.models import Match

    match = services.record_import(actor=users["zenon"], record=sample("m1-legal"))
    first = disputes.dispute_raise(match_id=match.pk, actor=users["ala"], deal=1, statement="źle policzone")
    disputes.ruling_record(
        dispute_id=first.pk,
        actor=users["wanda"],
        ruling="score_adjusted",
        reason="przeliczone",
        points={"N": -10, "E": -40, "S": -40, "W": -40},
    )
    Match.objects.filter(pk=match.pk).update(created_at=dt.datetime(2026, 9, 1, 10, 0, tzinfo=dt.UTC))
    match.refresh_from_db()
    return match


@pytest.fixture
def season(users):
    """Club ``Klub Kierkowy`` with season ``Jesień`` (from 1 September 2026) of the finished
    m3-legal, its standings computed."""
    from scoring import recompute
    from scoring import services as scoring
    from scoring.models import Season

    club = scoring.club_create(actor=users["ada"], name="Klub Kierkowy", slug="kk")
    for name in PLAYERS:
        scoring.membership_set(actor=users["ada"], club_id=club.pk, username=name)
    scoring.membership_set(actor=users["ada"], club_id=club.pk, username="zenon", role="scorer")
    league = scoring.league_create(actor=users["ada"], club_id=club.pk, name="Liga")
    season = scoring.season_create(actor=users["ada"], league_id=league.pk, name="Jesień")
    Season.objects.filter(pk=season.pk).update(start_date=dt.date(2026, 9, 1))
    scoring.season_record_import(actor=users["zenon"], season_id=season.pk, record=sample("m3-legal"))
    recompute.standings_recompute(season_id=season.pk)
    season.refresh_from_db()
    return season
