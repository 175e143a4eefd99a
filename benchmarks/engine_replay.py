"""Rules-engine figures (issue 2): replay speed and `kierki verify` wall time.

    .venv/bin/python benchmarks/engine_replay.py [--matches 200] [--repeat 5]

Simulates matches into a temporary folder, then runs the installed `kierki` command:
`kierki bench` (card plays per second, best of N, one process, one core) and
`kierki verify` of a 100-match folder timed from process start to exit.
Targets: ≥ 600,000 plays/s; verify of 100 matches < 2 s.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def kierki() -> str:
    return shutil.which("kierki") or str(Path(sys.executable).with_name("kierki"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder, hundred = Path(tmp) / "bench", Path(tmp) / "hundred"
        subprocess.run(
            [kierki(), "simulate", "--matches", str(args.matches), "--seed", "2026", str(folder)],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [kierki(), "simulate", "--matches", "100", "--seed", "7", str(hundred)], check=True, capture_output=True
        )
        bench = subprocess.run(
            [kierki(), "bench", "--repeat", str(args.repeat), str(folder)], check=True, capture_output=True, text=True
        )
        figures = json.loads(bench.stdout.strip().splitlines()[-1])
        started = time.perf_counter()
        subprocess.run([kierki(), "verify", str(hundred)], check=True, capture_output=True)
        verify_seconds = time.perf_counter() - started
    print(
        f"replay: {figures['plays_per_second']:,} card plays/s "
        f"({figures['plays']:,} plays in {figures['records']} records, best of {args.repeat}: {figures['seconds']} s)"
    )
    print(f"kierki verify, 100 matches, wall time including start-up: {verify_seconds:.3f} s")
    print(json.dumps({"plays_per_second": figures["plays_per_second"], "verify_100_seconds": round(verify_seconds, 3)}))


if __name__ == "__main__":
    main()
