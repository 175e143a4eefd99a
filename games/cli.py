"""The ``kierki`` command: verify, benchmark and simulate match records.

It imports the rules engine only — no Django, no database — so it runs anywhere the
package is installed, e.g. by an arbiter checking an exported record offline.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Iterator

from games.engine import record as records
from games.engine import replay
from games.engine.errors import RecordFormatError
from games.engine.simulate import simulate

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:  # e.g. `kierki verify DIR | head`
        sys.stderr.close()
        return args.run is run_verify and EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kierki", description="Kierki (rozbójnik/odgrywka) match records.")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    verify = commands.add_parser("verify", help="replay records under the rules; exit 1 if any is illegal")
    verify.add_argument("--json", action="store_true", help="one JSON summary per record per line")
    verify.add_argument("paths", nargs="+", metavar="PATH", help="a record file or a folder of *.record.json")
    verify.set_defaults(run=run_verify)

    bench = commands.add_parser("bench", help="replay records N times and report card plays per second")
    bench.add_argument("--repeat", type=_positive, default=5, metavar="N")
    bench.add_argument("paths", nargs="+", metavar="PATH")
    bench.set_defaults(run=run_bench)

    sim = commands.add_parser("simulate", help="write N random legal match records")
    sim.add_argument("--matches", type=_positive, required=True, metavar="N")
    sim.add_argument("--seed", type=int, required=True, metavar="S")
    sim.add_argument("out_dir", metavar="OUT_DIR")
    sim.set_defaults(run=run_simulate)
    return parser


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def record_paths(paths: list[str]) -> Iterator[tuple[str, Path]]:
    """Each PATH as given, or each ``*.record.json`` of a folder (sorted), with its display name."""
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for found in sorted(path.glob("*.record.json")):
                yield str(found), found
        else:
            yield given, path


def _load(name: str, path: Path) -> records.MatchRecord:
    try:
        return records.load(path)
    except OSError as exc:
        raise RecordFormatError(f"cannot read: {exc.strerror}") from None


def run_verify(args: argparse.Namespace) -> int:
    status = EXIT_OK
    for name, path in record_paths(args.paths):
        try:
            result = replay(_load(name, path))
        except RecordFormatError as exc:
            print(f"{name}: unreadable: {exc}", file=sys.stderr)
            if args.json:
                _print_json({"record": name, "unreadable": {"field": exc.field, "message": exc.reason}})
            status = EXIT_UNREADABLE
            continue
        if not result.ok and status == EXIT_OK:
            status = EXIT_ILLEGAL
        if args.json:
            _print_json({**result.summary(), "record": name})
        else:
            print(f"{name}: {_describe(result)}")
    return status


def _describe(result) -> str:
    if not result.ok:
        return f"ILLEGAL {result.error}"
    summary = result.summary()
    totals = " ".join(f"{seat} {points:+d}" for seat, points in summary["totals"].items())
    state = "complete" if summary["complete"] else "in progress"
    winners = f", winners {' '.join(summary['winners'])}" if summary["winners"] else ""
    return f"ok, {state}, {len(summary['deals'])} deals, totals {totals}{winners}"


def run_bench(args: argparse.Namespace) -> int:
    loaded = []
    for name, path in record_paths(args.paths):
        try:
            loaded.append(_load(name, path))
        except RecordFormatError as exc:
            print(f"{name}: unreadable: {exc}", file=sys.stderr)
            return EXIT_UNREADABLE
    plays = sum(len(deal.plays) for match in loaded for deal in match.deals)
    best = float("inf")
    for round_no in range(1, args.repeat + 1):
        started = time.perf_counter()
        for match in loaded:
            replay(match)
        elapsed = time.perf_counter() - started
        best = min(best, elapsed)
        print(f"round {round_no}: {elapsed:.4f} s", file=sys.stderr)
    _print_json({"records": len(loaded), "plays": plays, "seconds": round(best, 6),
                 "plays_per_second": round(plays / best) if best else None})
    return EXIT_OK


def run_simulate(args: argparse.Namespace) -> int:
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for number, match in enumerate(simulate(args.matches, args.seed), 1):
        target = out / f"sim-{args.seed}-{number:05d}.record.json"
        target.write_text(json.dumps(match, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.matches} records to {out}")
    return EXIT_OK


def _print_json(obj: dict) -> None:
    print(json.dumps(obj, sort_keys=False, separators=(",", ":")))


if __name__ == "__main__":
    sys.exit(main())
