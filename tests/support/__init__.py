"""What the tests share (docs/testing.md, "tests/support"): the seats, the four players, the sample
records, the CI switch. Its modules: ``world`` (a club with a league and a season, the users the
tests act as, short matches played through the commands), ``fixtures`` (the shared fixtures,
registered by tests/conftest.py), ``servers`` (uvicorn in a thread, a Celery worker, the browser,
Redis), ``polling`` (bounded waits), ``event_table`` (raw SQL on the append-only table),
``summaries`` (comparing summaries with the sample files).

Imported as ``support`` (``from support import SEATS``): pytest puts ``tests/``, the root
conftest's folder, on ``sys.path``.
"""

import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
# The hypothesis profile: `make test-fast` sets "fast"; else "ci" under CI=true, "dev" (tests/conftest.py).
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "").strip()

# What every test runs with (tests/conftest.py's autouse fixtures; support.once builds with them too):
# English, the language the tests assert on, and a short analysis budget in nodes (early positions search to it).
# no annotation job after every deal the suite plays (tests/*/test_*annotation* switch it on)
SUITE_SETTINGS = {
    "LANGUAGE_CODE": "en",
    "ANALYSIS_BUDGET_NODES": 10_000,
    "ANNOTATE_DEALS": False,
    "ANNOTATION_BUDGET_NODES": 500,
}

SEATS = ("N", "E", "S", "W")
PLAYERS = ("ala", "bartek", "celina", "darek")  # seats N, E, S, W
PROBLEM = "application/problem+json"

# The sample records: copies of ../shared/examples and ../shared/examples-tally (SHARED), kept
# byte-identical by tests/test_examples_mirror.py. Paper-sheet deals (R31–R33) are the "tally-" ones.
EXAMPLES = ROOT / "tests" / "data" / "examples"
TALLY_EXAMPLES = ROOT / "tests" / "data" / "examples-tally"
SHARED = ROOT.parent / "shared"


def _folder(name: str) -> Path:
    return TALLY_EXAMPLES if name.startswith("tally-") else EXAMPLES


def sample(name: str, players=None) -> dict:
    """The sample record ``name`` (``tally-…`` from examples-tally/); with ``players``, those seated
    N, E, S, W instead of its own."""
    record = json.loads((_folder(name) / f"{name}.record.json").read_text())
    if players is not None:
        record["players"] = dict(zip(SEATS, players))
    return record


def expected(name: str) -> dict:
    return json.loads((_folder(name) / f"{name}.expected.json").read_text())


def sample_names(*, tally: bool = False) -> list[str]:
    """The samples of tests/data/examples/, and with ``tally`` those of examples-tally/ too."""
    folders = (EXAMPLES, TALLY_EXAMPLES) if tally else (EXAMPLES,)
    return sorted(p.name[: -len(".record.json")] for folder in folders for p in folder.glob("*.record.json"))


def api_client(user=None):
    """A DRF test client, signed in as ``user`` (anonymous without one)."""
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def examples(count: int) -> int:
    """``count`` hypothesis examples for a test that sets its own, a quarter of them (at least 5)
    under the ``fast`` profile of `make test-fast`: every property still runs there, on fewer cases."""
    return max(5, count // 4) if HYPOTHESIS_PROFILE == "fast" else count


def counts(tricks, hearts=0, queens=0, kings_jacks=0, king_of_hearts=False, last_tricks=0) -> dict:
    """One seat's paper-sheet tally (RECORD_FORMAT.md 1.1, R31–R33): what it took, by penalty."""
    return {
        "tricks": tricks,
        "hearts": hearts,
        "queens": queens,
        "kings_jacks": kings_jacks,
        "king_of_hearts": king_of_hearts,
        "last_tricks": last_tricks,
    }
