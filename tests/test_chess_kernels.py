"""The compiled chess kernels (``_chess_kernels.pyx``) against their pure-Python references
(``chess.PURE_PYTHON_KERNELS``): the same results, order included, on the EPD suites, the
perft positions, random walks from them and hand-picked corner cases; the same search, node
for node, in a child process with and without ``GAMESEARCH_PURE_PYTHON``."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

chess = pytest.importorskip("chess")

from gamesearch.games import chess as chess_mod  # noqa: E402
from gamesearch.games.chess import ChessGame, ChessState  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data" / "chess"
PURE = chess_mod.PURE_PYTHON_KERNELS
#: kernels that replace methods of ChessGame (a game instance takes their compiled twins)
METHOD_KERNELS = tuple(n for n in PURE if PURE[n].__qualname__.startswith("ChessGame."))
#: kernels that replace module globals of ``chess.py``
GLOBAL_KERNELS = tuple(n for n in PURE if n not in METHOD_KERNELS)
#: the kernels the tests below compare (test_every_kernel_is_compared checks the list)
COMPARED = {"_king_attacked", "_checkers_and_pinned", "generate_moves", "_noisy_moves",
            "_has_free_move", "see", "evaluate_board", "pawn_structure", "king_shield",
            "_pawn_king_terms", "result", "evaluate", "quick_evaluate", "_compute_status",
            "terminal_utility", "in_check", "iter_noisy_actions"}
GAME = ChessGame()
SEED = 1234

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


def _compiled_or_skip() -> None:
    """Fail when the kernels should have been compiled and are not; skip, loudly, when they
    cannot be (no C compiler) or were turned off on purpose."""
    if chess_mod.KERNELS == "compiled":
        return
    if os.environ.get("GAMESEARCH_PURE_PYTHON"):
        pytest.skip("COMPILED CHESS KERNELS NOT TESTED: GAMESEARCH_PURE_PYTHON is set")
    if shutil.which("cc") or shutil.which("gcc"):
        pytest.fail(
            "chess.KERNELS is 'python' although a C compiler is installed: the Cython "
            "extension gamesearch.games._chess_kernels was not built or does not import "
            "(`pip install -e .` or `python setup.py build_ext --inplace` builds it)"
        )
    pytest.skip("COMPILED CHESS KERNELS NOT TESTED: no C compiler, so they were not built")


@contextmanager
def pure_python() -> Iterator[None]:
    """The module's globals set back to the pure-Python functions, so that a reference
    function calls references only (``_noisy_moves`` calls ``see``, ``generate_moves``
    calls ``_checkers_and_pinned`` and ``_king_attacked``, ``evaluate_board`` calls
    ``_pawn_king_terms``: all through the globals)."""
    saved = {name: getattr(chess_mod, name) for name in GLOBAL_KERNELS}
    for name in GLOBAL_KERNELS:
        setattr(chess_mod, name, PURE[name])
    try:
        yield
    finally:
        for name, fn in saved.items():
            setattr(chess_mod, name, fn)


def _pure_game() -> ChessGame:
    """A game whose methods are all the pure-Python ones (no compiled twins)."""
    game = ChessGame()
    for name in METHOD_KERNELS:
        vars(game).pop(name, None)
    return game


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
                s = GAME.search_root(s)
            for uci in line.split():
                move = chess_mod.intern_move(chess.Move.from_uci(uci))
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


def test_checkers_pinned_and_move_generation(positions: list[ChessState]) -> None:
    _compiled_or_skip()
    cp_c = chess_mod._checkers_and_pinned
    gen_c = chess_mod.generate_moves
    cp_p, gen_p = PURE["_checkers_and_pinned"], PURE["generate_moves"]
    for s in positions:
        b = s.board
        with pure_python():
            cp = cp_p(b)
            ref = {(noisy, given): gen_p(b, noisy, cp if given else None)
                   for noisy in (False, True) for given in (False, True)}
        got_cp = cp_c(b)
        assert got_cp == cp, _mismatch("_checkers_and_pinned", s, cp, got_cp)
        for (noisy, given), r in ref.items():
            g = gen_c(b, noisy, cp if given else None)
            what = f"generate_moves(noisy={noisy}, cp={'given' if given else None})"
            assert g == r, _mismatch(what, s, r, g)
            assert all(x is y for x, y in zip(g[0], r[0], strict=True)), (
                f"{what} at {b.fen()!r}: not the interned Move objects")
        assert gen_c(b) == gen_c(b, False, None)  # the defaults
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


def test_noisy_moves_and_free_move(positions: list[ChessState]) -> None:
    _compiled_or_skip()
    noisy_c, free_c = chess_mod._noisy_moves, chess_mod._has_free_move
    noisy_p, free_p = PURE["_noisy_moves"], PURE["_has_free_move"]
    checked = 0
    for s in positions:
        b = s.board
        with pure_python():
            ksq, checkers, pinned = PURE["_checkers_and_pinned"](b)
            if checkers:
                continue
            ref_noisy = list(noisy_p(b, ksq, pinned))
            ref_free = free_p(b, pinned)
        got_noisy = list(noisy_c(b, ksq, pinned))
        assert got_noisy == ref_noisy, _mismatch("_noisy_moves", s, ref_noisy, got_noisy)
        assert all(x is y for x, y in zip(got_noisy, ref_noisy, strict=True)), b.fen()
        got_free = free_c(b, pinned)
        assert got_free == ref_free, _mismatch("_has_free_move", s, ref_free, got_free)
        if ref_free:
            assert any(b.legal_moves), b.fen()
        checked += 1
    assert checked > len(positions) // 2


def test_see(positions: list[ChessState]) -> None:
    _compiled_or_skip()
    see_c, see_p = chess_mod.see, PURE["see"]
    kinds = dict.fromkeys(("capture", "en passant", "promotion capture"), 0)
    for s in positions:
        b = s.board
        with pure_python():
            moves = PURE["generate_moves"](b)[0]
        for m in moves:
            if not b.is_capture(m):
                continue
            kinds["en passant" if b.is_en_passant(m) else
                  "promotion capture" if m.promotion else "capture"] += 1
            with pure_python():
                ref = see_p(b, m)
            got = see_c(b, m)
            assert got == ref, _mismatch(f"see({b.uci(m)})", s, ref, got)
    assert all(n >= 5 for n in kinds.values()), kinds


def test_evaluation(positions: list[ChessState]) -> None:
    """``evaluate_board`` and the pawn and king terms under it."""
    _compiled_or_skip()
    eval_c, eval_p = chess_mod.evaluate_board, PURE["evaluate_board"]
    terms = [n for n in ("pawn_structure", "king_shield", "_pawn_king_terms") if n in PURE]
    chess_mod._PAWN_CACHE.clear()  # the references' caches: filled by references only
    chess_mod._PAWN_KING_CACHE.clear()
    for s in positions:
        b = s.board
        white, black = b.occupied_co[1], b.occupied_co[0]
        wp, bp = b.pawns & white, b.pawns & black
        wk, bk = (b.kings & white).bit_length() - 1, (b.kings & black).bit_length() - 1
        args = {"pawn_structure": (wp, bp), "king_shield": (wp, bp, wk, bk)}
        for name in terms:
            if name == "_pawn_king_terms":
                s._pk = None
                with pure_python():
                    ref = PURE[name](s)
                s._pk = None
                got = getattr(chess_mod, name)(s)
                assert s._pk == got, b.fen()
            else:
                ref, got = PURE[name](*args[name]), getattr(chess_mod, name)(*args[name])
            assert got == ref, _mismatch(name, s, ref, got)
        for pk_known in (False, True):  # the pawn/king terms computed, then cached
            if not pk_known:
                s._pk = None
            with pure_python():
                ref = eval_p(s)
            if not pk_known:
                s._pk = None
            got = eval_c(s)
            assert got == ref, _mismatch(f"evaluate_board (pk cached: {pk_known})", s, ref, got)
        fresh = ChessState.from_board(b)  # scores from scratch, nothing cached
        with pure_python():
            ref = eval_p(fresh)
        fresh._pk = None
        assert eval_c(fresh) == ref == eval_c(s), b.fen()


def test_game_methods(positions: list[ChessState]) -> None:
    """The compiled twins of ChessGame's methods (a game instance takes them): evaluate,
    quick_evaluate (lazy, then from the evaluation cache), the terminal status,
    terminal_utility, in_check and the noisy moves, against a game with the pure-Python
    methods; with what they cache in the state."""
    _compiled_or_skip()
    methods = [n for n in ("evaluate", "quick_evaluate", "_compute_status", "terminal_utility",
                           "in_check", "iter_noisy_actions") if n in PURE]
    if not methods:
        pytest.skip("no compiled ChessGame methods in this version")
    ref_game, game = _pure_game(), ChessGame()
    for name in methods:
        assert vars(game).get(name) is not None, f"ChessGame() has no compiled {name}"
        assert name not in vars(ref_game)
    for s in positions:
        for player in (0, 1):
            # quick_evaluate: lazy before the evaluation is cached, from the cache after it
            for name in ("quick_evaluate", "evaluate", "quick_evaluate"):
                if name not in methods:
                    continue
                s._pk = None  # each works out the pawn and king terms itself
                with pure_python():
                    ref = PURE[name](ref_game, s, player)
                s._pk = None
                got = getattr(game, name)(s, player)
                assert got == ref, _mismatch(f"{name}(player={player})", s, ref, got)
        for name in ("_compute_status", "terminal_utility", "in_check", "iter_noisy_actions"):
            if name not in methods:
                continue
            for player in (0, 1) if name == "terminal_utility" else (None,):
                extra = () if player is None else (player,)
                for moves_known in (False, True):
                    a, c = _fresh(s), _fresh(s)  # nothing cached: both work it all out
                    if moves_known:  # or with the legal moves in the state
                        with pure_python():
                            chess_mod._state_moves(a)
                        chess_mod._state_moves(c)
                    with pure_python():
                        ref = _state_after(PURE[name](ref_game, a, *extra), a)
                    got = _state_after(getattr(game, name)(c, *extra), c)
                    what = (f"{name}{extra} (moves known: {moves_known}; result, _status, "
                            f"_check, _cp, _moves)")
                    assert got == ref, _mismatch(what, s, ref, got)


def _state_after(value: Any, s: ChessState) -> tuple[Any, ...]:
    """A method's result (an iterator as a list) and what it cached in ``s``."""
    if isinstance(value, Iterator):
        value = list(value)
    return value, s._status, s._check, s._cp, s._moves


