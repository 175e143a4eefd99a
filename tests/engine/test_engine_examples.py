"""Golden files: the sample records of tests/data/examples/ replay to exactly their expected
summaries (RECORD_FORMAT.md); the engine is a pure core that imports no Django (STYLE.md);
the record codec names the field it cannot read."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import EXAMPLES, TALLY_EXAMPLES

import games.engine
from games.engine import RecordFormatError, record, replay

REPO = Path(__file__).resolve().parents[2]
ENGINE = Path(games.engine.__file__).resolve().parent
SAMPLES = sorted(path.name[: -len(".record.json")] for path in EXAMPLES.glob("*.record.json"))
TALLY_SAMPLES = sorted(path.name[: -len(".record.json")] for path in TALLY_EXAMPLES.glob("*.record.json"))


def comparable(summary: dict, expected: dict) -> dict:
    """The summary as the expected file has it: the samples of tests/data/examples/ predate
    RECORD_FORMAT.md 1.1 and carry no ``entry`` (examples-tally/README.md: compare it where given)."""
    for deal, wanted in zip(summary.get("deals", []), expected.get("deals", [])):
        if "entry" not in wanted:
            deal.pop("entry", None)
    return summary


def test_there_are_sample_records_each_with_its_expected_summary():
    """tests/data/examples/README.md: each `*.record.json` has its `*.expected.json`."""
    assert len(SAMPLES) >= 40
    assert len(TALLY_SAMPLES) >= 35
    for folder, names in ((EXAMPLES, SAMPLES), (TALLY_EXAMPLES, TALLY_SAMPLES)):
        for name in names:
            assert (folder / f"{name}.expected.json").is_file(), name


@pytest.mark.parametrize("name", SAMPLES)
def test_the_sample_record_replays_to_its_expected_summary(name):
    """RECORD_FORMAT.md: the summary, or the first violation, exactly."""
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))

    assert comparable(replay(record.load(EXAMPLES / f"{name}.record.json")).summary(), expected) == expected


@pytest.mark.parametrize("name", TALLY_SAMPLES)
def test_the_paper_sheet_sample_replays_to_its_expected_summary(name):
    """RECORD_FORMAT.md 1.1, R31–R33: tallied and points-only deals, ``entry`` included, exactly."""
    expected = json.loads((TALLY_EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))

    assert replay(record.load(TALLY_EXAMPLES / f"{name}.record.json")).summary() == expected


def test_the_engine_loads_without_django():
    """STYLE.md, a pure core: importing the engine and the simulator loads no django module."""
    script = (
        "import sys\n"
        "import games.engine, games.engine.simulate, games.engine.replay, games.engine.record\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(loaded))\n"
        "sys.exit(1 if loaded else 0)\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}  # no DJANGO_SETTINGS_MODULE either
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)

    assert done.returncode == 0, f"django modules loaded: {done.stdout.strip()} {done.stderr.strip()}"


def test_no_engine_source_imports_django():
    """STYLE.md: no import line of the engine names django."""
    imports = re.compile(r"^\s*(?:from\s+(\S+)\s+import|import\s+(.+))", re.MULTILINE)
    sources = sorted(ENGINE.glob("*.py"))
    assert len(sources) >= 13

    offending = [
        f"{path.name}: {match.group(0).strip()}"
        for path in sources
        for match in imports.finditer(path.read_text(encoding="utf-8"))
        if "django" in match.group(0).lower()
    ]
    assert offending == []


# --- the record codec: shape errors name their field ------------------------------------------------


def minimal_record():
    deck = [rank + suit for suit in "SHDC" for rank in "23456789TJQKA"]
    return {
        "format": "kierki-match/1",
        "ruleset": {"name": "rozbojnik-odgrywka", "options": {}},
        "players": {"N": "Ala", "E": "Bartek", "S": "Celina", "W": 7},
        "first_dealer": "N",
        "deals": [{"hands": {seat: deck[13 * i : 13 * i + 13] for i, seat in enumerate("NESW")}, "plays": ["3S"]}],
    }


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda r: r.update(format="kierki-match/2"), "format"),
        (lambda r: r.pop("players"), "players"),
        (lambda r: r["players"].pop("S"), "players.S"),
        (lambda r: r.update(first_dealer="X"), "first_dealer"),
        (lambda r: r["ruleset"]["options"].update(heart_discard="upwards"), "ruleset.heart_discard"),
        (lambda r: r["deals"][0]["hands"].pop("W"), "deals[0].hands.W"),
        (lambda r: r["deals"][0]["hands"]["E"].__setitem__(4, "1H"), "deals[0].hands.E[4]"),
        (lambda r: r["deals"][0]["plays"].append("ZZ"), "deals[0].plays[1]"),
        (lambda r: r["deals"][0].update(plays="3S"), "deals[0].plays"),
        (lambda r: r["deals"][0].update(sale={"buyer": "E"}), "deals[0].sale.price"),
        (lambda r: r.update(deals={}), "deals"),
    ],
)
def test_a_record_that_cannot_be_read_is_a_format_error_naming_the_field(change, field):
    """RECORD_FORMAT.md: decoding checks the shape only and names the offending field."""
    data = minimal_record()
    change(data)

    with pytest.raises(RecordFormatError) as caught:
        record.decode(data)
    assert caught.value.field == field


def test_a_well_formed_record_decodes_and_encodes_back():
    """RECORD_FORMAT.md: encode gives back the JSON decode read."""
    data = minimal_record()

    decoded = record.decode(data)
    assert record.encode(decoded) == data
    assert replay(decoded).summary()["error"]["code"] == "not_your_turn"  # E leads deal 1, 3S is N's


def test_a_file_that_is_not_json_is_a_format_error(tmp_path):
    """RECORD_FORMAT.md: a record is JSON."""
    path = tmp_path / "broken.record.json"
    path.write_text("{not json", encoding="utf-8")

    with pytest.raises(RecordFormatError):
        record.load(path)
