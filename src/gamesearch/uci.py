"""The UCI protocol for the chess engine, and an EPD test-suite runner.

The engine is the library's own ``id`` search (:mod:`gamesearch.search.negamax`: iterative
deepening, PVS, transposition table, killer/history ordering, quiescence) on
:class:`gamesearch.games.chess.ChessGame`; nothing here searches. :class:`ChessEngine`
configures it once for both interfaces; :class:`UCIEngine` speaks the protocol
(http://wbec-ridderkerk.nl/html/UCIProtocol.html):

* ``uci`` → ``id name``/``id author``, ``option name Hash type spin ...``, ``uciok``;
  ``isready`` → ``readyok`` (also while searching); ``ucinewgame`` clears the tables;
  ``setoption name Hash value N`` (MiB); ``position startpos|fen F [moves m1 m2 ...]``;
  ``go [wtime|btime|winc|binc|movestogo|movetime|depth|nodes N] [infinite]``; ``stop``;
  ``quit``. ``debug``, ``register``, ``ponderhit`` are accepted and do nothing.
* The search runs in a thread. ``stop`` sets ``searcher.clock.stop_requested`` (and keeps
  setting it on the current clock until the thread ends, so a stop that arrives while
  the search is starting is not lost); the search ends at its next clock check and answers
  with the deepest completed iteration (or the partial one the driver deems sound).
* After each iteration: ``info depth D seldepth S score cp X|mate N nodes N nps N time MS
  pv ...``, then ``bestmove``. A mate in ``n`` moves is ``score mate n`` (negative: the
  engine is mated). Under ``go infinite`` the ``bestmove`` waits for ``stop``.
* Time: with ``movetime`` the search gets that time less :data:`MOVE_OVERHEAD` or less
  10 %, whichever leaves less; on a clock
  it gets ``time / movestogo`` (``time / 30`` without ``movestogo``) plus 80 % of the
  increment, at most half of the remaining time (all of it but the overhead when one move
  is left to the control) and never more than the remaining time less the overhead. That
  share is the *target*; on a clock the search may run to :data:`HARD_FACTOR` times it (the
  hard limit, within the same caps) but starts no new iteration after half the target
  (the engine's ``soft_time``): an iteration that starts late rarely finishes, one that
  started early may finish a little after the target. ``movetime`` and EPD runs use the
  whole time and nothing more (no soft limit).
* Bad input never ends the engine: a malformed command, an illegal move in ``position``
  (the moves before it are kept), or an unknown option is answered with ``info string``
  and otherwise ignored. The engine always answers ``go`` with a legal move (``0000`` only
  when the position has none: mate or stalemate).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TextIO

from . import __version__
from .errors import GameError, IllegalMoveError, InvalidPositionError
from .games.chess import ChessGame, ChessState, Move
from .search import Limit, SearchResult, make_searcher
from .search.common import win_step, win_threshold
from .search.negamax import Negamax

ENGINE_NAME = f"gamesearch {__version__}"
ENGINE_AUTHOR = "the gamesearch authors"
DEFAULT_HASH_MB = 64
MAX_HASH_MB = 4096
#: Approximate bytes per transposition-table entry (a dict slot, an int key, a 4-tuple).
ENTRY_BYTES = 200
#: Seconds kept back from every allocation: thread start, the last clock check, output.
MOVE_OVERHEAD = 0.05
#: Stands for "no time limit": the clock still runs, so that ``stop`` is noticed.
FOREVER = 1e9
#: Options of the ``id`` search for chess, beyond its defaults (see ChessEngine).
SEARCH_OPTIONS: dict[str, Any] = {}
#: On a clock: the hard limit is this many times the target (see the module docstring) ...
HARD_FACTOR = 2.5
#: ... and no iteration starts after this fraction of the target.
SOFT_SHARE = 0.5


def hash_entries(megabytes: int) -> int:
    return max(1024, megabytes * (1 << 20) // ENTRY_BYTES)


def allocate_time(
    remaining: float | None,
    increment: float = 0.0,
    movestogo: int | None = None,
    movetime: float | None = None,
    overhead: float = MOVE_OVERHEAD,
) -> float | None:
    """Seconds to think (see the module docstring); ``None`` when no clock is given."""
    if movetime is not None:
        return max(0.005, min(movetime - overhead, movetime * 0.9))
    if remaining is None:
        return None
    left = max(remaining, 0.0)
    mtg = movestogo if movestogo and movestogo > 0 else 30
    share = left / mtg + 0.8 * max(increment, 0.0)
    cap = left - overhead if mtg == 1 else min(left * 0.5, left - overhead)
    return max(0.005, min(share, cap, left * 0.9))


def hard_limit(
    target: float,
    remaining: float,
    movestogo: int | None = None,
    overhead: float = MOVE_OVERHEAD,
) -> float:
    """The hard time limit for a clock ``target`` from :func:`allocate_time`: up to
    :data:`HARD_FACTOR` times it, within the caps the target obeys."""
    left = max(remaining, 0.0)
    cap = left - overhead if movestogo == 1 else min(left * 0.5, left - overhead)
    return max(target, min(HARD_FACTOR * target, cap, left * 0.9))


def uci_score(value: float, max_utility: float) -> str:
    """``cp X`` or ``mate N`` for a search value from the mover's point of view."""
    step = win_step(max_utility)
    threshold = win_threshold(max_utility)
    if value > threshold:
        plies = round((max_utility - value) / step)
        return f"mate {(plies + 1) // 2}"
    if value < -threshold:
        plies = round((max_utility + value) / step)
        return f"mate -{max(plies // 2, 1)}" if plies else "mate 0"
    return f"cp {round(value)}"


