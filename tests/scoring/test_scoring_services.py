"""League commands and the standings recompute, in the embedded mode (tasks run eagerly)."""

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Sum
from scoring_helpers import SEATS, fresh_world, play_live, ratings_of, record, scoring_world, standings_of
from support.once import once_per_module
from support.world import season_match

from games.domain.exceptions import InvalidInput, NotAllowed, NotFound, RuleBroken
from games.domain.signals import match_result_changed
from games.models import DealScore, Match
from games.write import services as games
from scoring import rating, recompute, services
from scoring.exceptions import LastAdmin, SeasonClosed
from scoring.models import MatchLine, RatedMatch, Rating, RatingChange, Season, SeasonMatch, StandingRow

pytestmark = pytest.mark.django_db

SHORT = {"regular_deals": ["R", "O"]}  # a short match, for live play


built = once_per_module(scoring_world)  # every test starts from the world: built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built)


@pytest.fixture
def file(world, django_capture_on_commit_callbacks):
    """File a simulated match between four usernames into the season; callbacks run on commit."""

    def _file(seed: int, names: str, season=None) -> Match:
        with django_capture_on_commit_callbacks(execute=True):
            return services.season_record_import(
                actor=world.users["sam"], season_id=(season or world.season).pk, record=record(seed, names.split())
            )

    return _file


def seats(names: str) -> dict:
    return dict(zip(SEATS, names.split()))


# --- season matches: who, where -------------------------------------------------------------------


def test_a_member_seated_at_the_table_starts_a_season_match_under_the_leagues_ruleset(world):
    services.league_update(actor=world.users["ada"], league_id=world.league.pk, ruleset={"options": SHORT})

    match = services.season_match_create(
        actor=world.users["p1"], season_id=world.season.pk, seats=seats("p1 p2 p3 p4"), first_dealer="N"
    )

    assert SeasonMatch.objects.get(match=match).season == world.season
    assert match.ruleset_options == SHORT


def test_a_member_not_at_the_table_may_not_start_a_season_match(world):
    with pytest.raises(NotAllowed):
        services.season_match_create(
            actor=world.users["p5"], season_id=world.season.pk, seats=seats("p1 p2 p3 p4"), first_dealer="N"
        )


def test_a_non_member_may_not_start_a_season_match_even_seated(world, django_user_model):
    with pytest.raises(NotAllowed):
        services.season_match_create(
            actor=world.users["outsider"], season_id=world.season.pk, seats=seats("outsider p2 p3 p4"), first_dealer="N"
        )
    assert not Match.objects.exists()


def test_only_club_members_may_be_seated(world):
    with pytest.raises(InvalidInput) as error:
        services.season_match_create(
            actor=world.users["sam"], season_id=world.season.pk, seats=seats("p1 p2 outsider p4"), first_dealer="N"
        )

    assert error.value.field == "seats.S"
    assert not Match.objects.exists()


def test_no_match_joins_a_closed_season(world):
    services.season_update(actor=world.users["ada"], season_id=world.season.pk, status="closed")

    with pytest.raises(SeasonClosed):
        services.season_match_create(
            actor=world.users["sam"], season_id=world.season.pk, seats=seats("p1 p2 p3 p4"), first_dealer="N"
        )
    with pytest.raises(SeasonClosed):
        services.season_record_import(
            actor=world.users["sam"], season_id=world.season.pk, record=record(1, "p1 p2 p3 p4".split())
        )


def test_an_unknown_season_is_not_found(world):
    with pytest.raises(NotFound):
        services.season_record_import(actor=world.users["sam"], season_id=999, record=record(1, ["a", "b", "c", "d"]))
    with pytest.raises(NotFound):
        services.season_match_create(
            actor=world.users["sam"], season_id="x", seats=seats("p1 p2 p3 p4"), first_dealer="N"
        )


def test_a_plain_member_may_not_file_records(world):
    with pytest.raises(NotAllowed):
        services.season_record_import(
            actor=world.users["p1"], season_id=world.season.pk, record=record(1, "p1 p2 p3 p4".split())
        )


def test_a_record_with_guests_is_not_filed_into_a_season(world):
    with pytest.raises(InvalidInput) as error:
        services.season_record_import(
            actor=world.users["sam"], season_id=world.season.pk, record=record(1, "p1 p2 p3 Guest".split())
        )

    assert error.value.field == "players.W"
    assert not Match.objects.exists()


