"""benchmarks/live_latency.py's smoke run: 20 streams over two nodes hear every play, with
notifications and with polling (figures only printed; docs/live-updates.md has the full run's)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import IN_CI

from benchmarks import nodes as harness

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]


def test_the_latency_benchmark_smoke_run_gets_every_frame_in_both_modes():
    missing = harness.missing_programs()
    if missing:
        (pytest.fail if IN_CI else pytest.skip)(f"needs {', '.join(missing)} (.ci/run installs them)")
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
    done = subprocess.run(
        [sys.executable, "benchmarks/live_latency.py", "--smoke", "--redis-url", redis_url],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])["results"]
    assert [r["mode"] for r in results] == ["notify", "poll"]
    for result in results:
        assert result["plays"] == 8 and result["frames"] == 8 * 20 // 4 and result["missing"] == 0
