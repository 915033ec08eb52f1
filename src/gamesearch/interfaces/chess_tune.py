"""``gamesearch tune chess``: Texel tuning of the chess evaluation on arena games.

    gamesearch tune chess --db GAMES.sqlite [--db ...] --out weights.json
                          [--iterations N] [--l2 X] [--weights FILE|NAME]
                          [--skip-plies N] [--end-plies N] [--holdout N] [--keep-tables]
                          [--json]

Reads the chess games of arena results files (``gamesearch match``/``tournament --db``),
replays them, keeps the *quiet* positions and labels each with its game's result for White
(1, 0.5, 0), then fits K and the weights (:mod:`gamesearch.games.chess.texel`) and writes
the weights as a JSON weights file (:mod:`gamesearch.games.chess.weights`).

A position is kept when it lies at least ``--skip-plies`` plies (default 8) after the
game's opening (book line or random plies) and more than ``--end-plies`` plies (default 6)
before the game's end, its side to move is not in check, its static evaluation is within
±``MAX_EVAL`` centipawns (no mate-like scores) and equals its quiescence value (captures
and promotions that do not lose material by SEE, searched to the end, node-capped): the
best noisy move does not change it. Only games that ended on the board
(termination ``normal``) are read. Every ``--holdout``-th game (default 10; 0: none) is
kept out of the fit, and its positions' error is reported beside the fit's.

Bad input (no such file, not an arena file, no chess games, no quiet positions, a number
out of range) ends with a one-line message, as every command.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from ..argtypes import argtype, help_range
from ..errors import GameError, echo

#: static evaluations beyond this (centipawns) are not kept: the game is decided
MAX_EVAL = 1500
#: quiescence nodes per position before it is called not quiet
QUIESCENCE_NODES = 2000


class TuneError(GameError, ValueError):
    """Bad input to ``gamesearch tune``."""


@dataclass
class Selection:
    """How many games and positions were read and kept, and why the others were not."""

    games: int = 0
    games_skipped: int = 0
    positions: int = 0
    kept: int = 0
    in_check: int = 0
    noisy: int = 0
    decided: int = 0


def _quiescence(game: Any, s: Any, alpha: float, beta: float, budget: list[int]) -> float:
    """Fail-hard quiescence over the game's noisy moves (side to move's view); raises
    OverflowError when the node budget runs out, LookupError at a terminal child."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    stand = game.evaluate(s, s.player)
    if stand >= beta:
        return beta
    if stand > alpha:
        alpha = stand
    for m in game.iter_noisy_actions(s):
        child = game.result(s, m)
        if game.terminal_utility(child, 0) is not None:
            raise LookupError
        v = -_quiescence(game, child, -beta, -alpha, budget)
        if v >= beta:
            return beta
        if v > alpha:
            alpha = v
    return alpha


def is_quiet(game: Any, s: Any) -> bool:
    """Not in check, and no capture or promotion changes the static evaluation."""
    stand = game.evaluate(s, s.player)
    try:
        return bool(_quiescence(game, s, stand - 1, stand + 1, [QUIESCENCE_NODES]) == stand)
    except (OverflowError, LookupError):
        return False


def _written_in_chess_notation(spec: str) -> bool:
    """Whether a stored tournament's game writes FEN and UCI moves (PGN's notation: its
    ``match_hooks().pgn_notation``, as the arena's ``uci:`` agents ask): chess's games."""
    from ..games import get_game

    try:
        hooks = get_game(spec).match_hooks()
    except GameError:
        return False
    return hooks is not None and bool(hooks.pgn_notation)


def read_games(paths: list[str]) -> Iterator[tuple[Any, str]]:
    """``(record, db)`` of every chess game in the results files."""
    from ..arena.store import Store

    for path in paths:
        if not os.path.isfile(path):
            raise TuneError(f"results database {echo(path)} does not exist")
        store = Store.open_readonly(path)
        try:
            chess_ids = [t["id"] for t in store.list_tournaments()
                         if _written_in_chess_notation(str(t["game"]))]
            if not chess_ids:
                raise TuneError(f"results database {echo(path)} holds no chess games")
            for tid in chess_ids:
                for record in store.games(tid):
                    yield record, path
        finally:
            store.close()