# ----- the engine: the library's search, configured for chess ------------------------
class ChessEngine:
    """The ``id`` searcher on chess with a transposition table of ``hash_mb`` MiB;
    ``options`` override the algorithm's other options (e.g. ``aspiration=50``)."""

    def __init__(self, hash_mb: int = DEFAULT_HASH_MB, **options: Any) -> None:
        self.game = ChessGame()
        self.hash_mb = hash_mb
        self.options = {**SEARCH_OPTIONS, **options}
        self.searcher: Negamax = self._make_searcher()

    def _make_searcher(self) -> Negamax:
        searcher = make_searcher(
            self.game, "id", tt=hash_entries(self.hash_mb), **self.options
        )
        assert isinstance(searcher, Negamax)
        return searcher

    def set_hash(self, megabytes: int) -> None:
        self.hash_mb = megabytes
        self.searcher = self._make_searcher()

    def new_game(self) -> None:
        """Forget the previous game: transposition table and history heuristic."""
        self.searcher = self._make_searcher()

    def think(
        self,
        state: ChessState,
        limit: Limit,
        callback: Callable[[SearchResult], None] | None = None,
        soft_time: float | None = None,
    ) -> SearchResult | None:
        """Search ``state``; ``None`` when the position has no legal move. ``soft_time``:
        no new iteration after this fraction of the time limit (None: the configured one)."""
        game = self.game
        if not game.actions(state):
            return None
        root = game.search_root(state)
        searcher = self.searcher
        configured = searcher.soft_time
        if soft_time is not None:
            searcher.soft_time = soft_time
        try:
            return searcher.search(root, limit, callback)
        finally:
            searcher.soft_time = configured


def position_from_tokens(game: ChessGame, tokens: list[str]) -> tuple[ChessState, str | None]:
    """The state of ``position startpos|fen F [moves ...]`` (the words after
    ``position``) and a warning if some moves were illegal (the moves before are kept).
    Raises :class:`InvalidPositionError` for a malformed command or FEN."""
    if not tokens:
        raise InvalidPositionError("position: expected 'startpos' or 'fen <FEN>'")
    if "moves" in tokens:
        i = tokens.index("moves")
        head, moves = tokens[:i], tokens[i + 1:]
    else:
        head, moves = tokens, []
    if head[0] == "startpos" and len(head) == 1:
        state = game.initial_state()
    elif head[0] == "fen" and len(head) > 1:
        state = game.parse_state(" ".join(head[1:]))
    else:
        raise InvalidPositionError(
            f"position {' '.join(tokens)!r}: expected 'startpos' or 'fen <FEN>' then "
            "optionally 'moves m1 m2 ...'"
        )
    for n, word in enumerate(moves, 1):
        if game.is_terminal(state) and not game.actions(state):
            return state, f"move {n} ({word}) comes after the end of the game; ignored"
        try:
            move = game.parse_action(state, word)
        except IllegalMoveError as exc:
            if game.is_terminal(state):  # a claimable draw: the GUI plays on
                legal = list(game.actions(state))
                found = [m for m in legal if m.uci() == word]
                if found:
                    state = game.result(state, found[0])
                    continue
            return state, f"move {n} ({word}) is illegal ({exc}); the moves from it on ignored"
        state = game.result(state, move)
    return state, None


