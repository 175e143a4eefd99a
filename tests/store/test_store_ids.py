"""Primary keys from URLs: ASCII digits within a bigint, nothing else."""

import pytest

from games.domain.ids import BIGINT_MAX, int_id


@pytest.mark.parametrize("value, expected", [("7", 7), (7, 7), ("007", 7), (str(BIGINT_MAX), BIGINT_MAX)])
def test_ascii_digits_within_a_bigint_are_an_id(value, expected):
    assert int_id(value) == expected


@pytest.mark.parametrize("value", ["", "-1", "1.5", " 7", "³", "٣", "7a", str(BIGINT_MAX + 1), None])
def test_anything_else_is_no_id(value):
    assert int_id(value) is None