def collect(paths: list[str], skip_plies: int = 8, end_plies: int = 6,
            holdout: int = 10) -> tuple[list[tuple[dict[int, float], float, float, int]],
                                        Selection]:
    """The quiet positions of the games as texel rows (coefficients, White's evaluation,
    White's result, game number; a held-out game's number is negative)."""
    from ..games.chess import ChessGame
    from ..games.chess import evaluation as ev
    from ..games.chess.texel import features

    game = ChessGame()
    sel = Selection()
    rows: list[tuple[dict[int, float], float, float, int]] = []
    for record, path in read_games(paths):
        if record.termination != "normal" or len(record.scores) != 2:
            sel.games_skipped += 1
            continue
        try:
            s = game.parse_state(record.start_position) if record.start_position \
                else game.initial_state()
            white_first = s.board.turn
            states = [s]
            for mv in record.moves:
                s = game.result(s, game.parse_action(s, mv))
                states.append(s)
        except GameError as exc:
            raise TuneError(f"results database {echo(path)}: game {record.pair}:"
                            f"{record.game_no} does not replay as chess ({exc})") from None
        sel.games += 1
        number = sel.games if not holdout or sel.games % holdout else -sel.games
        white_score = float(record.scores[0 if white_first else 1])
        last = len(record.moves) - end_plies
        for ply in range(record.opening_plies + skip_plies, last):
            s = states[ply]
            sel.positions += 1
            if game.in_check(s):
                sel.in_check += 1
                continue
            static = game.evaluate(s, 0)  # White's view
            if abs(static) > MAX_EVAL:
                sel.decided += 1
                continue
            if not is_quiet(game, s):
                sel.noisy += 1
                continue
            white_eval = game.kernels.evaluate_board(s) + (ev.TEMPO if s.board.turn
                                                           else -ev.TEMPO)
            rows.append((features(s.board, s.phase), float(white_eval), white_score, number))
            sel.kept += 1
    if sel.games == 0:
        raise TuneError("no chess game that ended on the board in "
                        + ", ".join(echo(p) for p in paths))
    if not rows:
        raise TuneError(f"no quiet positions in the {sel.games} games (after skipping "
                        f"{skip_plies} plies after the opening and {end_plies} before the end)")
    return rows, sel


def cmd_tune(args: argparse.Namespace, out: TextIO) -> int:
    return TUNERS[args.game](args, out)


