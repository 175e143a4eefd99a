"""The ``kierki`` command: verify, benchmark, simulate and analyse match records; verify checkpoints.

It imports the rules engine only — no Django, no database — so it runs anywhere the
package is installed, e.g. by an arbiter checking an exported record offline.
``verify-checkpoint`` adds ``games.domain.checkpoints`` (the standard library and ``cryptography``).
``play`` adds ``games.cli.bot``: a seat of a live match played through the REST API (``urllib``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from gettext import gettext as _
from pathlib import Path

from games.engine import record as records
from games.engine import replay
from games.engine.analysis import Analyser, Analysis, deal_position
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

    check = commands.add_parser(
        "verify-checkpoint",
        help="check a signed checkpoint and its heads file offline; exit 1 if anything fails",
        description="Verify CHECKPOINT's Ed25519 signature and that HEADS recomputes to its heads_hash; with "
        "--audit, that each exported log (GET /matches/{id}/audit/) chains and still holds the "
        "checkpointed head; with --record, that the record's finished deals are the log's.",
    )
    check.add_argument("checkpoint", metavar="CHECKPOINT.json")
    check.add_argument("heads", metavar="HEADS.json")
    check.add_argument(
        "--public-key",
        metavar="KEY",
        help="the club's pinned public key (base64, or @FILE); without it the key named in the checkpoint is used",
    )
    check.add_argument(
        "--audit", action="append", default=[], metavar="AUDIT.json", help="an exported audit of one match (repeatable)"
    )
    check.add_argument("--record", metavar="RECORD.json", help="a kierki-match/1 record of the (single) --audit match")
    check.set_defaults(run=run_verify_checkpoint)

    study = commands.add_parser(
        "analyse",
        help="what each seat could still reach from a position of a deal (the arbiter's analysis)",
        description="For each seat: worst and best final points of the deal over every legal continuation, and "
        "what it guarantees against the other three; for the seat on turn, each legal card's value.",
    )
    study.add_argument("record", metavar="RECORD", help="a kierki-match/1 record file")
    study.add_argument("--deal", type=_positive, required=True, metavar="N", help="the deal's number (1-based)")
    study.add_argument(
        "--at",
        type=_positions,
        required=True,
        metavar="PLAY",
        help="the position: plays made in that deal (0-52); a range A-B or a list A,B,… for several",
    )
    study.add_argument(
        "--budget",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="search time per position; past it the values are proven bounds (default 10)",
    )
    study.add_argument(
        "--nodes",
        type=_positive,
        default=None,
        metavar="N",
        help="search nodes per position instead of seconds: the same answer on any machine",
    )
    study.add_argument("--json", action="store_true", help="one JSON object per position per line")
    study.set_defaults(run=run_analyse)

    play = commands.add_parser(
        "play",
        help="play a seat of a match through the REST API until it ends",
        description="A bot for the token's seat: follows the match (long-poll), plays "
        "legal cards, deals when due (North, or --deal), offers for and "
        "sells the lead now and then. Exit 0 when the match is over.",
    )
    play.add_argument("--server", required=True, metavar="URL", help="e.g. http://127.0.0.1:8000")
    play.add_argument(
        "--token",
        default=os.environ.get("KIERKI_TOKEN"),
        metavar="TOKEN",
        help="the player's API token (default: $KIERKI_TOKEN, which keeps it out of `ps`)",
    )
    play.add_argument("--match", required=True, metavar="ID")
    play.add_argument(
        "--strategy",
        choices=["random", "low", "high"],
        default="random",
        help="which legal card: at random, the lowest or the highest rank (default random)",
    )
    play.add_argument("--seed", type=int, metavar="S", help="seed the bot's choices")
    play.add_argument("--deal", action="store_true", help="deal when due even when not sitting North")
    play.add_argument(
        "--offer-rate",
        type=_rate,
        default=0.3,
        metavar="P",
        help="chance of offering for the lead in a compensating odgrywka (default 0.3)",
    )
    play.add_argument(
        "--accept-rate",
        type=_rate,
        default=0.5,
        metavar="P",
        help="chance, as lead holder, of accepting the best offer rather than keeping (default 0.5)",
    )
    play.add_argument(
        "--offer-wait",
        type=float,
        default=2.0,
        metavar="SECONDS",
        help="how long the lead holder waits for offers (default 2)",
    )
    play.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    play.set_defaults(run=run_play)
    return parser


def _rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _positions(text: str) -> list[int]:
    """``40``, ``40-44`` or ``40,44,48``: plays made in the deal."""
    try:
        if "-" in text:
            first, last = (int(part) for part in text.split("-", 1))
            values = list(range(first, last + 1))
        else:
            values = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(_("must be a play count, a range A-B or a list A,B: got %r") % text) from None
    if not values or any(not 0 <= v <= 52 for v in values):
        raise argparse.ArgumentTypeError(_("play counts are 0 to 52: got %r") % text)
    return values


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
    _print_json(
        {
            "records": len(loaded),
            "plays": plays,
            "seconds": round(best, 6),
            "plays_per_second": round(plays / best) if best else None,
        }
    )
    return EXIT_OK


def run_simulate(args: argparse.Namespace) -> int:
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for number, match in enumerate(simulate(args.matches, args.seed), 1):
        target = out / f"sim-{args.seed}-{number:05d}.record.json"
        target.write_text(json.dumps(match, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.matches} records to {out}")
    return EXIT_OK


def run_verify_checkpoint(args: argparse.Namespace) -> int:
    from games.domain import checkpoints  # the engine's neighbour: standard library and cryptography, no Django

    if args.record and len(args.audit) != 1:
        print("--record needs exactly one --audit (the log of the same match)", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        checkpoint, heads = _read_json(args.checkpoint), _read_json(args.heads)
        audits = [(path, _read_json(path)) for path in args.audit]
        record = _read_json(args.record) if args.record else None
        public_key = args.public_key
        if public_key and public_key.startswith("@"):
            public_key = Path(public_key[1:]).read_text(encoding="utf-8").strip()
    except (OSError, ValueError) as exc:
        print(f"unreadable: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    results = [(args.checkpoint, checkpoints.verify_checkpoint(checkpoint, heads, public_key=public_key))]
    if public_key is None:
        print(
            "note: no --public-key given: the signature is checked against the key the checkpoint names",
            file=sys.stderr,
        )
    for path, exported in audits:
        match_id = exported.get("match") if isinstance(exported, dict) else None
        log = exported.get("events") if isinstance(exported, dict) else None
        if match_id is None or not isinstance(log, list):
            results.append((path, checkpoints.Check(False, "not an audit export: no match and events")))
            continue
        seal_key = public_key or (checkpoint.get("public_key") if isinstance(checkpoint, dict) else None)
        results.append((path, checkpoints.verify_log(match_id, log, heads, public_key=seal_key)))
        if record is not None:
            results.append((args.record, checkpoints.verify_record(record, log)))
    for name, check in results:
        print(f"{name}: {'ok' if check.ok else 'FAILED'}{f' ({check.reason})' if check.reason else ''}")
    return EXIT_OK if all(check.ok for _, check in results) else EXIT_ILLEGAL


def run_analyse(args: argparse.Namespace) -> int:
    try:
        result = replay(_load(args.record, Path(args.record)))
    except RecordFormatError as exc:
        print(_("%(record)s: unreadable: %(error)s") % {"record": args.record, "error": exc}, file=sys.stderr)
        return EXIT_UNREADABLE
    deals = [r.final for r in result.state.results] + ([result.state.deal] if result.state.deal else [])
    if not result.ok:
        print(
            _("%(record)s: note: the record is illegal (%(error)s); its legal part is analysed")
            % {"record": args.record, "error": result.error},
            file=sys.stderr,
        )
    if args.deal > len(deals):
        print(
            _("%(record)s: no deal %(deal)d (the record has %(count)d)")
            % {"record": args.record, "deal": args.deal, "count": len(deals)},
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    deal = deals[args.deal - 1]
    if max(args.at) > len(deal.plays):
        print(
            _("%(record)s: deal %(deal)d has %(plays)d plays: --at must be 0 to %(plays)d")
            % {"record": args.record, "deal": args.deal, "plays": len(deal.plays)},
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    analyser = Analyser()  # the positions of one deal: each search starts from the tables of the ones before
    for at in args.at:
        analysis = analyser.analyse(deal_position(deal, at), budget=args.budget, nodes=args.nodes)
        if args.json:
            _print_json({"deal": args.deal, "at": at, **analysis.as_json()})
        else:
            print(describe_analysis(analysis, deal=args.deal, at=at, kind=deal.kind.value))
    return EXIT_OK


def describe_analysis(analysis: Analysis, *, deal: int, at: int, kind: str) -> str:
    """The analysis of one position as a small table, for people."""
    if analysis.to_play is None:
        head = _("deal %(deal)d (%(kind)s) after %(at)d plays: finished") % {"deal": deal, "kind": kind, "at": at}
    else:
        head = _("deal %(deal)d (%(kind)s) after %(at)d plays: %(seat)s to play") % {
            "deal": deal,
            "kind": kind,
            "at": at,
            "seat": analysis.to_play.name,
        }
    exactness = _("exact") if analysis.exact else _("NOT exact: the budget ran out, values are proven bounds")
    lines = [f"{head}, {exactness}", f"{_('seat'):<6}{_('worst'):>8}{_('best'):>8}{_('guaranteed'):>12}"]
    for seat, values in analysis.as_json()["seats"].items():
        lines.append(f"{seat:<6}{values['worst']:>8}{values['best']:>8}{values['guaranteed']:>12}")
    cards = analysis.card_values()
    if cards:
        top = max(cards.values())
        marked = "  ".join(f"{card} {value}{'*' if value == top else ''}" for card, value in cards.items())
        lines.append(
            _("%(seat)s's cards (guaranteed after each; * the best): %(cards)s")
            % {"seat": analysis.to_play.name, "cards": marked}
        )
    return "\n".join(lines)


def _read_json(path: str):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise OSError(f"{path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON: {exc}") from None


EXIT_GAVE_UP = 1  # kierki play: the server refused the bot (e.g. 401, 403, 404) or stayed unreachable


def run_play(args: argparse.Namespace) -> int:
    from games.cli import bot  # urllib only for the command that talks HTTP

    if not args.token:
        print("kierki play: give --token or set KIERKI_TOKEN", file=sys.stderr)
        return EXIT_UNREADABLE
    policy = bot.Policy(
        strategy=args.strategy,
        deal=True if args.deal else None,
        offer_rate=args.offer_rate,
        accept_rate=args.accept_rate,
        offer_wait=args.offer_wait,
    )
    try:
        final = bot.play(args.server, args.token, args.match, policy=policy, seed=args.seed, quiet=args.quiet)
    except (bot.ApiError, bot.BotError, OSError) as error:
        print(f"kierki play: {error}", file=sys.stderr)
        return EXIT_GAVE_UP
    except KeyboardInterrupt:
        return 130
    _print_json(
        {"match": final["id"], "status": final["status"], "totals": final["totals"], "winners": final["winners"]}
    )
    return EXIT_OK


def _print_json(obj: dict) -> None:
    print(json.dumps(obj, sort_keys=False, separators=(",", ":")))


if __name__ == "__main__":
    sys.exit(main())