# ----- the protocol ------------------------------------------------------------------
class UCIEngine:
    """One UCI conversation: feed it lines with :meth:`handle` (or :meth:`run`)."""

    def __init__(self, out: TextIO | None = None, hash_mb: int = DEFAULT_HASH_MB) -> None:
        self.out = out or sys.stdout
        self.engine = ChessEngine(hash_mb)
        self.game = self.engine.game
        self.state = self.game.initial_state()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        #: the soft limit of the next search, a fraction of its time (see the docstring)
        self._soft: float | None = None
        self._stop = threading.Event()
        self.quit = False

    # -- output --
    def send(self, line: str) -> None:
        with self._lock:
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (BrokenPipeError, ValueError):  # the GUI has gone
                self.quit = True
                self._stop.set()

    def info(self, text: str) -> None:
        self.send("info string " + " ".join(text.split()))

    # -- input --
    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.handle(line)
            if self.quit:
                break
        self.stop_search()

    def handle(self, line: str) -> None:
        tokens = line.split()
        if not tokens:
            return
        cmd, args = tokens[0], tokens[1:]
        handler = self._handlers.get(cmd)
        if handler is None:
            self.info(f"unknown command {cmd!r} ignored")
            return
        try:
            handler(self, args)
        except GameError as exc:
            self.info(f"{cmd}: {exc}")
        except Exception as exc:  # never crash on input
            self.info(f"{cmd}: internal error {type(exc).__name__}: {exc}; ignored")

    def cmd_uci(self, args: list[str]) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send(
            f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        )
        self.send("uciok")

    def cmd_isready(self, args: list[str]) -> None:
        self.send("readyok")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.stop_search()
        self.engine.new_game()
        self.state = self.game.initial_state()

    def cmd_setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            self.info("setoption: expected 'setoption name <id> [value <x>]'")
            return
        words = args[1:]
        if "value" in words:
            i = words.index("value")
            name, value = " ".join(words[:i]), " ".join(words[i + 1:])
        else:
            name, value = " ".join(words), ""
        if name.lower() == "hash":
            try:
                mb = int(value)
            except ValueError:
                self.info(f"setoption Hash: value {value!r} is not a whole number of MiB")
                return
            if not 1 <= mb <= MAX_HASH_MB:
                self.info(f"setoption Hash: {mb} out of range 1-{MAX_HASH_MB}")
                return
            self.stop_search()
            self.engine.set_hash(mb)
        else:
            self.info(f"setoption: unknown option {name!r} ignored (known: Hash)")

    def cmd_position(self, args: list[str]) -> None:
        self.stop_search()
        state, warning = position_from_tokens(self.game, args)
        self.state = state
        if warning:
            self.info(f"position: {warning}")

    def cmd_go(self, args: list[str]) -> None:
        self.stop_search()
        params: dict[str, int] = {}
        infinite = False
        i = 0
        numeric = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth",
                   "nodes", "mate")
        while i < len(args):
            word = args[i]
            if word in ("infinite", "ponder"):
                infinite = True
                i += 1
            elif word in numeric:
                try:
                    params[word] = int(args[i + 1])
                except (IndexError, ValueError):
                    got = repr(args[i + 1]) if i + 1 < len(args) else "nothing"
                    self.info(f"go: {word} needs a whole number, got {got}; go ignored")
                    return
                i += 2
            elif word == "searchmoves":
                self.info("go: searchmoves is not supported; searching all moves")
                i += 1
                while i < len(args) and args[i] not in numeric and args[i] != "infinite":
                    i += 1
            else:
                self.info(f"go: unknown parameter {word!r} ignored")
                i += 1
        self._soft = None
        limit = self._limit(params, infinite)
        if limit is None:
            infinite = True
            limit = Limit(time=FOREVER)
        self._stop.clear()
        state = self.state
        self._thread = threading.Thread(
            target=self._search, args=(state, limit, infinite, self._soft), daemon=True
        )
        self._thread.start()

    def _limit(self, params: dict[str, int], infinite: bool) -> Limit | None:
        white = self.state.board.turn
        remaining = params.get("wtime" if white else "btime")
        increment = params.get("winc" if white else "binc", 0)
        if remaining is None and ("btime" if white else "wtime") in params:
            # only the other side's clock: better its time than thinking forever
            remaining = params["btime" if white else "wtime"]
            increment = params.get("binc" if white else "winc", 0)
            self.info("go: no clock for the side to move; using the other side's")
        movetime = params.get("movetime")
        seconds = None
        if not infinite:
            seconds = allocate_time(
                remaining / 1000 if remaining is not None else None,
                increment / 1000,
                params.get("movestogo"),
                movetime / 1000 if movetime is not None and movetime > 0 else None,
            )
            if seconds is not None and remaining is not None and not (
                    movetime is not None and movetime > 0):
                hard = hard_limit(seconds, remaining / 1000, params.get("movestogo"))
                self._soft = SOFT_SHARE * seconds / hard
                seconds = hard
            else:
                self._soft = 1.0  # movetime: use it all
        depth = params.get("depth")
        nodes = params.get("nodes")
        if "mate" in params and depth is None:
            depth = 2 * max(params["mate"], 1) - 1
        if depth is not None and depth < 1:
            self.info(f"go: depth {depth} must be at least 1; using 1")
            depth = 1
        if nodes is not None and nodes < 1:
            self.info(f"go: nodes {nodes} must be at least 1; using 1")
            nodes = 1
        if seconds is None and depth is None and nodes is None:
            return None  # go / go infinite: until stop
        return Limit(depth=depth, nodes=nodes, time=seconds if seconds else FOREVER)

    def _search(
        self, state: ChessState, limit: Limit, infinite: bool, soft: float | None
    ) -> None:
        game = self.game
        best: Move | None = None
        try:
            result = self.engine.think(state, limit, lambda r: self._report(state, r),
                                       soft_time=soft)
            if result is not None:
                if not result.completed:
                    self._report(state, result)
                best = result.action
        except Exception as exc:  # a bug must still leave the GUI with a legal move
            self.info(f"search failed: {type(exc).__name__}: {exc}")
        moves = game.actions(state)
        if best is None or best not in moves:
            best = moves[0] if moves else None
        if infinite:
            self._stop.wait()
        self.send(f"bestmove {best.uci() if best is not None else '0000'}")

    def _report(self, state: ChessState, r: SearchResult) -> None:
        pv = []
        s = state
        for m in r.pv:  # the PV from the table may run into a stale move: stop there
            if s is None or m not in self.game.actions(s):
                break
            pv.append(m.uci())
            s = self.game.result(s, m)
        ms = int(r.seconds * 1000)
        self.send(
            f"info depth {r.depth} seldepth {max(r.seldepth, r.depth)} "
            f"score {uci_score(r.value, self.game.max_utility)} nodes {r.nodes} "
            f"nps {int(r.nps)} time {ms} pv {' '.join(pv)}".rstrip()
        )

    def stop_search(self) -> None:
        thread = self._thread
        if thread is None:
            return
        self._stop.set()
        while thread.is_alive():
            self.engine.searcher.clock.stop_requested = True
            thread.join(0.005)
        self._thread = None

    def cmd_stop(self, args: list[str]) -> None:
        self.stop_search()

    def cmd_quit(self, args: list[str]) -> None:
        self.quit = True
        self.stop_search()

    def cmd_ignore(self, args: list[str]) -> None:
        return None

    _handlers: ClassVar[dict[str, Callable[[UCIEngine, list[str]], None]]] = {
        "uci": cmd_uci,
        "isready": cmd_isready,
        "ucinewgame": cmd_ucinewgame,
        "setoption": cmd_setoption,
        "position": cmd_position,
        "go": cmd_go,
        "stop": cmd_stop,
        "quit": cmd_quit,
        "debug": cmd_ignore,
        "register": cmd_ignore,
        "ponderhit": cmd_ignore,
    }