def tune_chess(args: argparse.Namespace, out: TextIO) -> int:
    """``gamesearch tune chess``."""
    try:
        import numpy as np

        from ..games.chess import texel
        from ..games.chess import weights as W
    except ImportError:
        raise TuneError("tune needs numpy and SciPy: pip install 'gamesearch[equilibria]'"
                        ) from None
    out_dir = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(out_dir):
        raise TuneError(f"--out {echo(args.out)}: no such directory {echo(out_dir)}")
    start = W.load_weights(args.weights) if args.weights else W.current_weights()
    W.apply_weights(start)
    t0 = time.process_time()
    rows, sel = collect(args.db, args.skip_plies, args.end_plies, args.holdout)
    w0 = texel.to_vector(start)
    data = texel.with_offsets(texel.build_dataset(rows), w0)
    fit = data.subset(data.game > 0)
    held = data.subset(data.game < 0)
    if len(fit) == 0:
        raise TuneError("every quiet position is held out: give a larger --holdout (or 0)")
    t1 = time.process_time()
    k = texel.fit_k(fit, w0)
    fixed = [n for n in texel.PARAMS if "_pst." in n] if args.keep_tables else []
    result = texel.tune(fit, w0, k, args.iterations, args.l2, fixed)
    t2 = time.process_time()
    w = texel.from_vector(result.weights, start)
    w.extra = {"tuned": {
        "games": sel.games, "positions": len(fit), "held_out": len(held),
        "k": round(k, 8), "wiki_K": round(texel.wiki_k(k), 5), "l2": args.l2,
        "keep_tables": args.keep_tables,
        "iterations": result.iterations,
        "error_before": round(texel.error(fit, w0, k), 6),
        "error_after": round(texel.error(fit, result.weights, k), 6),
        "held_out_error_before": round(texel.error(held, w0, k), 6) if len(held) else None,
        "held_out_error_after": (round(texel.error(held, result.weights, k), 6)
                                 if len(held) else None),
        "databases": [os.path.basename(p) for p in args.db],
    }}
    W.write_weights(w, args.out)
    summary: dict[str, Any] = dict(w.extra["tuned"])
    summary.update({
        "games_skipped": sel.games_skipped, "positions_read": sel.positions,
        "in_check": sel.in_check, "noisy": sel.noisy, "decided": sel.decided,
        "converged": result.converged, "out": args.out,
        "largest_changes": _largest_changes(np.abs(result.weights - w0), texel.PARAMS),
        "cpu_seconds_positions": round(t1 - t0, 1), "cpu_seconds_fit": round(t2 - t1, 1),
    })
    if args.json:
        out.write(json.dumps(summary) + "\n")
        return 0
    held_text = (f", held out {summary['held_out_error_before']:.6f} -> "
                 f"{summary['held_out_error_after']:.6f} ({len(held)} positions)"
                 if len(held) else "")
    out.write(
        f"games {sel.games} (skipped {sel.games_skipped}), positions {sel.positions}: kept "
        f"{sel.kept} quiet ({sel.in_check} in check, {sel.noisy} not quiet, {sel.decided} "
        f"beyond ±{MAX_EVAL})\n"
        f"K: k = {k:.6f} per centipawn (the wiki's K = {texel.wiki_k(k):.4f})\n"
        f"error {summary['error_before']:.6f} -> {summary['error_after']:.6f} on "
        f"{len(fit)} positions{held_text}; {result.iterations} iterations"
        f"{'' if result.converged else ' (not converged)'}\n"
        f"largest changes: {', '.join(f'{n} {d:+.0f}' for n, d in summary['largest_changes'])}"
        f"\nwrote {args.out}\n")
    return 0


def _largest_changes(delta: Any, names: tuple[str, ...], n: int = 8) -> list[tuple[str, float]]:
    order = sorted(range(len(names)), key=lambda i: -float(delta[i]))[:n]
    return [(names[i], float(delta[i])) for i in order]


#: the games with a tuner (argparse refuses any other in one line)
TUNERS = {"chess": tune_chess}


def add_tune_command(sub: Any) -> None:
    """Add ``tune`` to the ``gamesearch`` sub-command parsers."""
    s = sub.add_parser("tune", help="Texel-tune the chess evaluation on arena games")
    s.add_argument("game", choices=sorted(TUNERS), help="the game to tune (chess)")
    s.add_argument("--db", action="append", required=True, metavar="FILE",
                   help="arena results file with chess games (repeatable)")
    s.add_argument("--out", required=True, metavar="FILE", help="the weights file to write")
    s.add_argument("--iterations", type=argtype("tune_iterations"), default=300,
                   help="L-BFGS iterations at most (default 300) "
                   + help_range("tune_iterations"))
    s.add_argument("--l2", type=argtype("tune_l2"), default=2e-7,
                   help="pull toward the starting weights, per squared centipawn "
                   "(default 2e-7) " + help_range("tune_l2"))
    s.add_argument("--weights", metavar="FILE|NAME", default=None,
                   help="the starting weights (default: the engine's own)")
    s.add_argument("--skip-plies", type=argtype("tune_plies"), default=8,
                   help="plies after the opening not used (default 8) "
                   + help_range("tune_plies"))
    s.add_argument("--end-plies", type=argtype("tune_plies"), default=6,
                   help="plies before the end not used (default 6) " + help_range("tune_plies"))
    s.add_argument("--holdout", type=argtype("tune_holdout"), default=10,
                   help="every N-th game held out of the fit (default 10; 0: none) "
                   + help_range("tune_holdout"))
    s.add_argument("--keep-tables", action="store_true",
                   help="keep the piece-square tables: tune only material, pawn structure, "
                   "king shield, bishop pair and tempo")
    s.add_argument("--json", action="store_true", help="the summary as one JSON object")
    s.set_defaults(func=cmd_tune)
