"""A season's life cycle: closed by a club admin it is read-only; only staff reopen it, with a
reason that is logged; the end-of-season summary names the champion and the season's records."""

import pytest
from django.db.models import Max
from django.test import TestCase
from scoring_helpers import SEATS, file_records, fresh_world, once_per_class, play_live, record, scoring_world
from support.once import fresh, once_per_module

from games.domain.exceptions import InvalidInput, MatchReadOnly, NotAllowed
from games.models import Match, MatchEvent
from games.write import disputes
from games.write import services as games
from scoring import services
from scoring.exceptions import SeasonClosed
from scoring.models import MatchLine, RatingChange, Season, SeasonStatusChange, StandingRow
from scoring.rating import INITIAL
from scoring.summary import season_summary

pytestmark = pytest.mark.django_db
SHORT = {"regular_deals": ["R", "O"]}


def start_one(world):
    """A recorded season match in progress (its first deal played), scored by ``sam``."""
    world = fresh_world(world)  # what a build caches on the users (user.player) must not outlive its rows
    services.league_update(actor=world.users["ada"], league_id=world.league.pk, ruleset={"options": SHORT})
    played = record(5, ["p1", "p2", "p3", "p4"], SHORT)
    match = services.season_match_create(
        actor=world.users["sam"],
        season_id=world.season.pk,
        seats=dict(zip(SEATS, ["p1", "p2", "p3", "p4"])),
        first_dealer=played["first_dealer"],
        dealing="recorded",
    )
    play_live(match, played, world.users["sam"], deals=1)
    return match


def file_four(world):
    """Four finished matches in the season."""
    world = fresh_world(world)  # what a build caches on the users (user.player) must not outlive its rows
    tables = ((41, "p1 p2 p3 p4"), (42, "p2 p3 p4 p5"), (43, "p1 p2 p5 p6"), (44, "p1 p3 p5 p6"))
    return file_records(world, TestCase.captureOnCommitCallbacks, tables)


built = once_per_module(scoring_world)  # every test starts from the world: built once (support.once)
built_live = once_per_class(start_one)
built_filed = once_per_class(file_four)


@pytest.fixture
def world(built):
    return fresh_world(built)


@pytest.fixture
def staff(world):
    return world.users["staff"]


@pytest.fixture
def live(built_live):
    return fresh(built_live)


@pytest.fixture
def filed(built_filed):
    return [fresh(match) for match in built_filed]


def close(world, reason=""):
    return services.season_close(actor=world.users["ada"], season_id=world.season.pk, reason=reason)


class TestWithAMatchInPlay:
    """The tests that act on a match in play, its first deal played once for them (once_per_class)."""

    def test_a_closed_seasons_matches_take_no_command_and_nothing_is_stored(self, world, live):
        version = Match.objects.get(pk=live.pk).version
        close(world)

        with pytest.raises(MatchReadOnly) as refused:
            games.deal_start(
                match_id=live.pk,
                actor=world.users["sam"],
                hands=record(5, ["p1", "p2", "p3", "p4"], SHORT)["deals"][1]["hands"],
            )
        with pytest.raises(MatchReadOnly):
            games.match_abandon(match_id=live.pk, actor=world.users["sam"], reason="late")

        assert refused.value.code == "season_closed" and refused.value.status == 409
        assert MatchEvent.objects.filter(match=live).count() == version
        assert Match.objects.get(pk=live.pk).status == Match.Status.IN_PROGRESS

    def test_closing_by_patch_is_closing_and_is_logged(self, world, live):
        services.season_update(actor=world.users["ada"], season_id=world.season.pk, status="closed")

        assert Match.objects.get(pk=live.pk).read_only
        assert list(SeasonStatusChange.objects.values_list("status", "actor_name")) == [("closed", "ada")]

    def test_staff_reopen_with_a_reason_that_is_logged_and_the_matches_play_on(self, world, live, staff, caplog):
        close(world, reason="the last evening is over")

        services.season_reopen(actor=staff, season_id=world.season.pk, reason="a sheet of the last evening turned up")

        assert Season.objects.get(pk=world.season.pk).status == "open"
        assert not Match.objects.get(pk=live.pk).read_only
        assert list(SeasonStatusChange.objects.order_by("id").values_list("status", "actor_name", "reason")) == [
            ("closed", "ada", "the last evening is over"),
            ("open", "staff", "a sheet of the last evening turned up"),
        ]
        assert "a sheet of the last evening turned up" in caplog.text
        games.deal_start(
            match_id=live.pk,
            actor=world.users["sam"],
            hands=record(5, ["p1", "p2", "p3", "p4"], SHORT)["deals"][1]["hands"],
        )


