"""Connect Four solver benchmark: explored nodes and time per reference set, against Pons.

Runs gamesearch's exact solver (the generic negamax configured as a solver; pure CPython
and, when numba is installed, the compiled path) over Pascal Pons's test sets in
``../shared/data/connect4`` and prints per set: positions, mean and median explored nodes,
mean time, nodes/s, and the ratios to Pons's C++ solver from ``pons_reference.csv``
(measured with his solver, no opening book). The time of a set is one CPU-time measurement
around the loop over its positions (parsed beforehand), divided by the positions; the
fastest of up to three passes when a pass takes under a second.

With ``--peers`` it also solves samples of the easy sets with easyAI's and OpenSpiel's
searches, run to the end of the game (see :data:`PEERS`), each position under a time
cap, checks their answers against the file, counts their nodes the same way (the root plus
every generated child, in one extra instrumented run) and prints their time and nodes over
ours on the same positions. A set a peer cannot finish is skipped with an estimate.

    .venv/bin/python benchmarks/connect4.py                 # default samples
    .venv/bin/python benchmarks/connect4.py --all           # every position of every set
    .venv/bin/python benchmarks/connect4.py --peers --markdown

Every score of ours is checked against the file; a mismatch is reported and makes the exit
status 1 (a peer's disagreement is reported in its row).
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamesearch import get_game
from gamesearch.games.connect4 import BOARD, BOTTOM, COLUMN_MASK, TOP, has_four
from gamesearch.search.solve import make_solver, solve

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "connect4"
SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
GAME = get_game("connect4")

# Positions per set by default: (pure Python, compiled). --all raises both to every line.
DEFAULT_LIMITS = {
    "Test_L3_R1": (1000, 1000),
    "Test_L2_R1": (1000, 1000),
    "Test_L2_R2": (40, 1000),
    "Test_L1_R1": (300, 1000),
    "Test_L1_R2": (3, 100),
    "Test_L1_R3": (0, 5),
}

Solver = Callable[[Any], dict[str, Any]]
#: passes over a set whose loop takes under a second (the fastest counts)
PASSES = 3


@dataclass
class Row:
    set: str
    impl: str
    positions: int
    mean_nodes: float
    median_nodes: float
    mean_s: float
    nps: float
    wrong: int
    pons_nodes: float | None
    pons_us: float | None
    note: str = ""


def read_set(name: str, limit: int) -> list[tuple[str, int]]:
    rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    step = max(1, len(rows) // limit) if limit else 1
    return [(m, int(s)) for m, s in rows[::step][:limit]]


def read_pons() -> dict[str, tuple[float, float]]:
    out = {}
    for line in (DATA / "pons_reference.csv").read_text().splitlines()[1:]:
        c = line.split(",")
        out[c[0]] = (float(c[2]), float(c[4]))
    return out


def run_impl(name: str, impl: str, positions: list[tuple[str, int]], solve_one: Solver,
             pons: dict[str, tuple[float, float]]) -> Row:
    """Solve every position; one CPU-time measurement around the whole loop (a timer call
    per position would add ~0.7 us to each, 15 % of Pons's End-Easy time). A loop that
    takes under a second is run up to :data:`PASSES` times and the fastest pass counts
    (the answers must not change): a set of 50-node endgames takes ~10 ms, and one pass
    read anywhere from 1.8x to 2.8x Pons's time from run to run on this shared machine."""
    states = [GAME.parse_state(moves) for moves, _ in positions]
    secs = float("inf")
    results: list[dict[str, Any]] = []
    for _ in range(PASSES):
        t = time.process_time()
        this = [solve_one(state) for state in states]
        took = time.process_time() - t
        if results and [(r["value"], r["nodes"]) for r in this] != [
                (r["value"], r["nodes"]) for r in results]:
            raise AssertionError(f"{impl} on {name}: a second pass gave other answers")
        results = this
        secs = min(secs, took)
        if took >= 1.0:
            break
    nodes, wrong = [], 0
    for (moves, score), got in zip(positions, results, strict=True):
        nodes.append(got["nodes"])
        if got["value"] != score:
            wrong += 1
            print(f"  WRONG {name} {moves}: expected {score}, got {got['value']}", file=sys.stderr)
    n = len(positions)
    pn, pus = pons.get(name, (None, None))
    return Row(name, impl, n, sum(nodes) / n, statistics.median(nodes), secs / n,
               sum(nodes) / secs if secs else 0.0, wrong, pn, pus)


def python_solver() -> Solver:
    def one(state: Any) -> dict[str, Any]:
        r = solve(GAME, state, solver=make_solver(GAME), best_moves=False)
        return {"value": r.value, "move": r.action, "nodes": r.nodes}  # as the compiled's
    return one


def compiled_solver() -> Solver | None:
    try:
        from gamesearch.games.connect4 import compiled as cc
    except ImportError:
        return None
    if not cc.available():
        return None
    cc.solve_fast(GAME.parse_state("4455"))  # compile (or load the cache) outside the timing
    return cc.solve_fast


# ----- peers -------------------------------------------------------------------------------
# Each peer solves a position given as a Pons move string to the end of the game (no depth
# horizon, no heuristic value) and returns (score, nodes): ``score`` in Pons's convention
# when the peer's value gives the length of the game (then the exact score is checked), else
# only its sign (-1, 0, 1; the sign is checked); ``nodes`` when ``count`` is set (the
# instrumented run), else 0.
PeerSolve = Callable[[str, bool], tuple[int, int]]


@dataclass
class Peer:
    label: str
    exact: bool  # the score is exact (else the sign only)
    make: Callable[[], PeerSolve]
    desc: str


class PeerTimeout(Exception):
    pass


@contextmanager
def time_cap(seconds: float) -> Iterator[None]:
    """Raise :class:`PeerTimeout` in the running (Python) search after ``seconds`` of wall
    time. (Not a CPU-time timer: while ITIMER_PROF/VIRTUAL is armed, Linux reads the
    process CPU clock only at scheduler ticks, which would spoil ``time.process_time``.)"""
    def stop(signum: int, frame: Any) -> None:
        raise PeerTimeout

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _pons_score(n: int, plies_to_end: int, sign: int) -> int:
    """Pons's score of a position with ``n`` stones, won/lost ``plies_to_end`` later."""
    return 0 if sign == 0 else sign * ((44 - (n + plies_to_end)) // 2)


def _easyai_game() -> tuple[Any, Any]:
    """An easyAI ``TwoPlayerGame`` Connect Four over Pons's bitboards, with ``unmake_move``
    (easyAI then plays and takes back moves on one object instead of deep-copying it):
    ``cur`` the stones of the side to move, ``mask`` all stones. Columns left to right,
    like OpenSpiel's ``legal_actions``. ``lose()``: the side to move has lost; the
    subclass counts the nodes (every ``make_move``)."""
    from easyAI import TwoPlayerGame  # type: ignore[import-not-found]

    bottom, top, colmask = BOTTOM, TOP, COLUMN_MASK
    cols = tuple(range(7))

    class EasyC4(TwoPlayerGame):  # type: ignore[misc]
        nodes = 0

        def __init__(self, moves: str) -> None:
            state = GAME.parse_state(moves)
            self.cur, self.mask = state[0], state[1]
            self.players = [None, None]
            self.current_player = 1 + (len(moves) & 1)

        def possible_moves(self) -> list[int]:
            mask = self.mask
            return [c for c in cols if not mask & top[c]]

        def make_move(self, move: int) -> None:
            mask = self.mask
            self.cur ^= mask
            self.mask = mask | (mask + bottom[move])

        def unmake_move(self, move: int) -> None:
            col = self.mask & colmask[move]
            mask = self.mask ^ (1 << (col.bit_length() - 1))  # take the top stone off
            self.mask = mask
            self.cur ^= mask

        def lose(self) -> bool:
            return has_four(self.cur ^ self.mask)

        def is_over(self) -> bool:
            return self.mask == BOARD or has_four(self.cur ^ self.mask)

        def scoring(self) -> float:
            return -100.0 if has_four(self.cur ^ self.mask) else 0.0

        def ttentry(self) -> int:
            return self.cur + self.mask

    class CountingC4(EasyC4):
        def make_move(self, move: int) -> None:
            CountingC4.nodes += 1
            super().make_move(move)

    return EasyC4, CountingC4


def _negamax_score(n: int, depth: int, value: float) -> int:
    """easyAI's ``Negamax`` value at the root, depth ``depth``, as Pons's score: a game
    that ends with ``d`` plies of the depth left scores ``scoring * (1 + 0.001 * d)``."""
    if value == 0:
        return 0
    left = round((abs(value) / 100.0 - 1.0) * 1000.0)
    return _pons_score(n, depth - left, 1 if value > 0 else -1)


def _easyai_negamax() -> PeerSolve:
    from easyAI import Negamax, TranspositionTable

    plain, counting = _easyai_game()

    def one(moves: str, count: bool) -> tuple[int, int]:
        game = (counting if count else plain)(moves)
        counting.nodes = 1  # the root
        depth = 42 - len(moves)
        ai = Negamax(depth, tt=TranspositionTable())  # full window: exact values
        ai(game)
        return _negamax_score(len(moves), depth, ai.alpha), counting.nodes if count else 0

    return one


def _easyai_id() -> PeerSolve:
    from easyAI import TranspositionTable, solve_with_iterative_deepening

    plain, counting = _easyai_game()

    def one(moves: str, count: bool) -> tuple[int, int]:
        game = (counting if count else plain)(moves)
        counting.nodes = 0
        left = 42 - len(moves)
        # Negamax to depth 1, 2, ... (one table) until a value is a proven win or loss;
        # a draw takes every depth up to the end of the game. Each depth's root counts.
        result, depth, _ = solve_with_iterative_deepening(
            game, list(range(1, left + 1)), win_score=100, tt=TranspositionTable(),
            verbose=False)
        # result is +1/-1 for a win/loss of the side to move found at ``depth`` plies
        # (the first depth that proves it: the shortest forced win, the longest defence)
        score = _pons_score(len(moves), depth, result) if result else 0
        return score, counting.nodes + depth if count else 0

    return one


def _easyai_sss() -> PeerSolve:
    from easyAI import SSS, TranspositionTable
    from easyAI.AI import MTdriver  # type: ignore[import-not-found]

    plain, counting = _easyai_game()
    real = MTdriver.mt

    def one(moves: str, count: bool) -> tuple[int, int]:
        game = (counting if count else plain)(moves)
        counting.nodes = 0
        passes = [0]

        def counted(game: Any, gamma: float, depth: int, orig: int, *args: Any) -> Any:
            passes[0] += depth == orig  # MTD(+inf): one null-window MT pass a step
            return real(game, gamma, depth, orig, *args)

        if count:
            MTdriver.mt = counted  # the recursion looks the name up in the module
        try:
            ai = SSS(42 - len(moves), tt=TranspositionTable())
            ai(game)
        finally:
            MTdriver.mt = real
        v = ai.alpha  # a win/loss is +-(100 - 0.99 * plies left at the end): the sign only
        return (v > 0) - (v < 0), counting.nodes + passes[0] if count else 0

    return one


def _open_spiel_state(moves: str) -> tuple[Any, Any]:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for ch in moves:
        state.apply_action(int(ch) - 1)
    return game, state


def _open_spiel_alpha_beta() -> PeerSolve:
    from open_spiel.python.algorithms import minimax  # type: ignore[import-not-found]

    real = minimax._alpha_beta

    def one(moves: str, count: bool) -> tuple[int, int]:
        game, state = _open_spiel_state(moves)
        calls = [0]

        def counted(*args: Any, **kwargs: Any) -> Any:  # one call per node, the root too
            calls[0] += 1
            return real(*args, **kwargs)

        if count:
            minimax._alpha_beta = counted  # the recursion looks the name up in the module
        try:
            # depth = the empty cells: the search always ends on terminal positions, which
            # score +1/0/-1 (player_return); no value function is ever called.
            value, _ = minimax.alpha_beta_search(
                game, state=state, maximum_depth=42 - len(moves),
                maximizing_player_id=state.current_player())
        finally:
            minimax._alpha_beta = real
        return (value > 0) - (value < 0), calls[0]

    return one


def _open_spiel_minimax_solver() -> PeerSolve:
    from open_spiel.python.algorithms.minimax_solver import (  # type: ignore[import-not-found]
        MinimaxSolver,
    )

    solver = MinimaxSolver("connect_four")

    def one(moves: str, count: bool) -> tuple[int, int]:
        _, state = _open_spiel_state(moves)
        solver._table = {}  # a fresh table per position
        # The solver's recursion over the game from ``state`` (its solve() starts from the
        # empty board): full-width minimax, each position once (keyed by its string).
        values = solver._create_table(state)
        value = float(values[state.current_player()])
        nodes = 0
        if count:  # each expanded position generated every legal child: the root + those
            low = solver._default_utility
            nodes = 1 + sum(int((e.action_values > low).sum()) for e in solver._table.values())
        return (value > 0) - (value < 0), nodes

    return one


PEERS = [
    Peer("easyAI Negamax+TT", True, _easyai_negamax,
         "easyAI 2.0.12 `Negamax(depth=empty cells, tt=TranspositionTable())`, full window, "
         "its depth-discounted values give the exact score"),
    Peer("easyAI iterative deepening", True, _easyai_id,
         "`solve_with_iterative_deepening(depths 1..empty cells, win_score=100, tt)`: Negamax "
         "deepened until a win/loss is proven; the proving depth gives the exact score"),
    Peer("easyAI SSS+TT", False, _easyai_sss,
         "`SSS(depth=empty cells, tt=TranspositionTable())` (MTD(+inf)); sign only"),
    Peer("OpenSpiel alpha_beta_search", False, _open_spiel_alpha_beta,
         "`minimax.alpha_beta_search(maximum_depth=empty cells)`, no value function "
         "(terminal +1/0/-1), no table; sign only"),
    Peer("OpenSpiel MinimaxSolver", False, _open_spiel_minimax_solver,
         "`MinimaxSolver('connect_four')._create_table(state)`: full minimax, each position "
         "once; sign only"),
]


@dataclass
class PeerRow:
    set: str
    peer: str
    tried: int
    done: int = 0
    agree: int = 0
    nodes: list[int] = field(default_factory=list)
    secs: list[float] = field(default_factory=list)
    ours: list[tuple[int, float, float]] = field(default_factory=list)  # nodes, pure, numba
    note: str = ""


def our_times(moves: str, compiled: Solver | None, repeat: int = 20,
              ) -> tuple[int, float, float]:
    """(nodes, pure CPython s, compiled s) for one position; the compiled time is the mean
    of ``repeat`` solves (a single one is a few microseconds on the easy sets)."""
    state = GAME.parse_state(moves)
    t = time.process_time()
    got = python_solver()(state)
    pure = time.process_time() - t
    fast = float("nan")
    if compiled is not None:
        t = time.process_time()
        for _ in range(repeat):
            compiled(state)
        fast = (time.process_time() - t) / repeat
    return got["nodes"], pure, fast


def run_peer(peer: Peer, name: str, positions: list[tuple[str, int]], cap: float,
             give_up: int, compiled: Solver | None) -> PeerRow:
    row = PeerRow(name, peer.label, 0)
    try:
        one = peer.make()
    except ImportError as exc:
        row.note = f"not installed ({exc})"
        return row
    misses = 0
    for moves, score in positions:
        row.tried += 1
        try:
            with time_cap(cap):
                t = time.process_time()
                got, _ = one(moves, False)  # the timed run: no counting
                secs = time.process_time() - t
            with time_cap(2 * cap + 5):
                again, nodes = one(moves, True)  # the instrumented run: the node count
        except PeerTimeout:
            misses += 1
            if misses >= give_up:
                break
            continue
        misses = 0
        row.done += 1
        expected = score if peer.exact else (score > 0) - (score < 0)
        if got == expected and again == got:
            row.agree += 1
        else:
            print(f"  {peer.label} {name} {moves}: got {got} (counted run {again}), "
                  f"file {expected}", file=sys.stderr)
        row.nodes.append(nodes)
        row.secs.append(secs)
        row.ours.append(our_times(moves, compiled))
    return row


def peer_rows(names: list[str], peer_sets: list[str], limit: int, cap: float, give_up: int,
              compiled: Solver | None, only: list[str] | None) -> list[PeerRow]:
    rows: list[PeerRow] = []
    peers = [p for p in PEERS if not only or any(o.lower() in p.label.lower() for o in only)]
    our_times(read_set(SETS[0], 1)[0][0], compiled)  # warm up ours outside the measurements
    for peer in peers:
        measured: PeerRow | None = None  # the last set it finished, for the estimates
        for name in names:
            if name not in peer_sets:
                rows.append(_estimate(peer, name, measured))
                continue
            print(f"{name}: {peer.label} on {limit} positions (cap {cap:g} s each)...",
                  file=sys.stderr)
            row = run_peer(peer, name, read_set(name, limit), cap, give_up, compiled)
            rows.append(row)
            if row.done:
                measured = row
    return rows


def _estimate(peer: Peer, name: str, measured: PeerRow | None) -> PeerRow:
    """A set the peer is not run on: its expected time a position, from its node ratio and
    nodes/s measured on an easier set times our mean nodes on this one (Pons's figure)."""
    row = PeerRow(name, peer.label, 0)
    pons_nodes = read_pons().get(name, (None, None))[0]
    if measured is None or not measured.done or pons_nodes is None:
        row.note = "not run"
        return row
    ratio = sum(measured.nodes) / max(1, sum(o[0] for o in measured.ours))
    nps = sum(measured.nodes) / max(sum(measured.secs), 1e-9)
    est = ratio * pons_nodes / nps
    row.note = (f"not run: est. ~{_secs(est)} a position ({ratio:,.0f}x our nodes as on "
                f"{measured.set}, at its {nps:,.0f} nodes/s; the ratio grows with depth)")
    return row


def _secs(s: float) -> str:
    if s >= 86400:
        return f"{s / 86400:,.0f} days"
    if s >= 3600:
        return f"{s / 3600:,.1f} h"
    if s >= 1:
        return f"{s:,.1f} s"
    return f"{s * 1e3:,.1f} ms"


# ----- output ------------------------------------------------------------------------------
def _table(head: list[str], body: list[list[str]], markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(b) + " |" for b in body]
        return "\n".join(lines)
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=False)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(line, widths, strict=False))
                     for line in [head, *body])


