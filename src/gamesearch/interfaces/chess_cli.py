"""The chess commands of ``gamesearch``: ``uci`` and ``epd`` (wired into the command line
by :func:`add_chess_commands`; ``perft`` is every game's, in :mod:`.cli`).

    gamesearch uci [--weights FILE|NAME]
    gamesearch epd FILE --time S [--nodes N] [--json] [--limit N] [--hash MB]
                   [--weights FILE|NAME]

Like every command, bad input ends with a one-line message and exit status 2.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from ..argtypes import argtype, help_range
from ..errors import GameError, echo
from ..files import iter_lines


class ChessCliError(GameError):
    """Bad input to a chess command."""


def _apply_weights(name_or_path: str | None) -> None:
    """Evaluate with the weights ``--weights`` names (a shipped name or a JSON file)."""
    if name_or_path is None:
        return
    try:
        from ..games.chess.weights import apply_weights, load_weights
    except ImportError:
        raise ChessCliError("--weights needs python-chess: pip install 'gamesearch[chess]'"
                            ) from None
    apply_weights(load_weights(name_or_path))


def cmd_uci(args: argparse.Namespace, out: TextIO) -> int:
    from .uci_engine import main

    _apply_weights(args.weights)
    return main()


def _epd_lines(path: str, limit: int | None) -> list[tuple[int, str]]:
    """The numbered positions of an EPD file (``-``: standard input), each with a ``bm`` or
    ``am`` operation to score the engine's move against."""
    try:
        import chess
    except ImportError:
        raise ChessCliError("epd needs python-chess: pip install 'gamesearch[chess]'") from None

    lines: list[tuple[int, str]] = []
    for number, raw in iter_lines(path, "EPD file"):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if limit is not None and len(lines) >= limit:
            break
        try:
            _, ops = chess.Board.from_epd(line)
        except ValueError:
            ops = {"bm": None}  # run_epd names the line that does not parse
        if "bm" not in ops and "am" not in ops:
            raise ChessCliError(f"EPD line {number}: no bm or am operation, so there is no "
                                "move to score against")
        lines.append((number, line))
    if not lines:
        raise ChessCliError(f"{echo(path)} holds no EPD positions")
    return lines


def cmd_epd(args: argparse.Namespace, out: TextIO) -> int:
    from .uci_engine import EpdResult, run_epd

    lines = _epd_lines(args.file, args.limit)
    _apply_weights(args.weights)

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


WEIGHTS_HELP = ("the evaluation's weights: a weights file (gamesearch tune chess --out) or "
                "a shipped name, pesto or tuned (default: the engine's own)")


def add_chess_commands(sub: Any) -> None:
    """Add ``uci`` and ``epd`` to the ``gamesearch`` sub-command parsers."""
    s = sub.add_parser("uci", help="run the chess engine on the UCI protocol (stdin/stdout)")
    s.add_argument("--weights", metavar="FILE|NAME", default=None, help=WEIGHTS_HELP)
    s.set_defaults(func=cmd_uci)

    s = sub.add_parser("epd", help="run a chess test suite (EPD with bm/am) and score it")
    s.add_argument("file", help="the EPD file (- for standard input)")
    s.add_argument("--time", type=argtype("time"), help="seconds per position "
                   + help_range("time"))
    s.add_argument("--nodes", type=argtype("nodes"), help="nodes per position (reproducible) "
                   + help_range("nodes"))
    s.add_argument("--limit", type=argtype("limit"), help="only the first N positions "
                   + help_range("limit"))
    s.add_argument("--hash", type=argtype("hash"), default=64,
                   help="table size in MiB (default 64) " + help_range("hash"))
    s.add_argument("--json", action="store_true", help="one JSON object per position")
    s.add_argument("--weights", metavar="FILE|NAME", default=None, help=WEIGHTS_HELP)
    s.set_defaults(func=cmd_epd)
