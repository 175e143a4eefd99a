"""The standings' arithmetic and ranking, over plain values (scoring.standings)."""

from datetime import UTC, datetime, timedelta

from scoring.rating import Skill, placements
from scoring.standings import Line, standings, tally

T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)


def match(number: int, totals: dict, **extra) -> list[Line]:
    """One finished match: each player's total; places follow from the totals (ties share)."""
    places = placements(list(totals.values()))
    return [
        Line(
            match=number,
            player=player,
            total=total,
            deals=extra.get("deals", 8),
            kreski=extra.get("kreski", {}).get(player, 0),
            max_deals=extra.get("max_deals", {}).get(player, 0),
            zero_odgrywki=extra.get("zero", {}).get(player, 0),
            place=place,
            finished_at=T0 + timedelta(hours=number),
        )
        for (player, total), place in zip(totals.items(), places)
    ]


def order(rows) -> list:
    return [(row.position, row.tally.player) for row in rows]


def test_it_ranks_by_total_balance_highest_first():
    rows = standings(match(1, {"a": -100, "b": 300, "c": 0, "d": -200}))

    assert order(rows) == [(1, "b"), (2, "c"), (3, "a"), (4, "d")]
    assert [row.tally.balance for row in rows] == [300, 0, -100, -200]


def test_equal_balances_go_by_balance_per_match():
    lines = (
        match(1, {"a": 60, "b": 20, "c": -40, "d": -40})
        + match(2, {"a": 0, "e": 20, "f": -10, "g": -10})
        + match(3, {"b": 40, "e": -20, "f": -10, "g": -10})
        + match(4, {"b": 0, "h": 0, "i": 0, "j": 0})
    )

    rows = {row.tally.player: row for row in standings(lines)}

    assert rows["a"].tally.balance == rows["b"].tally.balance == 60
    assert (rows["a"].tally.per_match, rows["b"].tally.per_match) == (30, 20)
    assert (rows["a"].position, rows["b"].position) == (1, 2)


def test_for_a_negative_balance_more_matches_rank_higher():
    lines = (
        match(1, {"a": -60, "b": 60, "c": 0, "d": 0})
        + match(2, {"a": 0, "c": 0, "d": 0, "x": 0})
        + match(3, {"e": -60, "f": 60, "g": 0, "h": 0})
    )

    rows = {row.tally.player: row for row in standings(lines)}

    assert rows["a"].tally.per_match == -30 and rows["e"].tally.per_match == -60
    assert rows["a"].position < rows["e"].position


def test_then_by_matches_won():
    lines = (
        match(1, {"a": 100, "b": 50, "c": -70, "d": -80})  # a wins
        + match(2, {"a": -100, "x": 120, "y": -10, "z": -10})
        + match(3, {"b": -50, "x": -10, "y": 70, "z": -10})
    )  # b wins none

    rows = {row.tally.player: row for row in standings(lines)}

    assert rows["a"].tally.balance == rows["b"].tally.balance == 0
    assert rows["a"].tally.matches == rows["b"].tally.matches == 2
    assert (rows["a"].tally.wins, rows["b"].tally.wins) == (1, 0)
    assert rows["a"].position < rows["b"].position


def test_then_by_head_to_head_balance_among_the_tied_players():
    lines = (
        match(1, {"a": 20, "b": -20, "c": 0, "d": 0})  # a beat b when they met
        + match(2, {"a": -20, "e": 30, "f": -5, "g": -5})
        + match(3, {"b": 20, "h": -30, "i": 5, "j": 5})
    )

    rows = {row.tally.player: row for row in standings(lines)}

    a, b = rows["a"].tally, rows["b"].tally
    assert (a.balance, a.matches, a.wins) == (b.balance, b.matches, b.wins) == (0, 2, 1)
    assert rows["b"].position == rows["a"].position + 1


def test_players_tied_on_every_criterion_share_the_position_and_are_listed_by_name():
    lines = match(1, {"zofia": 10, "adam": 10, "c": -10, "d": -10}) + match(
        2, {"zofia": -10, "adam": -10, "c": 10, "d": 10}
    )

    rows = standings(lines)

    assert order(rows) == [(1, "adam"), (1, "c"), (1, "d"), (1, "zofia")]


def test_the_next_position_after_a_shared_one_skips():
    rows = standings(match(1, {"a": 50, "b": 50, "c": -40, "d": -60}))

    assert order(rows) == [(1, "a"), (1, "b"), (3, "c"), (4, "d")]


def test_players_below_min_matches_form_an_unranked_tail_without_a_position():
    lines = match(1, {"a": 100, "b": -20, "c": -40, "d": -40}) + match(2, {"b": 10, "c": 10, "d": -10, "e": -10})

    rows = standings(lines, min_matches=2)

    assert [(row.position, row.ranked, row.tally.player) for row in rows] == [
        (1, True, "b"),
        (2, True, "c"),
        (3, True, "d"),  # two matches each
        (None, False, "a"),
        (None, False, "e"),  # one match: unranked, still ordered by balance
    ]


def test_a_shared_win_counts_for_each_winner_and_both_take_first_place():
    rows = {row.tally.player: row.tally for row in standings(match(1, {"a": 65, "b": 65, "c": -65, "d": -65}))}

    assert rows["a"].wins == rows["b"].wins == 1
    assert (rows["a"].first, rows["b"].first) == (1, 1)
    assert (rows["c"].wins, rows["c"].third, rows["d"].third) == (0, 1, 1)  # they share third place


def test_placements_share_the_better_place():
    assert placements([10, 10, -5, -15]) == [1, 1, 3, 4]
    assert placements([0, 0, 0, 0]) == [1, 1, 1, 1]
    assert placements([-5, 20, -5, -10]) == [2, 1, 2, 4]


def test_the_tally_sums_every_column_of_a_players_matches():
    lines = match(1, {"a": 120, "b": -20, "c": -50, "d": -50}, kreski={"a": 2}, max_deals={"a": 1}, deals=10) + match(
        2, {"a": -30, "b": 40, "c": -5, "d": -5}, zero={"a": 1}, deals=9
    )

    a = tally(lines)["a"]

    assert (a.matches, a.wins, a.first, a.second, a.third, a.fourth) == (2, 1, 1, 0, 0, 1)
    assert (a.deals, a.balance, a.best_match, a.worst_match) == (19, 90, 120, -30)
    assert (a.kreski, a.max_deals, a.zero_odgrywki) == (2, 1, 1)
    assert a.last_played == T0 + timedelta(hours=2)


def test_each_row_carries_the_players_skill():
    skill = Skill(27.5, 7.0)

    rows = standings(match(1, {"a": 10, "b": -10, "c": 0, "d": 0}), skills={"a": skill})

    assert rows[0].skill == skill
    assert rows[1].skill.mu == 25.0  # no skill given: the initial one
