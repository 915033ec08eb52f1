"""The compiled chess kernels (``games/chess/kernels/compiled.pyx``, the ``COMPILED`` set of
``games/chess/backend.py``) against their pure-Python references (``PURE_PYTHON``): the
same results, order included, on the EPD suites, the perft positions, random walks from them
and hand-picked corner cases; the same search, node for node, in a child process with and
without ``GAMESEARCH_PURE_PYTHON``."""

from __future__ import annotations

import inspect
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

chess = pytest.importorskip("chess")

from gamesearch.games.chess import ChessGame, ChessState, intern_move  # noqa: E402
from gamesearch.games.chess import evaluation as chess_eval  # noqa: E402
from gamesearch.games.chess.backend import (  # noqa: E402
    COMPILED,
    KERNEL_NAMES,
    PURE_PYTHON,
    Kernels,
)

REPO = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data" / "chess"
PURE = PURE_PYTHON
GAME = ChessGame()
SEED = 1234

#: the kernels the tests below compare, as each declares with ``@compares``
#: (test_every_kernel_is_compared checks that no kernel is left out)
COMPARED: set[str] = set()
F = TypeVar("F", bound=Callable[..., Any])


def compares(*names: str) -> Callable[[F], F]:
    """Mark a test as comparing the compiled twins of the kernels ``names`` with their
    references."""
    def mark(test: F) -> F:
        COMPARED.update(names)
        return test
    return mark

