"""The load benchmark's pure pieces (benchmarks/load.py): the RSS reader, the club-pace schedule,
the standings comparison, the tables' split over client processes, the options and the targets.
Nothing here is timed; the benchmark itself runs by hand (docs/benchmarks.md)."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks import load  # noqa: E402


def test_the_rss_reader_takes_the_vmrss_line_in_kib():
    status = "Name:\tpython3\nVmPeak:\t  999999 kB\nVmHWM:\t  60000 kB\nVmRSS:\t   51234 kB\nRssAnon:\t 1 kB\n"
    assert load.vm_rss_kib(status) == 51234
    assert load.vm_rss_kib("Name:\tpython3\nState:\tZ (zombie)\n") == 0


def test_the_rss_of_a_process_counts_its_children():
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; b = b'x' * (64 << 20); print(1, flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "1\n"  # its 64 MiB are written, so resident
        tree = load.process_tree(os.getpid())
        own = load.vm_rss_kib(Path(f"/proc/{os.getpid()}/status").read_text()) / 1024
        assert tree[0] == os.getpid() and child.pid in tree
        assert load.rss_mib(os.getpid()) >= own + 60
    finally:
        child.kill()
        child.wait()


def test_the_cpu_meter_keeps_what_a_process_used_before_it_ended():
    burn = "import sys, time\nwhile time.process_time() < 0.3: pass\nprint(1, flush=True)\nsys.stdin.read()"
    child = subprocess.Popen([sys.executable, "-c", burn], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        meter = load.CpuMeter({"child": lambda: [child.pid]}, interval=3600)  # read by hand below
        assert child.stdout.readline() == "1\n"
        meter._update()  # a reading while it runs, as the meter's thread takes every second
    finally:
        child.kill()
        child.wait()
    used = meter.stop()["child"]  # the process is gone now
    assert 0.2 <= used <= 1.0


def test_a_club_pace_table_plays_about_once_a_second_with_jitter():
    rng = random.Random(7)
    slot, gaps = 100.0, []
    for _ in range(2000):
        nxt = load.next_slot(slot, now=slot - 5, rng=rng)  # on time: the schedule decides
        gaps.append(nxt - slot)
        slot = nxt
    assert min(gaps) >= 0.8 and max(gaps) <= 1.2
    assert len({round(g, 3) for g in gaps}) > 100  # not a fixed beat
    assert 0.98 <= sum(gaps) / len(gaps) <= 1.02


def test_a_table_that_fell_behind_plays_at_once_and_does_not_catch_up_in_a_burst():
    rng = random.Random(1)
    assert load.next_slot(10.0, now=15.0, rng=rng) == 15.0
    following = load.next_slot(15.0, now=15.05, rng=rng)
    assert following >= 15.8


def test_tables_started_together_drift_out_of_lock_step():
    phases = []
    for table in range(64):
        rng = random.Random(table)
        slot = rng.uniform(0, load.PACE)
        for _ in range(60):
            slot = load.next_slot(slot, now=0.0, rng=rng)
        phases.append(slot % 1)
    assert len({round(p, 2) for p in phases}) > 40


def test_tables_start_spread_over_the_warm_up_and_all_before_it_settles():
    rng = random.Random(3)
    starts = [load.start_moment(100.0, 160.0, rng) for _ in range(64)]
    assert min(starts) >= 100.0 and max(starts) <= 160.0 - load.SETTLE
    assert max(starts) - min(starts) > 40  # spread, not bunched
    assert load.start_moment(100.0, 100.0, rng) == 100.0  # no warm-up: at once


ROW = {"order": 1, "position": 1, "player": 5, "matches": 3, "balance": 120, "mu": 27.1, "last_played": "2025-01-01"}


def test_standings_equal_to_a_rebuild_have_no_difference():
    assert (
        load.standings_difference([ROW, {**ROW, "order": 2, "player": 6}], [ROW, {**ROW, "order": 2, "player": 6}])
        is None
    )


def test_a_standings_difference_names_the_row_the_player_and_the_column():
    found = load.standings_difference(
        [ROW, {**ROW, "order": 2, "player": 6, "balance": -120}],
        [ROW, {**ROW, "order": 2, "player": 6, "balance": -110}],
    )
    assert found == "row 2 (player 6): balance is -120, a full rebuild has -110"
    assert load.standings_difference([ROW], []) == "1 rows, a full rebuild has 0"


def test_every_table_goes_to_exactly_one_client_process():
    tables = list(range(64))
    parts = load.slices(tables, 3)
    assert len(parts) == 3 and sorted(t for part in parts for t in part) == tables
    assert load.slices([1, 2], 4) == [[1], [2]]


def test_the_options_shorten_matches_and_a_bad_deal_letter_is_refused(capsys):
    assert load.parse_args(["--regular-deals", "R"]).options == {"regular_deals": ["R"]}
    assert load.parse_args(["--regular-deals", "RRRROOOO"]).options == {}
    assert load.parse_args([]).modes == ["flat", "club"]
    with pytest.raises(SystemExit):
        load.parse_args(["--regular-deals", "RX"])
    assert "--regular-deals: regular_deals must be" in capsys.readouterr().err


def _mode(**figures):
    return {"plays_per_second": 310.0, "p99_ms": 40.0, "errors": [], **figures}


def test_the_targets_are_met_only_when_each_one_is():
    clean = {"failing": {}, "difference": None}
    modes = {"flat": _mode(), "club": _mode()}
    assert all(load.targets_met(modes, {"web": 2.0, "worker": 1.0}, clean).values())

    met = load.targets_met(
        {"flat": _mode(plays_per_second=299.9), "club": _mode(p99_ms=50.1, errors=["play: 500"])},
        {"web": 10.0, "worker": 1.0},
        {"failing": {"m": ["chain broken"]}, "difference": None},
    )
    assert met == {
        "flat_plays_per_second": False,
        "club_p99_ms": False,
        "rss_growth": False,
        "errors": False,
        "audit": False,
    }
    assert load.targets_met({"club": _mode()}, {}, {"failing": {}, "difference": "row 1"})["audit"] is False
    assert load.targets_met({"club": _mode()}, {}, clean)["flat_plays_per_second"] is None
