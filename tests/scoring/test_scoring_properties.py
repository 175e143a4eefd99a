"""Properties over random seasons of simulated matches (hypothesis): incremental recomputes
after each finish equal one full rebuild; a season of finished matches sums to zero (R8); the
SQL tally equals the reference one; positions never go down the table."""

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scoring_helpers import SEATS, play_live, ratings_of, record, standings_of
from support import examples

from games.write import disputes
from games.write import services as games
from scoring import recompute, selectors, services
from scoring.standings import tally

pytestmark = pytest.mark.django_db

PLAYERS = ["p1", "p2", "p3", "p4", "p5", "p6"]
SHORT = {"regular_deals": ["R", "O"]}

a_match = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "table": st.permutations(PLAYERS).map(lambda players: players[:4]),
        "abandoned": st.sampled_from([False, False, False, True]),  # now and then
        "ruling": st.sampled_from([None, None, "score_adjusted", "deal_voided"]),  # on its first / last deal
        "season": st.sampled_from(["a", "b"]),
    }
)


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(matches=st.lists(a_match, min_size=1, max_size=6))
def test_incremental_recomputes_equal_a_full_rebuild(world, django_capture_on_commit_callbacks, matches):
    with transaction.atomic():
        seasons = {
            "a": world.season,
            "b": services.season_create(actor=world.users["ada"], league_id=world.league.pk, name="B"),
        }
        for played in matches:
            data = record(played["seed"], played["table"], SHORT)
            season = seasons[played["season"]]
            with django_capture_on_commit_callbacks(execute=True):  # each finish recomputes at once
                if played["abandoned"]:
                    match = services.season_match_create(
                        actor=world.users["sam"],
                        season_id=season.pk,
                        seats=dict(zip(SEATS, played["table"])),
                        first_dealer=data["first_dealer"],
                        dealing="recorded",
                    )
                    play_live(match, data, world.users["sam"], deals=1)
                    games.match_abandon(match_id=match.pk, actor=world.users["sam"])
                else:
                    match = services.season_record_import(actor=world.users["sam"], season_id=season.pk, record=data)
            if played["ruling"] and not played["abandoned"]:
                with django_capture_on_commit_callbacks(execute=True):  # scored already: scored again
                    _rule(match, played["ruling"], world.users)
        incremental = {key: standings_of(s.pk) for key, s in seasons.items()}, ratings_of(world.league.pk)

        for season in seasons.values():
            assert sum(row["balance"] for row in standings_of(season.pk)) == 0  # every counted match finished
            assert _positions_climb(standings_of(season.pk))
            assert sorted(t for t, _, _ in selectors.season_tallies(season.pk)) == sorted(
                tally(selectors.season_lines(season.pk)).values()
            )

        recompute.standings_rebuild(season_ids=[s.pk for s in seasons.values()])

        assert ({key: standings_of(s.pk) for key, s in seasons.items()}, ratings_of(world.league.pk)) == incremental
        transaction.set_rollback(True)


def _rule(match, ruling: str, users) -> None:
    """An arbiter's ruling: +/-50 moved on the first deal, or the last deal voided (re-opening it)."""
    deals = len(match.projection.summary["deals"])
    deal = 1 if ruling == "score_adjusted" else deals
    dispute = disputes.dispute_raise(match_id=match.pk, actor=users["sam"], deal=deal, statement="?")
    points = None
    if ruling == "score_adjusted":
        played = match.projection.summary["deals"][0]["points"]
        points = {seat: played[seat] + shift for seat, shift in zip(SEATS, (50, -50, 0, 0))}
    disputes.ruling_record(
        dispute_id=dispute.pk,
        actor=users["arb"],
        ruling=ruling,
        reason="checked",
        points=points,
        override="moved by hand, whatever the analysis" if points else None,
    )


def _positions_climb(rows) -> bool:
    ranked = [row["position"] for row in rows if row["ranked"]]
    return ranked == sorted(ranked) and all(row["position"] is None for row in rows if not row["ranked"])