#: Corner cases the walks may miss (each checked to be a valid position below).
HAND_PICKED = [
    # en passant: refused (both pawns leave a rank pin), evading a pawn's check, giving a
    # discovered check, along a diagonal pin, refused by a diagonal pin, refused as the
    # captured pawn uncovers a bishop; for Black: giving check, refused (rank pin)
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
    "8/8/8/3pP3/4K3/8/8/k7 w - d6 0 2",
    "8/8/8/R2Pp2k/8/8/8/K7 w - e6 0 2",
    "7k/2b5/8/3pP3/5K2/8/8/8 w - d6 0 2",
    "7k/6b1/8/3pP3/8/2K5/8/8 w - d6 0 2",
    "7k/1b6/8/3pP3/8/8/8/7K w - d6 0 2",
    "4k3/8/8/8/3Pp3/8/2K5/8 b - d3 0 1",
    "8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1",
    # promotions: captures and pushes, a capture of the checker, under-promotions, Black
    "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/1p6/R1N1K3 b - - 0 1",
    "1r5k/P7/8/8/8/8/8/1K6 w - - 0 1",
    "n1n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/p1p5/1B2K3 b - - 0 1",
    # castling: free, through an attacked square, attacked b1 (still legal), attacked d1,
    # in check, Black through an attacked square, blocked
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
    "3rk2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
    "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1",
    "r3k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1",
    "rn2k1nr/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1",
    # pins: a pinned knight, a pinned pawn that may take its pinner, a pinned queen
    "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",
    "4k3/8/8/8/1b6/2P5/8/4K3 w - - 0 1",
    "4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1",
    # double checks (knight and rook, bishop and rook, pawn and bishop, knight and queen),
    # mate, stalemate, bare kings
    "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
    "4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1",
    "7k/7b/8/3p4/4K3/8/8/8 w - - 0 1",
    "4k3/8/8/8/8/3n4/8/4K2q w - - 0 1",
    "R6k/6pp/8/8/8/8/8/K7 b - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
    "8/8/4k3/8/8/3K4/8/6B1 w - - 0 1",
]
#: Games with a history (start, UCI moves): repetitions, the fifty-move rule.
HISTORY_LINES = [
    ("startpos", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6"),
    ("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 30", "e1f1 e8d8 f1e1 d8e8 e1f1 e8d8 f1e1 d8e8 e1f1"),
    ("8/8/4k3/8/8/3K4/8/R7 w - - 96 80", "a1a2 e6f6 a2a3 f6f5 a3a4 f5f6 a4a5"),
]


def _compiled() -> Kernels:
    """The compiled kernels. Fail when they should have been built and were not; skip,
    loudly, when they cannot be (no C compiler)."""
    if COMPILED is not None:
        return COMPILED
    if shutil.which("cc") or shutil.which("gcc"):
        pytest.fail(
            "the compiled chess kernels are missing although a C compiler is installed: the "
            "Cython extension gamesearch.games.chess.kernels.compiled was not built or does "
            "not import (`pip install -e .` or `python setup.py build_ext --inplace` builds it)"
        )
    pytest.skip("COMPILED CHESS KERNELS NOT TESTED: no C compiler, so they were not built")


def _fresh(s: ChessState) -> ChessState:
    """``s`` without what its methods cached in it (same board, parent and ply)."""
    return ChessState(s.board, s.key, s.mg, s.eg, s.phase, s.parent, s.ply)


# ----- the positions -------------------------------------------------------------------
def _epd_fens(name: str) -> list[str]:
    lines = (DATA / name).read_text().splitlines()
    return [chess.Board.from_epd(line)[0].fen() for line in lines if line.strip()]


def _walk(start: ChessState, rng: random.Random) -> Iterator[ChessState]:
    """About half the positions of a random game of 10-40 plies from ``start``, and its
    last one (a capture or promotion, when there is one, a third of the time: more
    exchanges and promotions)."""
    s = start
    kept = True
    for _ in range(rng.randint(10, 40)):
        if GAME.is_terminal(s):
            break
        moves = list(GAME.actions(s))
        noisy = [m for m in moves if GAME.is_noisy(s, m)]
        s = GAME.result(s, rng.choice(noisy if noisy and rng.random() < 1 / 3 else moves))
        kept = rng.random() < 0.5
        if kept:
            yield s
    if not kept:
        yield s


def _build_positions() -> list[ChessState]:
    suites = _epd_fens("wac.epd") + _epd_fens("bk.epd") + _epd_fens("perft.epd")
    rng = random.Random(SEED)
    out: list[ChessState] = []
    for i, fen in enumerate(suites):
        start = GAME.parse_state(fen)
        out.append(start)
        # the few Bratko-Kopec and perft positions get more walks than each WAC one
        for _ in range(1 if i < 300 else 4):
            out.extend(_walk(start, rng))
    for fen in HAND_PICKED:
        start = GAME.parse_state(fen)
        out.append(start)
        for _ in range(2):
            out.extend(_walk(start, rng))
    for fen, line in HISTORY_LINES:
        for root in (False, True):  # after a search root, the first repetition is a draw
            s = GAME.parse_state(fen)
            if root:
                s = GAME.search_start(s)
            for uci in line.split():
                move = intern_move(chess.Move.from_uci(uci))
                assert move in s.board.legal_moves, (s.board.fen(), uci)
                s = GAME.result(s, move)  # (not parse_action: it refuses after a draw)
                out.append(s)
    return out


@pytest.fixture(scope="module")
def positions() -> list[ChessState]:
    return _build_positions()


def test_hand_picked_positions_are_valid() -> None:
    for fen in HAND_PICKED:
        board = chess.Board(fen)
        assert board.is_valid(), (fen, board.status())
        assert board.fen(en_passant="fen") == fen


def test_positions_cover_the_special_cases(positions: list[ChessState]) -> None:
    """The position set holds every kind of position the kernels treat apart."""
    seen = dict.fromkeys(
        ("check", "double check", "pin", "en passant", "en passant refused", "castling",
         "castling refused", "promotion", "promotion capture", "no moves", "repetition",
         "fifty-move rule", "insufficient material"), 0)
    for s in positions:
        b = s.board
        legal = list(b.legal_moves)
        us = b.occupied_co[b.turn]
        seen["check"] += b.is_check()
        seen["double check"] += len(b.checkers()) > 1
        seen["pin"] += any(b.is_pinned(b.turn, sq) for sq in chess.SquareSet(us))
        seen["en passant"] += any(b.is_en_passant(m) for m in legal)
        seen["en passant refused"] += b.ep_square is not None and any(
            b.is_en_passant(m) for m in b.pseudo_legal_moves
        ) and not any(b.is_en_passant(m) for m in legal)
        seen["castling"] += any(b.is_castling(m) for m in legal)
        king = b.king(b.turn)
        seen["castling refused"] += any(  # a right, an empty path, and yet not legal
            not chess.between(king, rook) & b.occupied
            and chess.Move(king, king + (2 if rook > king else -2)) not in legal
            for rook in chess.SquareSet(b.castling_rights & us)
        )
        seen["promotion"] += any(m.promotion for m in legal)
        seen["promotion capture"] += any(m.promotion and b.is_capture(m) for m in legal)
        seen["no moves"] += not legal
        why = GAME.termination(_fresh(s))
        seen["repetition"] += why == "repetition"
        seen["fifty-move rule"] += why == "fifty-move rule"
        seen["insufficient material"] += why == "insufficient material"
    assert len(positions) >= 3000, len(positions)
    assert all(n >= 3 for n in seen.values()), seen


# ----- the kernels against the references ----------------------------------------------
def _mismatch(what: str, s: ChessState, ref: Any, got: Any) -> str:
    return f"{what} differs at {s.board.fen()!r}:\n  python:   {ref!r}\n  compiled: {got!r}"


@compares("checkers_and_pinned", "generate_moves")
def test_checkers_pinned_and_move_generation(positions: list[ChessState]) -> None:
    c = _compiled()
    for s in positions:
        b = s.board
        cp = PURE.checkers_and_pinned(b)
        ref = {(noisy, given): PURE.generate_moves(b, noisy, cp if given else None)
               for noisy in (False, True) for given in (False, True)}
        got_cp = c.checkers_and_pinned(b)
        assert got_cp == cp, _mismatch("checkers_and_pinned", s, cp, got_cp)
        for (noisy, given), r in ref.items():
            g = c.generate_moves(b, noisy, cp if given else None)
            what = f"generate_moves(noisy={noisy}, cp={'given' if given else None})"
            assert g == r, _mismatch(what, s, r, g)
            assert all(x is y for x, y in zip(g[0], r[0], strict=True)), (
                f"{what} at {b.fen()!r}: not the interned Move objects")
        for gen in (PURE.generate_moves, c.generate_moves):
            assert gen(b) == gen(b, False, None)  # type: ignore[call-arg]  # the defaults
        moves, check = ref[(False, False)]
        assert set(moves) == set(b.legal_moves), b.fen()
        assert len(moves) == len(set(moves)), b.fen()
        assert check == b.is_check(), b.fen()
        noisy = ref[(True, False)][0]
        if not check:
            # captures, and promotions to a queen or a knight (capturing or not)
            assert set(noisy) == {
                m for m in b.legal_moves if m.promotion in (chess.QUEEN, chess.KNIGHT)
                or (b.is_capture(m) and not m.promotion)}, b.fen()


@compares("noisy_moves", "has_free_move")
def test_noisy_moves_and_free_move(positions: list[ChessState]) -> None:
    c = _compiled()
    checked = 0
    for s in positions:
        b = s.board
        ksq, checkers, pinned = PURE.checkers_and_pinned(b)
        if checkers:
            continue
        ref_noisy = list(PURE.noisy_moves(b, ksq, pinned))
        ref_free = PURE.has_free_move(b, pinned)
        got_noisy = list(c.noisy_moves(b, ksq, pinned))
        assert got_noisy == ref_noisy, _mismatch("noisy_moves", s, ref_noisy, got_noisy)
        assert all(x is y for x, y in zip(got_noisy, ref_noisy, strict=True)), b.fen()
        got_free = c.has_free_move(b, pinned)
        assert got_free == ref_free, _mismatch("has_free_move", s, ref_free, got_free)
        if ref_free:
            assert any(b.legal_moves), b.fen()
        checked += 1
    assert checked > len(positions) // 2


@compares("see")
def test_see(positions: list[ChessState]) -> None:
    c = _compiled()
    kinds = dict.fromkeys(("capture", "en passant", "promotion capture"), 0)
    for s in positions:
        b = s.board
        for m in PURE.generate_moves(b, False, None)[0]:
            if not b.is_capture(m):
                continue
            kinds["en passant" if b.is_en_passant(m) else
                  "promotion capture" if m.promotion else "capture"] += 1
            ref = PURE.see(b, m)
            got = c.see(b, m)
            assert got == ref, _mismatch(f"see({b.uci(m)})", s, ref, got)
    assert all(n >= 5 for n in kinds.values()), kinds


@compares("evaluate_board", "pawn_structure", "king_shield", "pawn_king_terms")
def test_evaluation(positions: list[ChessState]) -> None:
    """``evaluate_board`` and the pawn and king terms under it."""
    c = _compiled()
    chess_eval._PAWN_CACHE.clear()  # the references' caches: filled by references only
    chess_eval._PAWN_KING_CACHE.clear()
    for s in positions:
        b = s.board
        white, black = b.occupied_co[1], b.occupied_co[0]
        wp, bp = b.pawns & white, b.pawns & black
        wk, bk = (b.kings & white).bit_length() - 1, (b.kings & black).bit_length() - 1
        for name, args in (("pawn_structure", (wp, bp)), ("king_shield", (wp, bp, wk, bk))):
            ref, got = getattr(PURE, name)(*args), getattr(c, name)(*args)
            assert got == ref, _mismatch(name, s, ref, got)
        s._pk = None
        ref = PURE.pawn_king_terms(s)
        s._pk = None
        got = c.pawn_king_terms(s)
        assert s._pk == got, b.fen()
        assert got == ref, _mismatch("pawn_king_terms", s, ref, got)
        for pk_known in (False, True):  # the pawn/king terms computed, then cached
            if not pk_known:
                s._pk = None
            ref = PURE.evaluate_board(s)
            if not pk_known:
                s._pk = None
            got = c.evaluate_board(s)
            assert got == ref, _mismatch(f"evaluate_board (pk cached: {pk_known})", s, ref, got)
        fresh = ChessState.from_board(b)  # scores from scratch, nothing cached
        ref = PURE.evaluate_board(fresh)
        fresh._pk = None
        assert c.evaluate_board(fresh) == ref == c.evaluate_board(s), b.fen()


@compares("evaluate", "quick_evaluate", "compute_status", "terminal_utility", "in_check",
          "noisy_actions")
def test_game_methods(positions: list[ChessState]) -> None:
    """The kernels behind ChessGame's per-node methods: evaluate, quick_evaluate (lazy,
    then from the evaluation cache), through a game on each set of kernels; the terminal
    status, terminal_utility, in_check and the noisy moves, with what they cache in the
    state."""
    c = _compiled()
    ref_game, game = ChessGame(PURE), ChessGame(c)
    for s in positions:
        for player in (0, 1):
            # quick_evaluate: lazy before the evaluation is cached, from the cache after it
            for name in ("quick_evaluate", "evaluate", "quick_evaluate"):
                s._pk = None  # each works out the pawn and king terms itself
                ref = getattr(ref_game, name)(s, player)
                s._pk = None
                got = getattr(game, name)(s, player)
                assert got == ref, _mismatch(f"{name}(player={player})", s, ref, got)
        for name in ("compute_status", "terminal_utility", "in_check", "noisy_actions"):
            for player in (0, 1) if name == "terminal_utility" else (None,):
                extra = () if player is None else (player,)
                for moves_known in (False, True):
                    a, b = _fresh(s), _fresh(s)  # nothing cached: both work it all out
                    if moves_known:  # or with the legal moves in the state
                        PURE.state_moves(a)
                        c.state_moves(b)
                    ref = _state_after(getattr(PURE, name)(a, *extra), a)
                    got = _state_after(getattr(c, name)(b, *extra), b)
                    what = (f"{name}{extra} (moves known: {moves_known}; result, _status, "
                            f"_check, _cp, _moves)")
                    assert got == ref, _mismatch(what, s, ref, got)


def _state_after(value: Any, s: ChessState) -> tuple[Any, ...]:
    """A kernel's result (an iterator as a list) and what it cached in ``s``."""
    if isinstance(value, Iterator):
        value = list(value)
    return value, s._status, s._check, s._cp, s._moves


@compares("king_attacked")
def test_king_attacked(positions: list[ChessState]) -> None:
    c = _compiled()
    rng = random.Random(SEED)
    for s in positions:
        b = s.board
        occ = b.occupied
        pieces = list(chess.SquareSet(occ))
        drop = chess.BB_SQUARES[rng.choice(pieces)]
        add = chess.BB_SQUARES[rng.randrange(64)]
        # both kings and a random square; the board's occupancy, one piece less, one more;
        # either side attacking, with or without the removed piece
        squares = {(b.kings & b.occupied_co[c]).bit_length() - 1 for c in (0, 1)}
        squares.add(rng.randrange(64))
        for sq in sorted(squares):
            for turn in (True, False):
                them = b.occupied_co[not turn]
                for o, by in ((occ, them), (occ & ~drop, them & ~drop), (occ | add, them)):
                    ref = PURE.king_attacked(b, sq, o, by, turn)
                    got = c.king_attacked(b, sq, o, by, turn)
                    assert got == ref, _mismatch(
                        f"king_attacked(sq={sq}, occ={o:#x}, them={by:#x}, turn={turn})",
                        s, ref, got)


_BOARD_FIELDS = ("pawns", "knights", "bishops", "rooks", "queens", "kings", "occupied_co",
                 "occupied", "promoted", "chess960", "turn", "castling_rights", "ep_square",
                 "halfmove_clock", "fullmove_number", "move_stack", "_stack")
_STATE_FIELDS = ("key", "mg", "eg", "phase", "ply", "player", "_pk", "_moves", "_status",
                 "_check", "_cp")


def _child_fields(child: ChessState) -> tuple[Any, ...]:
    b = child.board
    return (type(child), type(b), *(getattr(b, f) for f in _BOARD_FIELDS),
            *(getattr(child, f) for f in _STATE_FIELDS))


@compares("result")
def test_result(positions: list[ChessState]) -> None:
    """The compiled make-move: the same child, field by field, for every legal move of
    every third position."""
    c = _compiled()
    for s in positions[::3]:
        for m in PURE.generate_moves(s.board, False, None)[0]:
            ref = PURE.result(s, m)
            got = c.result(s, m)
            assert got.parent is s and ref.parent is s
            assert _child_fields(got) == _child_fields(ref), _mismatch(
                f"result({s.board.uci(m)}) (fields {_BOARD_FIELDS + _STATE_FIELDS})", s,
                _child_fields(ref), _child_fields(got))


def test_every_kernel_is_compared() -> None:
    """Each kernel (a field of ``Kernels``) is compared with its reference above: a kernel
    added without a comparison fails here."""
    missing = set(KERNEL_NAMES) - COMPARED
    assert not missing, f"compare these kernels here too: {missing}"
    unknown = COMPARED - set(KERNEL_NAMES)
    assert not unknown, f"not kernels: {unknown}"


def test_each_set_holds_its_own_functions() -> None:
    """PURE_PYTHON holds only the package's Python functions, COMPILED only the extension's
    (a reference that were compiled, or a twin left in Python, would compare with itself),
    and a game calls its own set's functions at every node."""
    for name in KERNEL_NAMES:
        fn = getattr(PURE, name)
        assert inspect.isfunction(fn), f"PURE_PYTHON.{name} is not a Python function: {fn!r}"
        assert fn.__module__.startswith("gamesearch.games.chess."), (name, fn.__module__)
        assert ".kernels" not in fn.__module__, (name, fn.__module__)
    c = _compiled()
    from gamesearch.games.chess.kernels import compiled

    for name in KERNEL_NAMES:
        fn = getattr(c, name)
        assert not inspect.isfunction(fn), f"COMPILED.{name} is a Python function: {fn!r}"
        assert any(fn is v for v in vars(compiled).values()), f"COMPILED.{name}: {fn!r}"
    for kernels in (PURE, c):
        game = ChessGame(kernels)
        assert game.kernels is kernels and ChessGame(kernels.name).kernels is kernels
        for name in ("result", "terminal_utility", "in_check"):
            assert getattr(game, name) is getattr(kernels, name), name
        assert game.iter_noisy_actions is kernels.noisy_actions
        for name in ("evaluate", "quick_evaluate"):
            bound = getattr(game, name)  # partial(kernels.evaluate, the game's cache)
            assert bound.func is getattr(kernels, name) and bound.args == (game._eval_cache,)
    default = ChessGame().kernels
    assert default is (PURE if os.environ.get("GAMESEARCH_PURE_PYTHON") else c)


# ----- end to end: the same search either way ------------------------------------------
SEARCH = """\
import sys
from gamesearch.games.chess import ChessGame
from gamesearch.search import Limit, make_searcher
g = ChessGame()
s = g.search_start(g.parse_state(sys.argv[1]))
r = make_searcher(g, "id").search(s, Limit(depth=4))
print(g.kernels.name, r.nodes, r.value, r.depth, g.format_action(s, r.action), "pv",
      *(m.uci() for m in r.pv))
"""


def _search_in_child(fen: str, pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "GAMESEARCH_PURE_PYTHON"}
    if pure:
        env["GAMESEARCH_PURE_PYTHON"] = "1"
    done = subprocess.run([sys.executable, "-c", SEARCH, fen], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("fen", [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
], ids=["middlegame", "kiwipete", "wac001"])
def test_search_is_the_same_with_either_kernels(fen: str) -> None:
    _compiled()
    compiled = _search_in_child(fen, pure=False)
    python = _search_in_child(fen, pure=True)
    assert compiled[0] == "compiled", compiled
    assert python[0] == "python", python
    assert compiled[1:] == python[1:], (fen, compiled, python)
