"""Corrections of a filed deal (issue 23, item 3 — the engine's rule only): the latest finished deal
filed from a paper sheet (R31, R33) may be filed again with another entry; the state is then exactly
the one filing the new entry in its place gives (its compensating deals, R7, and the schedule after
it follow the new entry). Any other deal, a played deal, or a correction while a deal is in play is
refused."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import counts, examples
from test_engine_tally import filed, start

from games.engine import errors, simulate

ALL_TOOK = {"N": counts(3, 4, 1, 2), "E": counts(3, 3, 1, 2), "S": counts(4, 5, 1, 2, True, 2), "W": counts(3, 1, 1, 2)}
E_TOOK_NOTHING = {"N": counts(3, 4, 1, 2), "E": counts(0), "S": counts(6, 5, 2, 4, True, 2), "W": counts(4, 4, 1, 2)}


def tallies_of(seed: int) -> list[dict]:
    """A simulated match's deals as tallies, in order (each with its kind)."""
    data = simulate.simulate_match(random.Random(seed))
    return [deal["tally"] for deal in filed(data, "tally")["deals"]]


def same_kind(tallies: list[dict], kind) -> list[dict]:
    keys = 1 if kind.value == "odgrywka" else 6
    return [t for t in tallies if len(t["N"]) == keys]


@settings(max_examples=examples(60), deadline=None)
@given(
    seeds=st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1)),
    picks=st.lists(st.integers(0, 999), min_size=3, max_size=30),
)
def test_a_corrected_last_deal_leaves_the_state_filing_the_new_entry_would(seeds, picks):
    """R7, R31: correct(file(S, a), b) == file(S, b) — results, totals and the schedule after it —
    for S any state filed from real deals' tallies and a, b any real tallies of the deal due."""
    pool = tallies_of(seeds[0]) + tallies_of(seeds[1])
    state = start("R R R R O O O O")
    *earlier, wrong, right = picks
    for pick in earlier:
        if state.next_deal is None:
            return
        state = state.file_deal(tally=choose(pool, state.next_deal.kind, pick))
    if state.next_deal is None:
        return
    kind = state.next_deal.kind

    corrected = state.file_deal(tally=choose(pool, kind, wrong)).correct_last_deal(tally=choose(pool, kind, right))
    direct = state.file_deal(tally=choose(pool, kind, right))

    assert corrected.results == direct.results
    assert corrected.schedule == direct.schedule
    assert corrected.totals == direct.totals and corrected.next_deal == direct.next_deal


def choose(pool: list[dict], kind, pick: int) -> dict:
    found = same_kind(pool, kind)
    return found[pick % len(found)]


def test_a_correction_cancels_the_compensating_deals_of_the_old_entry():
    """R7: E without a trick called for compensating deals; corrected so that everyone took one,
    none is due: the next regular deal comes next."""
    state = start("R O").file_deal(tally=E_TOOK_NOTHING)
    assert state.next_deal.compensating

    corrected = state.correct_last_deal(tally=ALL_TOOK)

    assert not corrected.next_deal.compensating and corrected.next_deal.number == 2
    assert corrected.results[-1].filed["E"]["tricks"] == 3


def test_only_the_latest_deal_can_be_corrected_and_a_finished_match_reopens_if_its_correction_calls_for_more():
    finished = start("R").file_deal(tally=ALL_TOOK)
    assert finished.complete

    reopened = finished.correct_last_deal(tally=E_TOOK_NOTHING)

    assert not reopened.complete and reopened.next_deal.compensating


def test_a_played_deal_or_a_deal_in_play_is_not_corrected():
    rng = random.Random(5)
    played = start("R O").start_deal(simulate.deal_hands(rng, None))
    with pytest.raises(errors.RulingNotAllowed):
        played.correct_last_deal(tally=ALL_TOOK)  # nothing finished yet, a deal in play
    while played.deal is not None:
        played = played.play(simulate.choose_card(rng, played.deal, "random"))
    with pytest.raises(errors.RulingNotAllowed):
        played.correct_last_deal(tally=ALL_TOOK)  # its cards are the record


def test_a_bad_correction_is_refused_as_a_bad_tally_and_changes_nothing():
    state = start("R O").file_deal(tally=ALL_TOOK)

    with pytest.raises(errors.BadTally):
        state.correct_last_deal(tally={**ALL_TOOK, "W": counts(3, 0, 1, 2)})  # hearts 12 (R32 (c))

    assert state.results[-1].filed["W"]["hearts"] == 1  # a value: nothing was changed
