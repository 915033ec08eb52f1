"""The ``egdb`` commands (wired into ``gamesearch`` by :func:`add_egdb_commands`): build,
verify, count and probe a game's endgame databases.

The game is asked, never named: a game with endgame databases declares the ``egdb`` option
(the database folder) and its ``endgame_database()`` then returns the database, which is
both the prober (:class:`~gamesearch.capabilities.EndgameDatabase`) and the builder
(:class:`~gamesearch.arena.tables.SliceTables`, with ``count`` and ``verify_slice``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from ..arena.tables import BuildProgress, SliceTables, build_tables, verify_tables
from ..argtypes import whole_number
from ..errors import GameError, UnsupportedGameError
from ..files import prepare_folder
from ..games import get_game

#: The game option that names the database folder.
FOLDER_OPTION = "egdb"


def default_folder() -> Path:
    """The per-user data folder of the databases (platformdirs), e.g.
    ``~/.local/share/gamesearch/egdb`` on Linux."""
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - depends on the environment
        return Path.home() / ".local" / "share" / "gamesearch" / "egdb"
    return Path(platformdirs.user_data_dir("gamesearch")) / "egdb"


def open_tables(game_spec: str, folder: str | None) -> tuple[Any, Any]:
    """(game, database) for ``game_spec`` with its databases in ``folder``."""
    game = get_game(game_spec)
    if FOLDER_OPTION not in {o.name for o in getattr(type(game), "options", ())}:
        raise UnsupportedGameError(f"{game.name} has no endgame databases")
    where = str(Path(folder) if folder else default_folder())
    game = get_game(game_spec, **{FOLDER_OPTION: where})
    tables = game.endgame_database()
    if not isinstance(tables, SliceTables):
        raise UnsupportedGameError(f"{game.name}'s endgame database cannot be built here")
    return game, tables


def _hms(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def _bar(stream: TextIO) -> Any:
    shown = [-1.0]

    def show(p: BuildProgress) -> None:
        if p.seconds - shown[0] < 0.5 and p.slices_done < p.slices_total:
            return  # (redrawn twice a second at most)
        shown[0] = p.seconds
        width = 24
        filled = int(width * p.positions_done / max(1, p.positions_total))
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] slices "
                     f"{p.slices_done}/{p.slices_total}  positions {p.positions_done:,}/"
                     f"{p.positions_total:,}  {p.rate:,.0f}/s  left {_hms(p.seconds_left)} ")
        stream.flush()

    return show


def cmd_build(args: argparse.Namespace, out: TextIO) -> int:
    _, tables = open_tables(args.game, args.dir)
    # the folder made and written to once before the build: a --dir that is a file, under
    # /proc, read-only or too long fails here, not after the first slice is solved
    prepare_folder(tables.directory, "--dir")
    quiet = args.json or (not sys.stderr.isatty() and not args.progress)
    state = build_tables(tables, args.pieces, workers=args.workers, backend=args.backend,
                         ray_address=args.ray_address,
                         progress=None if quiet else _bar(sys.stderr))
    if not quiet:
        sys.stderr.write("\n")
    summary = {"game": tables.game, "pieces": args.pieces, "folder": str(tables.directory),
               "slices": state.slices_total, "built": len(state.reports),
               "resumed": state.skipped, "positions": state.positions_total,
               "seconds": round(state.seconds, 3), "positions_per_second": round(state.rate)}
    if args.json:
        json.dump({**summary, "reports": state.reports}, out)
        out.write("\n")
    else:
        out.write(f"{tables.game}: {summary['slices']} slices up to {args.pieces} pieces in "
                  f"{summary['folder']} ({summary['built']} built now, {summary['resumed']} "
                  f"already there); {summary['positions']:,} positions, "
                  f"{summary['seconds']:.1f} s\n")
    return 0


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    _, tables = open_tables(args.game, args.dir)
    pieces = args.pieces if args.pieces is not None else tables.pieces
    report = verify_tables(tables, pieces)
    if args.json:
        json.dump(report, out)
        out.write("\n")
    else:
        out.write(f"{report['slices']} slices, {report['positions']:,} positions checked "
                  f"against their successors: {report['wrong']:,} wrong\n")
    if report["wrong"]:
        raise GameError(f"verify: {report['wrong']} positions disagree with their "
                        f"successors in {', '.join(report['bad_slices'][:5])}")
    return 0


def cmd_count(args: argparse.Namespace, out: TextIO) -> int:
    _, tables = open_tables(args.game, args.dir)
    counts = tables.count(args.pieces)
    if args.json:
        json.dump({"pieces": {str(k): v for k, v in counts.items()},
                   "total": sum(counts.values())}, out)
        out.write("\n")
    else:
        for pieces, n in counts.items():
            out.write(f"{pieces:2d} {n:>20,}\n")
        out.write(f"   {sum(counts.values()):>20,} in all\n")
    return 0


def cmd_probe(args: argparse.Namespace, out: TextIO) -> int:
    game, tables = open_tables(args.game, args.dir)
    state = game.parse_state(args.position)
    # the database's own value (its ``value``, when it has one: no draw rule of the game
    # cuts a long win short here), else what the engine's probe says
    value = getattr(tables, "value", tables.probe)(state)
    if value is None:
        raise GameError(f"{game.name}: the database in {tables.directory} holds positions "
                        f"of up to {tables.pieces} pieces, not this one")
    word = {1: "win", -1: "loss", 0: "draw"}[value.value]
    moves = None if value.plies is None else (value.plies + 1) // 2
    if args.json:
        json.dump({"position": args.position, "value": word, "plies": value.plies,
                   "moves": moves}, out)
        out.write("\n")
    elif value.plies is None:
        out.write("draw\n")
    else:
        out.write(f"{word} for the side to move in {value.plies} plies ({moves} moves)\n")
    return 0


def add_egdb_commands(sub: Any) -> None:
    egdb = sub.add_parser("egdb", help="endgame databases: build, verify, count, probe")
    cmds = egdb.add_subparsers(dest="egdb_command", required=True,
                               parser_class=type(egdb))

    def common(s: argparse.ArgumentParser) -> None:
        s.add_argument("game", help="a game with endgame databases (checkers)")
        s.add_argument("--dir", default=None,
                       help=f"the database folder (default {default_folder()})")
        s.add_argument("--json", action="store_true")

    s = cmds.add_parser("build", help="build every position up to --pieces, resumably")
    common(s)
    s.add_argument("--pieces", type=whole_number, required=True)
    s.add_argument("--workers", type=whole_number, default=1, help="slices built at once")
    s.add_argument("--backend", choices=("local", "ray"), default="local")
    s.add_argument("--ray-address", default=None, help="HOST:PORT of a Ray cluster")
    s.add_argument("--progress", action="store_true",
                   help="show the progress bar even when stderr is not a terminal")
    s.set_defaults(func=cmd_build)
    s = cmds.add_parser("verify", help="check every position against its successors")
    common(s)
    s.add_argument("--pieces", type=whole_number, default=None, help="(default: all built)")
    s.set_defaults(func=cmd_verify)
    s = cmds.add_parser("count", help="positions per piece count (no build needed)")
    common(s)
    s.add_argument("--pieces", type=whole_number, required=True)
    s.set_defaults(func=cmd_count)
    s = cmds.add_parser("probe", help="the value of a position (FEN) for the side to move")
    common(s)
    s.add_argument("--position", required=True, help="the position, in the game's notation")
    s.set_defaults(func=cmd_probe)
