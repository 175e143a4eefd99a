"""What the charts draw, one selector each: a season's balance after each evening adds up to its
standings, a player's rating history ends at his rating, his results by deal kind add up to his
deal scores, and a match's running totals end at its totals (tests/support/evenings.py: three
evenings and one match outside any evening)."""

from collections import defaultdict

import pytest
from django.contrib.auth import get_user_model
from support.evenings import EVENING_DAYS, MEMBERS, season_of_evenings
from support.once import once_per_module

from games.models import DealScore, Match, Player
from games.read import selectors as games_selectors
from scoring import selectors
from scoring.models import MatchLine, Rating, StandingRow

built = once_per_module(lambda: season_of_evenings(get_user_model()))

# Every test reads the built season, also those that name no fixture (under pytest-xdist a test
# may be the first of its module on its worker).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("built")]


@pytest.fixture
def season(built):
    return built.season


def test_the_balance_after_the_last_evening_is_each_players_standings_balance(season):
    data = selectors.season_balance_series(season.pk)

    standings = list(StandingRow.objects.filter(season=season).order_by("order").values_list("player_id", "balance"))
    assert [(one["player"], one["balances"][-1]) for one in data["players"]] == standings
    assert len(standings) == len(MEMBERS)


def test_each_evening_adds_the_totals_of_its_matches_and_a_match_outside_one_makes_its_own_day(season):
    data = selectors.season_balance_series(season.pk)

    assert data["days"][:3] == list(EVENING_DAYS) and len(data["days"]) == 4  # the fourth: the match outside
    per_day = defaultdict(lambda: defaultdict(int))
    for line in MatchLine.objects.filter(season=season).select_related("season_match__evening_table__round__evening"):
        table = getattr(line.season_match, "evening_table", None)
        day = table.round.evening.date if table else data["days"][3]
        per_day[day][line.player_id] += line.total
    for one in data["players"]:
        steps = [b - a for a, b in zip([0, *one["balances"]], one["balances"])]
        assert steps == [per_day[day].get(one["player"], 0) for day in data["days"]]


def test_a_season_with_no_counted_match_has_no_day_and_no_line(season):
    from scoring import services

    other = services.season_create(
        actor=get_user_model().objects.get(username="ada"), league_id=season.league_id, name="X"
    )

    assert selectors.season_balance_series(other.pk) == {"days": [], "players": []}


def test_a_players_rating_history_ends_at_his_rating_and_its_band_narrows():
    player = Player.objects.get(username="celina")

    (league,) = selectors.player_rating_series(player)

    rating = Rating.objects.get(player=player)
    last = league["points"][-1]
    assert (last["mu"], last["sigma"]) == pytest.approx((rating.mu, rating.sigma))
    assert last["ordinal"] == pytest.approx(rating.mu - 3 * rating.sigma)
    assert len(league["points"]) == rating.matches
    sigmas = [point["sigma"] for point in league["points"]]
    assert sigmas == sorted(sigmas, reverse=True)  # each match makes the rating surer
    finished = [point["finished_at"] for point in league["points"]]
    assert finished == sorted(finished)


def test_a_players_results_by_kind_add_up_to_his_deal_scores():
    player = Player.objects.get(username="celina")

    results = selectors.player_kind_results(player)

    assert [one["kind"] for one in results] == ["rozbojnik", "odgrywka"]
    scores = DealScore.objects.filter(player=player)
    for one in results:
        of_kind = [score.points for score in scores if score.kind == one["kind"]]
        assert (one["deals"], one["points"]) == (len(of_kind), sum(of_kind))
        assert one["mean"] == pytest.approx(sum(of_kind) / len(of_kind))


def test_a_player_with_no_deal_has_no_mean():
    player = Player.objects.create(username="nowy")

    assert [(one["deals"], one["mean"]) for one in selectors.player_kind_results(player)] == [(0, None), (0, None)]
    assert selectors.player_rating_series(player) == []


def test_a_matchs_running_totals_end_at_its_totals_deal_by_deal():
    match = Match.objects.filter(season_match__season__name="2025").order_by("created_at").first()

    data = games_selectors.match_running_totals(match=match)

    totals = match.projection.summary["totals"]
    assert data["deals"] == [deal["number"] for deal in match.projection.summary["deals"]]
    assert {one["seat"]: one["totals"][-1] for one in data["seats"]} == totals
    assert [one["name"] for one in data["seats"]] == [p.username for p in match.seat_players()]
    for one in data["seats"]:
        scores = list(DealScore.objects.filter(match=match, seat=one["seat"]).order_by("number"))
        running = [sum(score.points for score in scores[: k + 1]) for k in range(len(scores))]
        assert one["totals"] == running


def test_the_running_totals_count_an_adjusted_deal_as_ruled_and_leave_a_voided_one_out(built):
    """m1-legal (9 deals) filed by a scorer: deal 1's points adjusted, deal 9 voided by staff."""
    from django.contrib.auth.models import Group
    from support import sample

    from games.write import disputes, services

    users = built.users
    scorer = get_user_model().objects.create_user("filer")
    scorer.groups.add(Group.objects.get_or_create(name="scorers")[0])
    seated = ("Łucja & Ewa", "bartek", "celina", "darek")
    match = services.record_import(actor=scorer, record=sample("m1-legal", seated))
    adjusted = {"N": -10, "E": -40, "S": -40, "W": -40}
    first = disputes.dispute_raise(match_id=match.pk, actor=users["bartek"], deal=1, statement="miscounted")
    disputes.ruling_record(
        dispute_id=first.pk, actor=users["staff"], ruling="score_adjusted", reason="r", points=adjusted
    )
    last = disputes.dispute_raise(match_id=match.pk, actor=users["bartek"], deal=9, statement="misdeal")
    disputes.ruling_record(dispute_id=last.pk, actor=users["staff"], ruling="deal_voided", reason="a misdeal")
    match.refresh_from_db()

    data = games_selectors.match_running_totals(match=match)

    assert data["deals"] == list(range(1, 9))  # deal 9 voided: no point for it
    assert {one["seat"]: one["totals"][0] for one in data["seats"]} == adjusted
    assert {one["seat"]: one["totals"][-1] for one in data["seats"]} == match.projection.summary["totals"]
