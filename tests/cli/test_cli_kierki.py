"""The `kierki` command as a user runs it: exit codes, output, and files written."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import EXAMPLES, TALLY_EXAMPLES
from support.summaries import summary_as_expected

from games.cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_exits_0_for_legal_and_unfinished_records(capsys):
    code, out, _ = run(
        capsys, "verify", str(EXAMPLES / "m1-legal.record.json"), str(EXAMPLES / "m1-partial.record.json")
    )
    assert code == 0
    assert "ok, complete" in out and "ok, in progress" in out


def test_verify_exits_1_and_names_the_rule_for_an_illegal_record(capsys):
    code, out, _ = run(capsys, "verify", str(EXAMPLES / "m1-illegal.record.json"))
    assert code == 1
    assert "must_follow_suit [R16]" in out


def verified(capsys, folder: Path) -> tuple[int, list[tuple[dict, dict]]]:
    """``kierki verify --json`` over ``folder``: its exit code, and each summary printed (one per
    record, its ``record`` path taken out) with the expected file of that record."""
    code, out, _ = run(capsys, "verify", "--json", str(folder))
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == len(list(folder.glob("*.record.json")))
    expected = [json.loads(Path(line.pop("record").replace(".record.", ".expected.")).read_text()) for line in lines]
    return code, list(zip(lines, expected))


def test_verify_json_prints_each_summary_with_the_record_path(capsys):
    code, summaries = verified(capsys, EXAMPLES)
    assert code == 1  # the folder holds illegal samples
    for summary, expected in summaries:
        assert summary_as_expected(summary, expected) == expected


def test_verify_reads_paper_sheet_records(capsys):
    """Issue 13: ``kierki verify`` replays tallied and points-only deals (R31–R33) to their summaries."""
    code, summaries = verified(capsys, TALLY_EXAMPLES)
    assert code == 1  # the folder holds illegal samples
    for summary, expected in summaries:
        assert summary == expected


def test_verify_exits_2_naming_the_file_and_field_of_a_string_that_is_not_a_card(tmp_path, capsys):
    record = json.loads((EXAMPLES / "m3-legal.record.json").read_text())
    record["deals"][1]["plays"][5] = "1X"
    bad = tmp_path / "bad.record.json"
    bad.write_text(json.dumps(record))
    code, _, err = run(capsys, "verify", str(bad), str(EXAMPLES / "m1-legal.record.json"))
    assert code == 2
    assert str(bad) in err and "deals[1].plays[5]" in err and "'1X'" in err


@pytest.mark.parametrize(
    "content, field",
    [
        ("{not json", "not valid JSON"),
        (
            '{"ruleset": {"options": {}}, "players": {"N": "a", "E": "b", "S": "c", "W": "d"}, "deals": []}',
            "first_dealer",
        ),
        ('{"ruleset": {"options": {"jokers": 2}}, "players": {}, "first_dealer": "N", "deals": []}', "ruleset.jokers"),
    ],
)
def test_verify_exits_2_on_unreadable_records(tmp_path, capsys, content, field):
    bad = tmp_path / "x.record.json"
    bad.write_text(content)
    code, out, err = run(capsys, "verify", "--json", str(bad))
    assert code == 2
    assert field in err
    assert json.loads(out)["unreadable"]["message"]


def test_simulate_writes_legal_finished_matches_that_verify_accepts(tmp_path, capsys):
    code, _, _ = run(capsys, "simulate", "--matches", "5", "--seed", "11", str(tmp_path))
    assert code == 0
    files = sorted(tmp_path.glob("*.record.json"))
    assert len(files) == 5
    code, out, _ = run(capsys, "verify", "--json", str(tmp_path))
    assert code == 0
    assert all(json.loads(line)["complete"] for line in out.splitlines())


def test_simulate_is_reproducible_from_its_seed(tmp_path, capsys):
    run(capsys, "simulate", "--matches", "2", "--seed", "3", str(tmp_path / "a"))
    run(capsys, "simulate", "--matches", "2", "--seed", "3", str(tmp_path / "b"))
    for a in (tmp_path / "a").iterdir():
        assert a.read_bytes() == (tmp_path / "b" / a.name).read_bytes()


def test_bench_prints_its_figures_as_json_on_the_last_line(capsys):
    code, out, _ = run(capsys, "bench", "--repeat", "2", str(EXAMPLES / "m1-legal.record.json"))
    figures = json.loads(out.strip().splitlines()[-1])
    assert code == 0
    assert figures["records"] == 1
    record = json.loads((EXAMPLES / "m1-legal.record.json").read_text())
    assert figures["plays"] == sum(len(d["plays"]) for d in record["deals"])
    assert figures["plays_per_second"] > 0 and figures["seconds"] > 0


def test_the_installed_command_runs_without_django(tmp_path):
    """The console script imports only the engine: it works with Django unimportable."""
    blocker = tmp_path / "django"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('django must not be imported by kierki')\n")
    script = shutil.which("kierki") or str(Path(sys.executable).with_name("kierki"))
    env = {"PYTHONPATH": str(tmp_path), "PATH": str(Path(sys.executable).parent)}
    done = subprocess.run(
        [script, "verify", str(EXAMPLES / "m2-legal.record.json")], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "ok, complete" in done.stdout
