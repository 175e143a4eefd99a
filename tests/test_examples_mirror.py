"""tests/data/examples/ is a copy of shared/examples/: keep the two byte-identical."""
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
MIRROR = REPO_ROOT / "tests" / "data" / "examples"
SHARED = REPO_ROOT.parent / "shared" / "examples"


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"no shared examples beside the repo at {SHARED}")
def test_the_sample_records_match_the_shared_examples_byte_for_byte():
    shared, mirror = _files(SHARED), _files(MIRROR)

    assert sorted(shared) == sorted(mirror), "the two folders hold different file names"
    differing = [name for name in shared if shared[name] != mirror[name]]
    assert not differing, f"these files differ from shared/examples: {differing}"
