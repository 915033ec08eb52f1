"""The chess commands of ``gamesearch``: ``uci`` and ``epd`` (wired into the command line
by :func:`add_chess_commands`; ``perft`` is every game's, in :mod:`gamesearch.cli`).

    gamesearch uci
    gamesearch epd FILE --time S [--nodes N] [--json] [--limit N] [--hash MB]

Like every command, bad input ends with a one-line message and exit status 2.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from .argtypes import positive_int, positive_seconds
from .errors import GameError


class ChessCliError(GameError):
    """Bad input to a chess command."""


def cmd_uci(args: argparse.Namespace, out: TextIO) -> int:
    from .uci import main

    return main()


def cmd_epd(args: argparse.Namespace, out: TextIO) -> int:
    from .uci import EpdResult, read_epd, run_epd

    lines = read_epd(args.file)
    if args.limit is not None:
        lines = lines[: args.limit]
    if not lines:
        raise ChessCliError(f"{args.file!r} holds no EPD positions")

    def show(r: EpdResult) -> None:
        if args.json:
            out.write(json.dumps(r.as_dict()) + "\n")
        else:
            mark = "solved" if r.solved else "-"
            want = ("bm " + " ".join(r.best)) if r.best else ""
            if r.avoid:
                want += (" " if want else "") + "am " + " ".join(r.avoid)
            out.write(f"{r.id:<12} {r.san:<8} {mark:<7} {want:<20} depth {r.depth:>2} "
                      f"{r.nodes:>9} nodes  {r.score}\n")
        out.flush()

    if args.time is None and args.nodes is None:
        raise ChessCliError("epd: give --time S (seconds per position) or --nodes N")
    results = run_epd(lines, args.time, show, hash_mb=args.hash, nodes=args.nodes)
    solved = sum(r.solved for r in results)
    budget = " and ".join(
        ([f"{args.time:g} s"] if args.time is not None else [])
        + ([f"{args.nodes} nodes"] if args.nodes is not None else []))
    if args.json:
        out.write(json.dumps({"total": len(results), "solved": solved,
                              "time_per_position": args.time,
                              "nodes_per_position": args.nodes}) + "\n")
    else:
        out.write(f"solved {solved}/{len(results)} at {budget} per position\n")
    return 0


def add_chess_commands(sub: Any) -> None:
    """Add ``uci`` and ``epd`` to the ``gamesearch`` sub-command parsers."""
    s = sub.add_parser("uci", help="run the chess engine on the UCI protocol (stdin/stdout)")
    s.set_defaults(func=cmd_uci)

    s = sub.add_parser("epd", help="run a chess test suite (EPD with bm/am) and score it")
    s.add_argument("file")
    s.add_argument("--time", type=positive_seconds, help="seconds per position")
    s.add_argument("--nodes", type=positive_int, help="nodes per position (reproducible)")
    s.add_argument("--limit", type=positive_int, help="only the first N positions")
    s.add_argument("--hash", type=positive_int, default=64, help="table size in MiB")
    s.add_argument("--json", action="store_true", help="one JSON object per position")
    s.set_defaults(func=cmd_epd)
