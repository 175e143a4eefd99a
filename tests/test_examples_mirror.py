"""tests/data/examples/ and tests/data/examples-tally/ are copies of shared/examples/ and
shared/examples-tally/: keep each pair byte-identical."""

from pathlib import Path

import pytest
from support import EXAMPLES, SHARED, TALLY_EXAMPLES

PAIRS = [(EXAMPLES, SHARED / "examples"), (TALLY_EXAMPLES, SHARED / "examples-tally")]


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


@pytest.mark.parametrize("mirror, shared", PAIRS, ids=["examples", "examples-tally"])
def test_the_sample_records_match_the_shared_examples_byte_for_byte(mirror, shared):
    if not shared.is_dir():
        pytest.skip(f"no shared examples beside the repo at {shared}")
    theirs, ours = _files(shared), _files(mirror)

    assert sorted(theirs) == sorted(ours), "the two folders hold different file names"
    differing = [name for name in theirs if theirs[name] != ours[name]]
    assert not differing, f"these files differ from {shared}: {differing}"