def fmt(rows: list[Row], markdown: bool) -> str:
    head = ["set", "solver", "positions", "mean nodes", "median", "mean time", "nodes/s",
            "nodes ÷ Pons", "time ÷ Pons", "wrong"]
    body = []
    for r in rows:
        body.append([
            r.set, r.impl, str(r.positions), f"{r.mean_nodes:,.1f}", f"{r.median_nodes:,.0f}",
            _ms(r.mean_s), f"{r.nps:,.0f}",
            f"{r.mean_nodes / r.pons_nodes:.2f}" if r.pons_nodes else "—",
            f"{r.mean_s * 1e6 / r.pons_us:.1f}" if r.pons_us else "—",
            str(r.wrong) + (f" ({r.note})" if r.note else ""),
        ])
    return _table(head, body, markdown)


def _ms(s: float) -> str:
    if s != s:  # nan
        return "—"
    return f"{s * 1e3:,.4f} ms" if s < 1e-4 else f"{s * 1e3:,.2f} ms"


def fmt_peers(rows: list[PeerRow], markdown: bool) -> str:
    head = ["set", "peer", "solved / tried", "agree", "mean nodes", "mean time", "nodes/s",
            "nodes ÷ ours", "time ÷ ours (CPython)", "time ÷ ours (numba)"]
    body = []
    for r in rows:
        if not r.done:
            body.append([r.set, r.peer, f"0 / {r.tried}" if r.tried else "—", "—", "—", "—",
                         "—", "—", "—", "—"])
            if r.note:
                body[-1][-1] = r.note
            elif r.tried:
                body[-1][-1] = "none finished under the cap"
            continue
        n = r.done
        our_nodes = sum(o[0] for o in r.ours)
        pure = sum(o[1] for o in r.ours)
        fast = sum(o[2] for o in r.ours)
        body.append([
            r.set, r.peer, f"{r.done} / {r.tried}", f"{r.agree} / {r.done}",
            f"{sum(r.nodes) / n:,.0f}", _ms(sum(r.secs) / n),
            f"{sum(r.nodes) / sum(r.secs):,.0f}" if sum(r.secs) else "—",
            f"{sum(r.nodes) / our_nodes:,.1f}" if our_nodes else "—",
            f"{sum(r.secs) / pure:,.1f}" if pure else "—",
            f"{sum(r.secs) / fast:,.0f}" if fast == fast and fast else "—",
        ])
    return _table(head, body, markdown)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--all", action="store_true", help="every position of every set")
    p.add_argument("--sets", nargs="*", default=SETS)
    p.add_argument("--pure-limit", type=int, help="positions per set for the Python path")
    p.add_argument("--compiled-limit", type=int, help="positions per set, compiled path")
    p.add_argument("--no-pure", action="store_true")
    p.add_argument("--no-ours", action="store_true", help="only the peers")
    p.add_argument("--peers", action="store_true", help="also easyAI and OpenSpiel")
    p.add_argument("--peer-sets", nargs="*", default=["Test_L3_R1", "Test_L2_R1"],
                   help="the sets the peers are run on (the others get an estimate)")
    p.add_argument("--peer-only", nargs="*", help="peers whose label contains one of these")
    p.add_argument("--peer-limit", type=int, default=30, help="positions per set")
    p.add_argument("--peer-seconds", type=float, default=10.0,
                   help="seconds (wall time) a peer may take on one position")
    p.add_argument("--peer-give-up", type=int, default=3,
                   help="stop a peer on a set after this many positions in a row over the cap")
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args(argv)
    pons = read_pons()
    compiled = compiled_solver()
    if compiled is None:
        print("compiled path: not available (pip install numba, or gamesearch[fast])",
              file=sys.stderr)
    rows: list[Row] = []
    for name in [] if args.no_ours else args.sets:
        pure_n, fast_n = DEFAULT_LIMITS.get(name, (100, 1000))
        if args.all:
            pure_n = fast_n = 1000
        pure_n = args.pure_limit if args.pure_limit is not None else pure_n
        fast_n = args.compiled_limit if args.compiled_limit is not None else fast_n
        if pure_n and not args.no_pure:
            print(f"{name}: pure Python on {pure_n} positions...", file=sys.stderr)
            rows.append(run_impl(name, "gamesearch (CPython)", read_set(name, pure_n),
                                 python_solver(), pons))
        if compiled is not None and fast_n:
            print(f"{name}: compiled on {fast_n} positions...", file=sys.stderr)
            rows.append(run_impl(name, "gamesearch (numba)", read_set(name, fast_n),
                                 compiled, pons))
    if rows:
        print(fmt(rows, args.markdown))
        print("\nnodes: explored positions per solve (each negamax call, the root of every "
              "probe included; Pons's convention). Pons: PascalPons/connect4 part12, no "
              "book, pons_reference.csv. Times are CPU seconds on this machine; Pons's are "
              "his.")
    if args.peers:
        prow = peer_rows(args.sets, args.peer_sets, args.peer_limit, args.peer_seconds,
                         args.peer_give_up, compiled, args.peer_only)
        print()
        print(fmt_peers(prow, args.markdown))
        print(f"\npeers: the positions of each set's sample that the peer solved within "
              f"{args.peer_seconds:g} s each (wall time; the times are CPU time; a peer "
              f"stops on a set after {args.peer_give_up} in a row over it); 'agree': its "
              "answer equals the file's (the exact score, or the sign for a peer that gives only "
              "win/draw/loss); nodes: the root plus every generated child (one extra "
              "instrumented run); ratios: the peer's total over ours on the same solved "
              "positions (ours: gamesearch's solver, pure CPython and compiled).")
        for peer in PEERS:
            print(f"  {peer.label}: {peer.desc}")
    return 1 if any(r.wrong for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