def test_an_illegal_record_stores_nothing(world):
    bad = record(1, "p1 p2 p3 p4".split())
    bad["deals"][0]["plays"][0], bad["deals"][0]["plays"][1] = bad["deals"][0]["plays"][1], bad["deals"][0]["plays"][0]

    with pytest.raises(RuleBroken):
        services.season_record_import(actor=world.users["sam"], season_id=world.season.pk, record=bad)

    assert not Match.objects.exists() and not SeasonMatch.objects.exists()


# --- recomputes on finish ------------------------------------------------------------------------------------


def test_filing_a_finished_match_recomputes_the_standings_after_commit(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        match = services.season_record_import(
            actor=world.users["sam"], season_id=world.season.pk, record=record(7, "p1 p2 p3 p4".split())
        )
        assert not StandingRow.objects.exists()

    assert not StandingRow.objects.exists()  # nothing before the commit
    for callback in callbacks:
        callback()

    rows = standings_of(world.season.pk)
    totals = match.projection.summary["totals"]
    assert {row["player"]: row["balance"] for row in rows} == {
        getattr(match, f"{seat}_id"): totals[seat[0].upper()] for seat in ("north", "east", "south", "west")
    }
    assert Season.objects.get(pk=world.season.pk).recomputes == 1


def test_a_match_finished_by_live_play_sends_one_signal_on_commit_and_is_scored(
    world, django_capture_on_commit_callbacks
):
    services.league_update(actor=world.users["ada"], league_id=world.league.pk, ruleset={"options": SHORT})
    played = record(3, "p1 p2 p3 p4".split(), SHORT)
    match = season_match(world, tuple("p1 p2 p3 p4".split()), first_dealer=played["first_dealer"])
    sent = []
    match_result_changed.connect(receiver := lambda **kwargs: sent.append(kwargs["status"]), weak=False)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            play_live(match, played, world.users["sam"])
    finally:
        match_result_changed.disconnect(receiver)

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and sent == ["finished"]
    assert sum(row["balance"] for row in standings_of(world.season.pk)) == 0  # R8
    assert MatchLine.objects.filter(season_match__match=match).count() == 4


def test_an_abandoned_match_counts_for_nothing_not_even_its_finished_deals(
    world, file, django_capture_on_commit_callbacks
):
    finished = file(11, "p1 p2 p3 p4")
    played = record(12, "p1 p2 p5 p6".split())
    match = season_match(world, tuple("p1 p2 p5 p6".split()), first_dealer=played["first_dealer"])
    play_live(match, played, world.users["sam"], deals=1)  # one deal scored
    assert DealScore.objects.filter(match=match).count() == 4

    with django_capture_on_commit_callbacks(execute=True):
        games.match_abandon(match_id=match.pk, actor=world.users["sam"], reason="a player left")

    rows = {row["player"]: row for row in standings_of(world.season.pk)}
    assert set(rows) == set(finished.seat_player_ids())  # p5 and p6 played only the abandoned match
    assert sum(row["balance"] for row in rows.values()) == 0
    assert all(row["matches"] == 1 for row in rows.values())
    assert sum(row["deals"] for row in rows.values()) == 4 * len(finished.projection.summary["deals"])
    assert SeasonMatch.objects.get(match=match).scored_version == Match.objects.get(pk=match.pk).version
    assert Season.objects.get(pk=world.season.pk).recomputes == 2


def test_the_rows_carry_every_column(world, file):
    matches = [file(seed, "p1 p2 p3 p4") for seed in (21, 22, 23)]

    p1 = next(row for row in standings_of(world.season.pk) if row["player"] == matches[0].north_id)
    deals = DealScore.objects.filter(match__in=matches, player_id=matches[0].north_id)
    totals = [m.projection.summary["totals"]["N"] for m in matches]
    assert p1["matches"] == 3
    assert p1["deals"] == deals.count()
    assert p1["balance"] == sum(totals) and p1["balance_per_match"] == round(sum(totals) / 3, 2)
    assert (p1["best_match"], p1["worst_match"]) == (max(totals), min(totals))
    assert p1["kreski"] == sum(d.kreski for d in deals)
    assert p1["max_deals"] == deals.filter(kind="rozbojnik", tricks=13).count()
    assert p1["zero_odgrywki"] == deals.filter(kind="odgrywka", tricks=0).count()
    wins = sum(1 for m in matches if "N" in m.projection.summary["winners"])
    assert p1["wins"] == p1["first"] == wins
    assert p1["first"] + p1["second"] + p1["third"] + p1["fourth"] == 3
    assert p1["last_played"] == SeasonMatch.objects.get(match=matches[-1]).finished_at
    current = Rating.objects.get(league=world.league, player_id=matches[0].north_id)
    assert (p1["mu"], p1["sigma"], p1["provisional"]) == (current.mu, current.sigma, True)
    assert p1["ordinal"] == pytest.approx(current.mu - 3 * current.sigma)


def test_changing_min_matches_reranks_the_season(world, file, django_capture_on_commit_callbacks):
    file(1, "p1 p2 p3 p4")
    file(2, "p1 p2 p3 p5")

    with django_capture_on_commit_callbacks(execute=True):
        services.season_update(actor=world.users["ada"], season_id=world.season.pk, min_matches=2)

    rows = StandingRow.objects.filter(season=world.season).select_related("player").order_by("order")
    assert [(row.player.username, row.ranked, row.position is None) for row in rows][-2:] == [
        (name, False, True) for name in sorted(("p4", "p5"), key=lambda n: -rows.get(player__username=n).balance)
    ]
    assert all(row.ranked for row in rows[:3])


# --- ratings ------------------------------------------------------------------------------------------------


def test_ratings_follow_the_matches_in_the_order_they_finished(world, file):
    matches = [file(seed, names) for seed, names in ((1, "p1 p2 p3 p4"), (2, "p3 p4 p5 p6"), (3, "p1 p4 p5 p2"))]

    skills = {}
    for position, match in enumerate(matches):
        sm = SeasonMatch.objects.get(match=match)
        assert sm.rated.position == position
        placed = list(MatchLine.objects.filter(season_match=sm).order_by("seat").values_list("player_id", "place"))
        skills.update(rating.rate(skills, placed))
    current = {r.player_id: (r.mu, r.sigma, r.matches) for r in Rating.objects.filter(league=world.league)}
    assert current == {
        player: (skill.mu, skill.sigma, RatingChange.objects.filter(player_id=player).count())
        for player, skill in skills.items()
    }


def test_a_gap_in_the_rating_log_is_replayed_from_there(world, file):
    for seed, names in ((1, "p1 p2 p3 p4"), (2, "p3 p4 p5 p6"), (3, "p1 p4 p5 p2"), (4, "p6 p5 p4 p3")):
        file(seed, names)
    before = ratings_of(world.league.pk), standings_of(world.season.pk)
    RatedMatch.objects.get(league=world.league, position=1).delete()
    Rating.objects.filter(league=world.league).update(mu=0)  # stale current ratings are rewritten

    done = recompute.standings_recompute(season_id=world.season.pk)

    assert done.rated == 3
    assert (ratings_of(world.league.pk), standings_of(world.season.pk)) == before


def test_a_full_rebuild_rewrites_the_same_rows(world, file):
    for seed, names in ((5, "p1 p2 p3 p4"), (6, "p3 p4 p5 p6"), (7, "p1 p4 p5 p2")):
        file(seed, names)
    before = standings_of(world.season.pk), ratings_of(world.league.pk)

    done = recompute.standings_recompute(season_id=world.season.pk, full=True)

    assert (done.scored, done.rated, done.others) == (3, 3, frozenset())
    assert (standings_of(world.season.pk), ratings_of(world.league.pk)) == before


def test_a_second_season_continues_the_league_rating_and_leaves_the_first_seasons_rows_alone(world, file):
    file(1, "p1 p2 p3 p4")
    first_rows = standings_of(world.season.pk)
    spring = services.season_create(actor=world.users["ada"], league_id=world.league.pk, name="2026")

    file(2, "p1 p2 p3 p4", season=spring)

    p1 = Rating.objects.get(league=world.league, player__username="p1")
    assert p1.matches == 2
    assert standings_of(world.season.pk) == first_rows  # the rating shown: after his last match of that season
    assert StandingRow.objects.get(season=spring, player__username="p1").mu == p1.mu


def test_rulings_rescore_and_rerate_the_matches_they_change(world, file, django_capture_on_commit_callbacks):
    from games.write import disputes

    arbiter = world.users["arb"]
    first, second = file(1, "p1 p2 p3 p4"), file(2, "p1 p2 p5 p6")

    def rule(match, deal: int, ruling: str, **points):
        dispute = disputes.dispute_raise(match_id=match.pk, actor=world.users["sam"], deal=deal, statement="?")
        with django_capture_on_commit_callbacks(execute=True):
            disputes.ruling_record(dispute_id=dispute.pk, actor=arbiter, ruling=ruling, reason="checked", **points)

    def balances() -> dict:
        return {row["player"]: row["balance"] for row in standings_of(world.season.pk)}

    rule(
        first,
        1,
        "score_adjusted",
        points={"N": 100, "E": -100, "S": 0, "W": 0},
        override="a score no play could give: outside the analysis on purpose",
    )
    counted = DealScore.objects.filter(match__in=[first, second]).values("player_id").annotate(total=Sum("points"))
    assert balances() == {row["player_id"]: row["total"] for row in counted}
    assert (
        MatchLine.objects.get(season_match__match=first, seat="N").total
        == DealScore.objects.filter(match=first, seat="N").aggregate(total=Sum("points"))["total"]
    )

    last = len(Match.objects.get(pk=second.pk).projection.summary["deals"])
    rule(second, last, "deal_voided")  # re-opens the match: it counts no more

    assert Match.objects.get(pk=second.pk).status == Match.Status.IN_PROGRESS
    assert set(balances()) == set(first.seat_player_ids())
    assert not Rating.objects.filter(player__username__in=["p5", "p6"]).exists()
    assert Rating.objects.get(player__username="p1").matches == 1
    before = standings_of(world.season.pk), ratings_of(world.league.pk)
    recompute.standings_recompute(season_id=world.season.pk, full=True)
    assert (standings_of(world.season.pk), ratings_of(world.league.pk)) == before


def test_a_recompute_of_a_missing_season_does_nothing(db):
    assert recompute.standings_recompute(season_id=12345) is None


# --- clubs, leagues, seasons --------------------------------------------------------------------------------


def test_a_club_keeps_at_least_one_admin(world):
    with pytest.raises(LastAdmin):
        services.membership_set(actor=world.users["ada"], club_id=world.club.pk, username="ada", role="member")
    with pytest.raises(LastAdmin):
        services.membership_remove(actor=world.users["ada"], club_id=world.club.pk, username="ada")

    services.membership_set(actor=world.users["ada"], club_id=world.club.pk, username="sam", role="admin")
    services.membership_set(actor=world.users["ada"], club_id=world.club.pk, username="ada", role="member")


def test_only_club_admins_manage_the_club(world):
    for user in ("sam", "p1", "outsider"):
        actor = world.users[user]
        with pytest.raises(NotAllowed):
            services.league_create(actor=actor, club_id=world.club.pk, name="Inna")
        with pytest.raises(NotAllowed):
            services.season_create(actor=actor, league_id=world.league.pk, name="Inny")
        with pytest.raises(NotAllowed):
            services.season_update(actor=actor, season_id=world.season.pk, status="closed")
        with pytest.raises(NotAllowed):
            services.membership_set(actor=actor, club_id=world.club.pk, username="outsider")


def test_a_league_ruleset_is_checked_by_the_engine(world):
    with pytest.raises(InvalidInput) as error:
        services.league_create(
            actor=world.users["ada"], club_id=world.club.pk, name="Zła", ruleset={"options": {"last_tricks": [13, 13]}}
        )
    assert error.value.field == "ruleset.last_tricks"

    league = services.league_create(
        actor=world.users["ada"],
        club_id=world.club.pk,
        name="Klasyczna",
        ruleset={"options": {"last_tricks": [7, 13], "heart_discard": "king_first"}},
    )
    assert league.ruleset_options == {"last_tricks": [7, 13]}  # only what differs from the defaults


def test_a_season_cannot_end_before_it_starts(world):
    import datetime

    with pytest.raises(InvalidInput) as error:
        services.season_create(
            actor=world.users["ada"],
            league_id=world.league.pk,
            name="Wstecz",
            start_date=datetime.date(2025, 5, 1),
            end_date=datetime.date(2025, 4, 1),
        )
    assert error.value.field == "end_date"


# --- the command ---------------------------------------------------------------------------------------------


def test_rebuild_standings_rebuilds_one_season_or_every_open_one(world, file, capsys):
    file(1, "p1 p2 p3 p4")
    closed = services.season_create(actor=world.users["ada"], league_id=world.league.pk, name="Stary", status="closed")
    StandingRow.objects.all().delete()

    call_command("rebuild_standings", "--season", str(world.season.pk))
    assert StandingRow.objects.filter(season=world.season).count() == 4
    call_command("rebuild_standings")

    out, err = capsys.readouterr()
    assert "rebuilt the standings of 1 season(s)" in out
    assert "rebuild_standings" in err  # the progress bar
    assert Season.objects.get(pk=closed.pk).recomputes == 0  # closed seasons only by --season
    with pytest.raises(CommandError, match="no season 999"):
        call_command("rebuild_standings", "--season", "999")