def test_king_attacked(positions: list[ChessState]) -> None:
    _compiled_or_skip()
    att_c, att_p = chess_mod._king_attacked, PURE["_king_attacked"]
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
                    ref = att_p(b, sq, o, by, turn)
                    got = att_c(b, sq, o, by, turn)
                    assert got == ref, _mismatch(
                        f"_king_attacked(sq={sq}, occ={o:#x}, them={by:#x}, turn={turn})",
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


def test_result(positions: list[ChessState]) -> None:
    """The compiled make-move (when there is one): the same child, field by field, for every
    legal move of every third position."""
    _compiled_or_skip()
    if "result" not in PURE:
        pytest.skip("no compiled ChessGame.result in this version")
    result_p, result_c = PURE["result"], vars(ChessGame()).get("result")
    assert result_c is not None, "ChessGame() has no compiled result"
    for s in positions[::3]:
        for m in PURE["generate_moves"](s.board)[0]:
            ref = result_p(GAME, s, m)
            got = result_c(s, m)
            assert got.parent is s and ref.parent is s
            assert _child_fields(got) == _child_fields(ref), _mismatch(
                f"result({s.board.uci(m)}) (fields {_BOARD_FIELDS + _STATE_FIELDS})", s,
                _child_fields(ref), _child_fields(got))


def test_every_kernel_is_compared() -> None:
    assert set(PURE) <= COMPARED, f"compare these kernels here too: {set(PURE) - COMPARED}"


def test_compiled_functions_are_in_use() -> None:
    """Each module global and each method of a game instance is a compiled function."""
    _compiled_or_skip()
    from gamesearch.games import _chess_kernels as kernels

    compiled = [v for v in vars(kernels).values() if callable(v)]
    game = ChessGame()
    for name in GLOBAL_KERNELS:
        fn = getattr(chess_mod, name)
        assert any(fn is c for c in compiled), f"chess.{name} is not compiled: {fn!r}"
        assert fn is getattr(kernels, name.lstrip("_")), name
    for name in METHOD_KERNELS:
        fn = vars(game).get(name)
        fn = getattr(fn, "func", fn)  # evaluate: partial(kernels.evaluate, cache)
        assert any(fn is c for c in compiled), f"ChessGame().{name} is not compiled: {fn!r}"


# ----- end to end: the same search either way ------------------------------------------
SEARCH = """\
import sys
from gamesearch.games import chess as chess_mod
from gamesearch.games.chess import ChessGame
from gamesearch.search import Limit, make_searcher
g = ChessGame()
s = g.search_root(g.parse_state(sys.argv[1]))
r = make_searcher(g, "id").search(s, Limit(depth=4))
print(chess_mod.KERNELS, r.nodes, r.value, r.depth, g.format_action(s, r.action), "pv",
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
    _compiled_or_skip()
    compiled = _search_in_child(fen, pure=False)
    python = _search_in_child(fen, pure=True)
    assert compiled[0] == "compiled", compiled
    assert python[0] == "python", python
    assert compiled[1:] == python[1:], (fen, compiled, python)
