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