class TestWithFourFiledMatches:
    """The tests that read four finished matches of the season, filed once for them (once_per_class)."""

    def test_a_closed_seasons_matches_take_no_ruling(self, world, filed):
        match = filed[0]
        dispute = disputes.dispute_raise(match_id=match.pk, actor=world.users["sam"], deal=1, statement="?")
        close(world)

        with pytest.raises(MatchReadOnly):
            disputes.ruling_record(dispute_id=dispute.pk, actor=world.users["arb"], ruling="deal_voided", reason="x")

        assert not MatchEvent.objects.filter(match=match, type="ruling_recorded").exists()

    def test_the_summary_names_the_champion_and_the_seasons_records(self, world, filed):
        close(world)
        summary = season_summary(season=Season.objects.get(pk=world.season.pk))

        rows = list(StandingRow.objects.filter(season=world.season).order_by("order"))
        assert summary["final"]
        assert summary["champions"] == [row.player.username for row in rows if row.ranked and row.position == 1]
        assert [row.pk for row in summary["table"]] == [row.pk for row in rows]
        top_kreski = max(row.kreski for row in rows)
        assert summary["most_kreski"] == (
            {"players": [r.player.username for r in rows if r.kreski == top_kreski], "count": top_kreski}
            if top_kreski
            else None
        )
        assert sum(m["count"] for m in summary["max_deals"]) == sum(row.max_deals for row in rows)
        best = MatchLine.objects.filter(season=world.season).aggregate(best=Max("total"))["best"]
        assert summary["best_match"]["total"] == best
        assert summary["best_match"]["match"] in {m.pk for m in filed}

    def test_the_most_improved_rating_is_the_largest_rise_over_the_season(self, world, filed):
        summary = season_summary(season=world.season)

        gains = {}
        for row in StandingRow.objects.filter(season=world.season).select_related("player"):
            changes = list(RatingChange.objects.filter(player=row.player, season=world.season).order_by("position"))
            earlier = (
                RatingChange.objects.filter(player=row.player, league=world.league, position__lt=changes[0].position)
                .order_by("-position")
                .first()
            )
            before = (earlier.mu - 3 * earlier.sigma) if earlier else INITIAL.ordinal
            gains[row.player.username] = changes[-1].mu - 3 * changes[-1].sigma - before
        best = max(gains.values())
        assert summary["most_improved"]["player"] in {name for name, gain in gains.items() if abs(gain - best) < 1e-9}
        assert summary["most_improved"]["gain"] == pytest.approx(best, abs=1e-3)
        assert not summary["final"]


def test_no_match_joins_a_closed_season_and_its_settings_stay(world):
    close(world)

    with pytest.raises(SeasonClosed):
        services.season_match_create(
            actor=world.users["sam"],
            season_id=world.season.pk,
            seats=dict(zip(SEATS, ["p1", "p2", "p3", "p4"])),
            first_dealer="N",
        )
    with pytest.raises(SeasonClosed):
        services.season_record_import(
            actor=world.users["sam"], season_id=world.season.pk, record=record(1, ["p1", "p2", "p3", "p4"])
        )
    with pytest.raises(SeasonClosed):
        services.season_update(actor=world.users["ada"], season_id=world.season.pk, min_matches=3)
    assert Season.objects.get(pk=world.season.pk).min_matches == 0


def test_a_patch_cannot_reopen_a_closed_season(world):
    close(world)

    with pytest.raises(SeasonClosed) as refused:
        services.season_update(actor=world.users["ada"], season_id=world.season.pk, status="open")

    assert refused.value.field == "status" and "reopen" in refused.value.detail
    assert Season.objects.get(pk=world.season.pk).status == "closed"


@pytest.mark.parametrize("who", ["sam", "arb", "p1", "outsider"])
def test_only_the_clubs_admins_close_a_season(world, who):
    with pytest.raises(NotAllowed):
        services.season_close(actor=world.users[who], season_id=world.season.pk)
    assert Season.objects.get(pk=world.season.pk).status == "open"


def test_closing_a_closed_season_is_refused(world):
    close(world)
    with pytest.raises(SeasonClosed):
        close(world)
    assert SeasonStatusChange.objects.count() == 1


@pytest.mark.parametrize("reason", ["", "   ", None, 5, "x" * 2001])
def test_a_reopening_without_a_reason_is_refused(world, staff, reason):
    close(world)
    with pytest.raises(InvalidInput) as refused:
        services.season_reopen(actor=staff, season_id=world.season.pk, reason=reason)
    assert refused.value.field == "reason"
    assert Season.objects.get(pk=world.season.pk).status == "closed"


def test_a_club_admin_does_not_reopen(world):
    close(world)
    with pytest.raises(NotAllowed):
        services.season_reopen(actor=world.users["ada"], season_id=world.season.pk, reason="please")
    assert Season.objects.get(pk=world.season.pk).status == "closed"


# --- the summary -----------------------------------------------------------------------------------


def test_an_empty_seasons_summary_has_no_records(world):
    summary = season_summary(season=world.season)
    assert summary["champions"] == [] and summary["table"] == []
    assert summary["most_kreski"] is None and summary["best_match"] is None and summary["most_improved"] is None