def _stdin_lines() -> Iterator[str]:
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        yield line


def main(argv: list[str] | None = None) -> int:
    """Run the UCI loop on standard input/output until ``quit`` or end of input."""
    del argv
    try:
        UCIEngine(sys.stdout).run(_stdin_lines())
    except KeyboardInterrupt:
        return 130
    return 0


# ----- EPD test suites ---------------------------------------------------------------
@dataclass
class EpdResult:
    """One position of a suite: the move chosen and whether it solves the position."""

    number: int
    id: str
    fen: str
    move: str
    san: str
    best: list[str]
    avoid: list[str]
    solved: bool
    depth: int
    nodes: int
    seconds: float
    score: str
    pv: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number, "id": self.id, "fen": self.fen, "move": self.move,
            "san": self.san, "bm": self.best, "am": self.avoid, "solved": self.solved,
            "depth": self.depth, "nodes": self.nodes, "seconds": round(self.seconds, 3),
            "score": self.score, "pv": self.pv,
        }


def read_epd(path: str | Path) -> list[tuple[int, str]]:
    """The non-empty, non-comment lines of an EPD file, numbered from 1."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise GameError(f"cannot read EPD file {str(path)!r}: {exc.strerror}") from None
    return [(i, line.strip()) for i, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]


def run_epd(
    lines: Iterable[tuple[int, str]],
    seconds: float | None,
    on_result: Callable[[EpdResult], None] | None = None,
    hash_mb: int = DEFAULT_HASH_MB,
    nodes: int | None = None,
    **options: Any,
) -> list[EpdResult]:
    """Search every EPD position for ``seconds`` and/or ``nodes`` (a fresh table each) and
    score the move against its ``bm``/``am`` operations. Raises
    :class:`InvalidPositionError` naming the line of a position that does not parse."""
    import chess

    engine = ChessEngine(hash_mb, **{"soft_time": 1.0, **options})  # the whole time
    game = engine.game
    out = []
    for number, line in lines:
        try:
            board, ops = chess.Board.from_epd(line)
        except ValueError as exc:
            raise InvalidPositionError(f"EPD line {number}: {exc}") from None
        problems = board.status()
        if problems != chess.STATUS_VALID:
            raise InvalidPositionError(f"EPD line {number}: impossible position ({problems!r})")
        best = [m for m in _ops_moves(ops.get("bm"))]
        avoid = [m for m in _ops_moves(ops.get("am"))]
        state = ChessState.from_board(board)
        engine.new_game()
        result = engine.think(state, Limit(time=seconds, nodes=nodes))
        if result is None:
            move_uci, san, depth, n, secs, score, pv = "0000", "--", 0, 0, 0.0, "none", []
            solved = False
        else:
            move = result.action
            move_uci, san = move.uci(), board.san(move)
            depth, n, secs = result.depth, result.nodes, result.seconds
            score = uci_score(result.value, game.max_utility)
            pv = [m.uci() for m in result.pv]
            solved = (not best or move in best) and move not in avoid
        r = EpdResult(
            number=number,
            id=str(ops.get("id", f"line {number}")),
            fen=board.fen(),
            move=move_uci,
            san=san,
            best=[board.san(m) for m in best],
            avoid=[board.san(m) for m in avoid],
            solved=solved,
            depth=depth,
            nodes=n,
            seconds=secs,
            score=score,
            pv=pv,
        )
        out.append(r)
        if on_result is not None:
            on_result(r)
    return out


def _ops_moves(value: object) -> list[Move]:
    if value is None:
        return []
    if isinstance(value, list):
        return [m for m in value if isinstance(m, Move)]
    if isinstance(value, Move):
        return [value]
    return []


if __name__ == "__main__":
    sys.exit(main())
