"""The UCI protocol for the chess engine, and an EPD test-suite runner.

The engine is the library's own ``id`` search (:mod:`gamesearch.search.negamax`: iterative
deepening, PVS, transposition table, killer/history ordering, quiescence) on
:class:`gamesearch.games.chess.ChessGame`; nothing here searches. :class:`ChessEngine`
configures it once for both interfaces; :class:`UCIEngine` speaks the protocol
(http://wbec-ridderkerk.nl/html/UCIProtocol.html):

* ``uci`` → ``id name``/``id author``, ``option name Hash type spin ...``, ``option name
  Move Overhead type spin ...``, ``uciok``; ``isready`` → ``readyok`` (also while
  searching); ``ucinewgame`` clears the tables; ``setoption name Hash value N`` (MiB);
  ``setoption name Move Overhead value MS`` (milliseconds kept back from every clock
  allocation and ``movetime`` for the latency of a reply: Stockfish's option, default
  :data:`~gamesearch.search.control.MOVE_OVERHEAD`); ``position startpos|fen F [moves m1
  m2 ...]`` (a position that extends the previous one by a few moves, as a GUI sends them
  during a game, plays only the new moves: the reply's latency stays flat however long the
  game);
  ``go [wtime|btime|winc|binc|movestogo|movetime|depth|nodes N] [infinite]``; ``stop``;
  ``quit``. ``debug``, ``register``, ``ponderhit`` are accepted and do nothing.
* The search runs in a thread under a :class:`~gamesearch.search.control.Limit` that
  carries a stop event: ``stop`` (and ``quit``, a new ``position``, ``ucinewgame``) sets
  the event and waits for the thread; the search ends at its next clock check and answers
  with the deepest completed iteration (or the partial one the driver deems sound).
  ``go infinite`` is a limit with nothing but the stop event.
* After each iteration: ``info depth D seldepth S score cp X|mate N nodes N nps N time MS
  pv ...``, then ``bestmove``. A mate in ``n`` moves is ``score mate n`` (negative: the
  engine is mated). Under ``go infinite`` the ``bestmove`` waits for ``stop``.
* Time: the clocks (``wtime``/``btime``/``winc``/``binc``/``movestogo``) go into the limit
  as they are, and the library's one allocation rule
  (:func:`gamesearch.search.control.allocate_time`, shared with the arena) turns them into
  a target, a hard limit and a soft limit (the ``Move Overhead`` kept back; the time
  rule by instability, :class:`~gamesearch.search.control.TimeRule`, is off: its SPRT
  did not pass). ``movetime`` is used whole, less the
  ``Move Overhead`` or 10 %, whichever leaves less; ``movetime`` 0 or less means "move at
  once" (a depth-1 search). ``depth``, ``nodes`` and ``infinite`` have no clock.
* Bad input never ends the engine: a malformed command, an illegal move in ``position``
  (the moves before it are kept), or an unknown option is answered with ``info string``
  and otherwise ignored; a ``go`` with a malformed parameter says so and moves at once.
  Every ``go`` gets exactly one ``bestmove`` with a legal move (``0000`` only when the
  position has none: mate or stalemate). Input is read as bytes and decoded leniently; a
  ``position`` longer than :data:`MAX_POSITION_MOVES` moves is refused at once.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TextIO

from .. import __version__
from ..errors import GameError, IllegalMoveError, InvalidPositionError
from ..games.chess import ChessGame, ChessState, Move
from ..search import Limit, SearchResult, make_searcher
from ..search.base import gc_paused
from ..search.common import win_step, win_threshold
from ..search.control import MAX_SECONDS, MIN_SECONDS, MOVE_OVERHEAD
from ..search.negamax import Negamax

ENGINE_NAME = f"gamesearch {__version__}"
ENGINE_AUTHOR = "the gamesearch authors"
DEFAULT_HASH_MB = 64
MAX_HASH_MB = 4096
#: Approximate bytes per transposition-table entry (a dict slot, an int key, a 4-tuple).
ENTRY_BYTES = 200
#: Longest move list a ``position`` command may carry (longer than any real game).
MAX_POSITION_MOVES = 6000
#: ``Move Overhead`` in milliseconds: the default (the library's) and the largest accepted
DEFAULT_OVERHEAD_MS = round(MOVE_OVERHEAD * 1000)
MAX_OVERHEAD_MS = 5000


def hash_entries(megabytes: int) -> int:
    """Entries of the Python search's table (a dict) in ``megabytes`` MiB: a power of two,
    as tables are sized (rounded down, so that it stays within the memory; at least 1,024)."""
    return 1 << max(10, (megabytes * (1 << 20) // ENTRY_BYTES).bit_length() - 1)


def movetime_seconds(milliseconds: int, overhead: float = MOVE_OVERHEAD) -> float:
    """Seconds to search under ``go movetime`` (the overhead, or 10 %, kept back; at least
    :data:`~gamesearch.search.control.MIN_SECONDS` unless that is a tenth of the time)."""
    movetime = milliseconds / 1000
    return max(min(MIN_SECONDS, movetime * 0.1), min(movetime - overhead, movetime * 0.9))


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
        self.options = dict(options)
        self.searcher: Negamax = self._make_searcher()

    def _make_searcher(self) -> Negamax:
        # Sized for the compiled twin when the game offers one (its entries are ~6x
        # smaller than the dict's, so Hash MiB hold that many more); built again for the
        # dict only when the options leave the twin out.
        offer = self.game.compiled_search()
        twin_entries = (offer.table_entries(self.hash_mb << 20)
                        if offer is not None and offer.table_entries is not None else None)
        searcher = make_searcher(self.game, "id", tt=twin_entries or hash_entries(self.hash_mb),
                                 **self.options)
        assert isinstance(searcher, Negamax)
        if twin_entries is not None and not searcher.compiled:
            searcher = make_searcher(self.game, "id", tt=hash_entries(self.hash_mb),
                                     **self.options)
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
    ) -> SearchResult | None:
        """Search ``state`` under ``limit``; ``None`` when the position has no legal move."""
        if not self.game.actions(state):
            return None
        return self.searcher.search(state, limit, callback)


def position_from_tokens(game: ChessGame, tokens: list[str]) -> tuple[ChessState, str | None]:
    """The state of ``position startpos|fen F [moves ...]`` (the words after
    ``position``) and a warning if some moves were illegal (the moves before are kept).
    Raises :class:`InvalidPositionError` for a malformed command or FEN."""
    head, moves = split_position(tokens)
    return play_moves(game, start_position(game, head, tokens), moves)


def split_position(tokens: list[str]) -> tuple[list[str], list[str]]:
    """The words of ``position`` before ``moves`` and the moves. Raises
    :class:`InvalidPositionError` for none at all, or more moves than any game."""
    if not tokens:
        raise InvalidPositionError("position: expected 'startpos' or 'fen <FEN>'")
    if "moves" in tokens:
        i = tokens.index("moves")
        head, moves = tokens[:i], tokens[i + 1:]
    else:
        head, moves = tokens, []
    if len(moves) > MAX_POSITION_MOVES:
        raise InvalidPositionError(f"position: {len(moves)} moves, more than any game "
                                   f"(at most {MAX_POSITION_MOVES}); position unchanged")
    return head, moves


def start_position(game: ChessGame, head: list[str], tokens: list[str]) -> ChessState:
    """The position ``startpos`` or ``fen F`` names (``tokens``: the whole command, for
    the error message)."""
    if head and head[0] == "startpos" and len(head) == 1:
        state = game.initial_state()
    elif head and head[0] == "fen" and len(head) > 1:
        state = game.parse_state(" ".join(head[1:]))
    else:
        raise InvalidPositionError(
            f"position {' '.join(tokens)[:80]!r}: expected 'startpos' or 'fen <FEN>' then "
            "optionally 'moves m1 m2 ...'"
        )
    return state


def play_moves(game: ChessGame, state: ChessState, moves: list[str],
               first: int = 1) -> tuple[ChessState, str | None]:
    """``state`` after the UCI ``moves`` (numbered from ``first`` in warnings) and a
    warning if some were illegal (the moves before are kept)."""
    for n, word in enumerate(moves, first):
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
        #: seconds kept back from every allocation (``Move Overhead``)
        self.overhead = MOVE_OVERHEAD
        #: the last ``position``: its words before ``moves``, its moves, and the state
        #: they reached when every move was legal (``None``: start from scratch)
        self._last_position: tuple[list[str], list[str], ChessState] | None = None
        self.game = self.engine.game
        self.state = self.game.initial_state()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        #: the running search's stop event (a new one for every ``go``)
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
        self.send(f"option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} "
                  f"min 0 max {MAX_OVERHEAD_MS}")
        self.send("uciok")

    def cmd_isready(self, args: list[str]) -> None:
        self.send("readyok")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.stop_search()
        self.engine.new_game()
        self.state = self.game.initial_state()
        self._last_position = None

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
        elif name.lower() == "move overhead":
            try:
                ms = int(value)
            except ValueError:
                self.info(f"setoption Move Overhead: value {value[:40]!r} is not a whole "
                          "number of milliseconds")
                return
            if not 0 <= ms <= MAX_OVERHEAD_MS:
                self.info(f"setoption Move Overhead: {ms} out of range 0-{MAX_OVERHEAD_MS}")
                return
            self.overhead = ms / 1000
        else:
            self.info(f"setoption: unknown option {name!r} ignored (known: Hash, "
                      "Move Overhead)")

    def cmd_position(self, args: list[str]) -> None:
        self.stop_search()
        head, moves = split_position(args)
        last = self._last_position
        if last is not None and last[0] == head and moves[:len(last[1])] == last[1]:
            # the previous position and a few more moves: play only those
            state, warning = play_moves(self.game, last[2], moves[len(last[1]):],
                                        len(last[1]) + 1)
        else:
            self._last_position = None
            state, warning = play_moves(self.game, start_position(self.game, head, args),
                                        moves)
        self.state = state
        self._last_position = None if warning else (head, moves, state)
        if warning:
            self.info(f"position: {warning}")

    def cmd_go(self, args: list[str]) -> None:
        self.stop_search()
        params, infinite, bad = self._go_params(args)
        self._stop = threading.Event()
        if bad:
            self.info(f"go: {bad}; moving at once")
            limit, infinite = Limit(depth=1, stop=self._stop), False
        else:
            limit = self._limit(params, infinite)
        state = self.state
        self._thread = threading.Thread(
            target=self._search, args=(state, limit, infinite), daemon=True
        )
        self._thread.start()

    _GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth",
                   "nodes", "mate")

    def _go_params(self, args: list[str]) -> tuple[dict[str, int], bool, str | None]:
        """The numbers of a ``go`` command, whether it is infinite, and what was malformed."""
        params: dict[str, int] = {}
        infinite = False
        i = 0
        while i < len(args):
            word = args[i]
            if word in ("infinite", "ponder"):
                infinite = True
                i += 1
            elif word in self._GO_NUMBERS:
                text = args[i + 1] if i + 1 < len(args) else None
                if text is None or not text.lstrip("-").isascii() \
                        or not text.lstrip("-").isdigit() or len(text) > 15:
                    got = repr(text[:20]) if text is not None else "nothing"
                    return params, infinite, f"{word} needs a whole number, got {got}"
                params[word] = int(text)
                i += 2
            elif word == "searchmoves":
                self.info("go: searchmoves is not supported; searching all moves")
                i += 1
                while i < len(args) and args[i] not in self._GO_NUMBERS \
                        and args[i] != "infinite":
                    i += 1
            else:
                self.info(f"go: unknown parameter {word[:40]!r} ignored")
                i += 1
        return params, infinite, None

    def _limit(self, params: dict[str, int], infinite: bool) -> Limit:
        """The search limit of a ``go`` (always with the stop event)."""
        stop = self._stop
        if infinite:
            return Limit(stop=stop)
        depth = params.get("depth")
        if "mate" in params and depth is None:
            depth = 2 * max(params["mate"], 1) - 1
        depth = None if depth is None else min(max(depth, 1), 200)
        nodes = params.get("nodes")
        nodes = None if nodes is None else max(nodes, 1)
        if "movetime" in params:
            movetime = params["movetime"]
            if movetime <= 0:
                return Limit(depth=1, stop=stop)  # no time at all: move at once
            seconds = min(movetime_seconds(movetime, self.overhead), MAX_SECONDS)
            return Limit(depth=depth, nodes=nodes, time=seconds, soft_time=seconds, stop=stop)
        clocks = self._clocks(params)
        if clocks is None:
            return Limit(depth=depth, nodes=nodes, stop=stop)  # until stop, depth or nodes
        incs = (max(params.get("winc", 0), 0) / 1000, max(params.get("binc", 0), 0) / 1000)
        mtg = params.get("movestogo")
        return Limit(depth=depth, nodes=nodes, clocks=clocks, increments=incs,
                     moves_to_go=mtg if mtg and 0 < mtg <= 10_000 else None, stop=stop,
                     overhead=self.overhead)

    def _clocks(self, params: dict[str, int]) -> tuple[float, float] | None:
        """Both clocks in seconds (negative read as 0); a missing one copies the other."""
        def seconds(key: str) -> float | None:
            ms = params.get(key)
            return None if ms is None else min(max(ms, 0) / 1000, MAX_SECONDS)

        white, black = seconds("wtime"), seconds("btime")
        if white is None and black is None:
            return None
        mover_white = self.state.board.turn
        if (white if mover_white else black) is None:
            self.info("go: no clock for the side to move; using the other side's")
        return (white if white is not None else black,  # type: ignore[return-value]
                black if black is not None else white)

    def _search(self, state: ChessState, limit: Limit, infinite: bool) -> None:
        # The collector waits until ``bestmove`` is out: a collection of the tables
        # (0.1-1 s on a busy machine) then costs the opponent's time or none, not ours.
        with gc_paused():
            self._search_and_answer(state, limit, infinite)

    def _search_and_answer(self, state: ChessState, limit: Limit, infinite: bool) -> None:
        game = self.game
        best: Move | None = None
        try:
            result = self.engine.think(state, limit, lambda r: self._report(state, r))
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
        ms = int(r.seconds * 1000)
        pv = " ".join(m.uci() for m in r.pv[:len(r.pv_moves)])  # (annotate cut stale moves)
        self.send(
            f"info depth {r.depth} seldepth {max(r.seldepth, r.depth)} "
            f"score {uci_score(r.value, self.game.max_utility)} nodes {r.nodes} "
            f"nps {int(r.nps)} time {ms} pv {pv}".rstrip()
        )

    def stop_search(self) -> None:
        """End the running search (it answers with ``bestmove``) and wait for it."""
        thread = self._thread
        if thread is None:
            return
        self._stop.set()
        thread.join()
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
    """Standard input line by line, as bytes decoded leniently: a GUI's stray bytes are
    read as replacement characters whatever the locale's encoding (then refused as
    unknown input), never an exception that ends the engine."""
    stream = getattr(sys.stdin, "buffer", None)
    while True:
        raw = stream.readline() if stream is not None else sys.stdin.readline()
        if not raw:
            return
        yield raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw


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

    engine = ChessEngine(hash_mb, **options)
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
        # the whole time: no soft limit before the hard one
        result = engine.think(state, Limit(time=seconds, soft_time=seconds, nodes=nodes))
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
