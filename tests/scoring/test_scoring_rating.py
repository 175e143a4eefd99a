"""Ratings: openskill Plackett–Luce over final placements (scoring.rating)."""

import pytest

from scoring.rating import INITIAL, PROVISIONAL_SIGMA, Skill, rate


def test_a_new_player_starts_at_openskills_defaults_and_is_provisional():
    assert INITIAL == Skill(25.0, 25 / 3)
    assert INITIAL.ordinal == pytest.approx(0.0)
    assert INITIAL.provisional


def test_the_ordinal_is_mu_minus_three_sigma():
    assert Skill(30.0, 5.0).ordinal == 15.0


def test_a_match_raises_the_winner_and_lowers_the_last():
    after = rate({}, [("a", 1), ("b", 2), ("c", 3), ("d", 4)])

    assert after["a"].mu > after["b"].mu > after["c"].mu > after["d"].mu
    assert after["a"].mu > INITIAL.mu > after["d"].mu
    assert all(skill.sigma < INITIAL.sigma for skill in after.values())


def test_tied_players_share_a_rank_and_move_alike():
    after = rate({}, [("a", 1), ("b", 1), ("c", 3), ("d", 4)])

    assert after["a"] == after["b"]
    assert after["a"].mu > INITIAL.mu > after["d"].mu


def test_it_starts_from_the_skills_it_is_given():
    strong = Skill(35.0, 4.0)

    after = rate({"a": strong}, [("a", 1), ("b", 2), ("c", 3), ("d", 4)])

    assert after["a"].mu - strong.mu < after["b"].mu - INITIAL.mu + 5  # a favourite's win moves him little
    assert after["a"].sigma < strong.sigma


def test_a_player_stops_being_provisional_once_sigma_falls_to_the_threshold():
    skills, matches = {}, 0
    while skills.get("a", INITIAL).provisional:
        skills.update(
            rate(
                skills,
                [
                    ("a", 1 + matches % 4),
                    ("b", 1 + (matches + 1) % 4),
                    ("c", 1 + (matches + 2) % 4),
                    ("d", 1 + (matches + 3) % 4),
                ],
            )
        )
        matches += 1

    assert skills["a"].sigma <= PROVISIONAL_SIGMA
    assert 8 <= matches <= 20  # about a dozen matches, as docs/leagues.md says
