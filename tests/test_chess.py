"""Chess: move generation and make-move against python-chess (perft, random play), notation,
draw rules, evaluation, the engine's mates and legality, UCI through ``chess.engine``,
the perft and EPD commands."""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

chess = pytest.importorskip("chess")
import chess.engine  # noqa: E402, F811
import chess.polyglot  # noqa: E402

from gamesearch.errors import IllegalMoveError, InvalidPositionError  # noqa: E402
from gamesearch.games import get_game  # noqa: E402
from gamesearch.games.chess import (  # noqa: E402
    EVAL_LIMIT,
    MATE,
    ChessGame,
    ChessState,
    board_of,
    evaluate_board,
    generate_moves,
    perft,
    see,
)
from gamesearch.interfaces.chess_cli import add_chess_commands  # noqa: E402
from gamesearch.interfaces.uci_engine import (  # noqa: E402
    ChessEngine,
    UCIEngine,
    hash_entries,
    read_epd,
    run_epd,
    uci_score,
)
from gamesearch.search import Limit, make_searcher, search  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "chess"
UCI_COMMAND = [sys.executable, "-c", "from gamesearch.interfaces.uci_engine import main; main()"]
GAME = ChessGame()


def perft_cases(max_depth: int) -> list[tuple[str, str, int, int]]:
    cases = []
    for line in (DATA / "perft.epd").read_text().splitlines():
        board, ops = chess.Board.from_epd(line)
        for key, value in ops.items():
            if key[0] == "D" and key[1:].isdigit() and int(key[1:]) <= max_depth:
                cases.append((str(ops["id"]), board.fen(), int(key[1:]), int(value)))
    return cases


# ----- rules against python-chess --------------------------------------------------------
@pytest.mark.parametrize(("name", "fen", "depth", "expected"), perft_cases(4),
                         ids=lambda v: str(v) if not isinstance(v, str) or " " not in v else "")
def test_perft_reference_counts(name: str, fen: str, depth: int, expected: int) -> None:
    assert perft(fen, depth) == expected


def _check_state(s: ChessState, ref: chess.Board) -> None:
    moves = GAME.actions(s)
    assert len(moves) == len(set(moves))
    assert set(moves) == set(ref.legal_moves), ref.fen()
    assert s.board.fen() == ref.fen()
    assert s.key == chess.polyglot.zobrist_hash(ref)
    fresh = ChessState.from_board(ref)
    assert (s.mg, s.eg, s.phase) == (fresh.mg, fresh.eg, fresh.phase)
    assert GAME.in_check(s) == ref.is_check()
    noisy = set(GAME.noisy_actions(s))
    if ref.is_check():
        assert noisy == set(ref.legal_moves)
    else:
        assert noisy <= {m for m in ref.legal_moves if ref.is_capture(m) or m.promotion}
    over = (ref.is_checkmate() or ref.is_stalemate() or ref.is_insufficient_material()
            or ref.halfmove_clock >= 100 or ref.is_repetition(3))
    assert GAME.is_terminal(s) == over, ref.fen()
    if over:
        expected = (-MATE if ref.turn else MATE) if ref.is_checkmate() else 0.0
        assert GAME.utility(s, 0) == expected
        assert GAME.returns(s) == (expected, -expected)


@pytest.mark.parametrize("seed", range(4))
def test_random_play_agrees_with_python_chess(seed: int) -> None:
    """Legal moves, FEN, Polyglot key, incremental scores and game end, move by move."""
    rng = random.Random(seed)
    for _ in range(6):
        s, ref = GAME.initial_state(), chess.Board()
        for _ in range(500):
            _check_state(s, ref)
            if GAME.is_terminal(s):
                break
            moves = list(GAME.actions(s))
            # prefer captures now and then so that games reach endgames and promotions
            caps = [m for m in moves if ref.is_capture(m)]
            m = rng.choice(caps if caps and rng.random() < 0.3 else moves)
            s = GAME.result(s, m)
            ref.push(m)


def test_random_play_from_perft_positions() -> None:
    rng = random.Random(7)
    for _, fen, depth, _ in perft_cases(1):
        if depth != 1:
            continue
        for _ in range(3):
            s, ref = GAME.parse_state(fen), chess.Board(fen)
            for _ in range(120):
                _check_state(s, ref)
                if GAME.is_terminal(s):
                    break
                m = rng.choice(list(GAME.actions(s)))
                s = GAME.result(s, m)
                ref.push(m)


def test_result_does_not_change_the_state() -> None:
    s = GAME.parse_state("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    fen, key = s.fen(), s.key
    for m in GAME.actions(s):
        GAME.result(s, m)
    assert (s.fen(), s.key) == (fen, key)


def test_move_order_captures_first_mvv_lva() -> None:
    # the queen on d5 can be taken by the pawn and the knight, the pawn on e4 by the knight
    # and the queen: most valuable victim first, then least valuable attacker
    s = GAME.parse_state("4k3/8/8/3q4/2P1p3/2N2Q2/8/4K3 w - - 0 1")
    moves = [m.uci() for m in GAME.actions(s)]
    assert moves[:4] == ["c4d5", "c3d5", "c3e4", "f3e4"]
    assert GAME.order_actions(s, GAME.actions(s)) == GAME.actions(s)
    shuffled = list(reversed(GAME.actions(s)))
    assert list(GAME.order_actions(s, shuffled)) == list(GAME.actions(s))


def test_noisy_actions_drop_losing_captures() -> None:
    # Qxd5 loses the queen to exd5... c4xd5 wins a knight
    s = GAME.parse_state("4k3/8/4p3/3n4/2P5/8/3Q4/4K3 w - - 0 1")
    noisy = {m.uci() for m in GAME.noisy_actions(s)}
    assert "c4d5" in noisy
    assert "d2d5" not in noisy
    b = s.board
    # PxN exd5 Qxd5: a knight; QxN exd5 cxd5: a knight and a pawn for the queen
    assert see(b, chess.Move.from_uci("c4d5")) == 320
    assert see(b, chess.Move.from_uci("d2d5")) == 320 - 900 + 100


def test_noisy_actions_in_check_are_all_evasions() -> None:
    s = GAME.parse_state("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    assert set(GAME.noisy_actions(s)) == set(chess.Board(s.fen()).legal_moves)


# ----- notation --------------------------------------------------------------------------
def test_registered_and_initial_state() -> None:
    g = get_game("chess")
    assert isinstance(g, ChessGame)
    s = g.initial_state()
    assert g.format_state(s) == chess.STARTING_FEN
    assert g.to_move(s) == 0
    assert len(g.actions(s)) == 20


@pytest.mark.parametrize("fen", [c[1] for c in perft_cases(1)])
def test_fen_round_trip(fen: str) -> None:
    s = GAME.parse_state(fen)
    assert GAME.format_state(s) == chess.Board(fen).fen()
    assert GAME.parse_state(GAME.format_state(s)) == s


def test_parse_action_uci_and_san() -> None:
    s = GAME.parse_state("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert GAME.parse_action(s, "e1g1") == chess.Move.from_uci("e1g1")
    assert GAME.parse_action(s, "O-O") == chess.Move.from_uci("e1g1")
    assert GAME.parse_action(s, "e1h1") == chess.Move.from_uci("e1g1")  # king takes rook
    assert GAME.parse_action(s, "Qxf6") == chess.Move.from_uci("f3f6")
    assert GAME.parse_action(s, " d5e6 ") == chess.Move.from_uci("d5e6")
    for m in GAME.actions(s):
        assert GAME.parse_action(s, GAME.format_action(s, m)) is m
        assert GAME.parse_action(s, GAME.format_san(s, m)) is m
    promo = GAME.parse_state("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    assert GAME.parse_action(promo, "e7e8q").promotion == chess.QUEEN
    assert GAME.parse_action(promo, "e8=N").promotion == chess.KNIGHT


@pytest.mark.parametrize(("text", "reason"), [
    ("e2e5", "not legal in this position"),
    ("Zz9", "neither a legal UCI move"),
    ("", "neither a legal UCI move"),
    ("Ke2", "neither a legal UCI move"),
])
def test_parse_action_errors_list_legal_moves(text: str, reason: str) -> None:
    s = GAME.initial_state()
    with pytest.raises(IllegalMoveError) as err:
        GAME.parse_action(s, text)
    assert reason in str(err.value)
    assert "legal moves:" in str(err.value) and "e2e4" in str(err.value)
    assert err.value.legal is not None and len(err.value.legal) == 20


def test_parse_action_ambiguous_san() -> None:
    s = GAME.parse_state("4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1")  # knights b1, d1
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        GAME.parse_action(s, "Nc3")
    assert GAME.parse_action(s, "Nbc3").uci() == "b1c3"


@pytest.mark.parametrize(("text", "problem"), [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "rnbqkbnr/pppppppp"),
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has no king"),
    ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", "pawn stands on the first or eighth rank"),
    ("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "the side not to move is in check"),
    ("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", "castling rights"),
    ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "chess position"),
    ("justoneword", "a FEN has 6 fields"),
])
def test_parse_state_errors_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(InvalidPositionError, match="chess position") as err:
        GAME.parse_state(text)
    assert problem in str(err.value)


def test_parse_state_with_moves_keeps_history() -> None:
    s = GAME.parse_state("startpos moves e2e4 e7e5 Nf3")
    assert s.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert len(s.history()) == 4
    assert board_of(s).move_stack == [chess.Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3")]
    with pytest.raises(InvalidPositionError, match=r"move 2 \('e2e4'\) is illegal"):
        GAME.parse_state("startpos moves e2e4 e2e4")


def test_render() -> None:
    text = GAME.render(GAME.parse_state("startpos moves f2f3 e7e5 g2g4 d8h4"))
    assert "r n b . k b n r" in text
    assert "game over: checkmate" in text
    check = GAME.parse_state("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    assert "White to move (check)" in GAME.render(check)


# ----- game end ----------------------------------------------------------------------------
@pytest.mark.parametrize(("fen", "why", "white_utility"), [
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "checkmate", -MATE),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate", 0.0),
    ("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", "insufficient material", 0.0),
    ("8/8/4k3/8/8/3NK3/8/8 b - - 0 1", "insufficient material", 0.0),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 100 80", "fifty-move rule", 0.0),
])
def test_terminal_positions(fen: str, why: str, white_utility: float) -> None:
    s = GAME.parse_state(fen)
    assert GAME.is_terminal(s)
    assert GAME.termination(s) == why
    assert GAME.utility(s, 0) == white_utility
    assert GAME.terminal_utility(s, 1) == -white_utility


def test_mate_on_the_hundredth_half_move_is_mate() -> None:
    s = GAME.parse_state("7k/8/6K1/8/8/8/8/R7 w - - 99 80")
    mated = GAME.result(s, chess.Move.from_uci("a1a8"))
    assert mated.board.halfmove_clock == 100
    assert GAME.termination(mated) == "checkmate"
    assert GAME.utility(mated, 0) == MATE


def test_bishops_can_mate_is_not_a_draw() -> None:
    assert not GAME.is_terminal(GAME.parse_state("8/8/4k3/8/8/2BBK3/8/8 w - - 0 1"))


def test_threefold_repetition_ends_the_game() -> None:
    shuffle = "g1f3 g8f6 f3g1 f6g8"
    s = GAME.parse_state(f"startpos moves {shuffle}")
    assert not GAME.is_terminal(s)  # the start position twice
    s = GAME.parse_state(f"startpos moves {shuffle} {shuffle}")
    assert GAME.termination(s) == "repetition"  # three times
    assert GAME.utility(s, 0) == 0.0


def test_repetition_after_the_search_root_is_a_draw_at_once() -> None:
    s = GAME.parse_state("startpos moves e2e4 e7e5")
    root = GAME.search_start(s)
    s2 = root
    for u in ("g1f3", "g8f6", "f3g1", "f6g8"):
        s2 = GAME.result(s2, chess.Move.from_uci(u))
    assert GAME.termination(s2) == "repetition"  # the root position again
    plain = s
    for u in ("g1f3", "g8f6", "f3g1", "f6g8"):
        plain = GAME.result(plain, chess.Move.from_uci(u))
    assert not GAME.is_terminal(plain)  # without a root: needs three


def test_search_start_of_a_claimable_draw_plays_on() -> None:
    s = GAME.parse_state("4k3/8/8/8/8/8/8/R3K3 w - - 100 80")
    assert GAME.is_terminal(s)
    root = GAME.search_start(s)
    assert not GAME.is_terminal(root)
    assert search(GAME, root, "id", Limit(depth=2)).action in GAME.actions(s)
    # the search driver marks the root itself, whatever the front end
    assert search(GAME, s, "id", Limit(depth=2)).action in GAME.actions(s)


#: White, two rooks and three pawns down, has a perpetual check: Qe8+ Kh7 Qh5+ Kg8 Qe8+
#: repeats the position after the first check at ply 5, a draw at once under the engine's
#: rule (the first repetition after the root); under threefold repetition alone a depth-3
#: search does not see it and plays Qe6 (about -1 pawn).
PERPETUAL = "6k1/ppp3p1/8/8/8/8/rr2QPPP/6K1 w - - 0 1"


def test_every_front_end_searches_under_the_uci_engines_repetition_rule() -> None:
    from gamesearch.agents import make_agent
    from gamesearch.interfaces.analysis import analyze

    state = GAME.parse_state(PERPETUAL)
    for depth in (3, 4):
        limit = Limit(depth=depth)
        uci = ChessEngine().think(state, limit)
        assert uci is not None and (uci.move, uci.value) == ("e2e8", 0.0)
        # analyze (the command line's and the web app's call) and an agent (the arena's,
        # the web app's play) see the same draw
        data = analyze(GAME, state, algorithm="id", limit=limit)
        assert (data["move"], data["value"], data["nodes"]) == ("e2e8", 0, uci.nodes)
        agent = make_agent(GAME, f"id:depth={depth}")
        assert agent.choose(GAME, state).uci() == "e2e8"


# ----- evaluation ----------------------------------------------------------------------------
def test_evaluation_is_symmetric_and_bounded() -> None:
    rng = random.Random(3)
    for _ in range(30):
        s, ref = GAME.initial_state(), chess.Board()
        for _ in range(rng.randrange(1, 60)):
            if GAME.is_terminal(s):
                break
            m = rng.choice(list(GAME.actions(s)))
            s = GAME.result(s, m)
            ref.push(m)
        if GAME.is_terminal(s):
            continue
        mirrored = ChessState.from_board(ref.mirror())
        v = GAME.evaluate(s, GAME.to_move(s))
        assert v == GAME.evaluate(mirrored, GAME.to_move(mirrored))
        assert v == -GAME.evaluate(s, 1 - GAME.to_move(s))
        assert -EVAL_LIMIT < v < EVAL_LIMIT
        assert evaluate_board(s) == -evaluate_board(mirrored)


def noisy_by_see(b: chess.Board, m: chess.Move) -> bool:
    """The quiescence filter written plainly: promotions, pawn captures, captures of a
    piece worth at least the capturer (minor for minor), else a static exchange >= 0."""
    frm, to = chess.BB_SQUARES[m.from_square], chess.BB_SQUARES[m.to_square]
    minors = b.bishops | b.knights
    return bool(m.promotion or b.pawns & frm or b.queens & to
                or (b.rooks & to and not b.queens & frm) or (minors & to and minors & frm)
                or see(b, m) >= 0)


def test_incremental_evaluation_terms_match_a_fresh_state() -> None:
    # ``result`` passes the pawn/king terms on and ``quick_evaluate`` brackets the full
    # evaluation: along random games both agree with a state built from scratch.
    rng = random.Random(7)
    for _ in range(30):
        s = GAME.initial_state()
        for _ in range(80):
            if GAME.is_terminal(s):
                break
            fresh = ChessState.from_board(s.board)
            assert evaluate_board(s) == evaluate_board(fresh)
            q, margin = ChessGame().quick_evaluate(s, s.player)
            assert abs(GAME.evaluate(fresh, fresh.player) - q) <= margin
            noisy = list(GAME.iter_noisy_actions(s))
            assert noisy == list(GAME.noisy_actions(fresh))
            if not GAME.in_check(s):  # the pawn-defence shortcut keeps what SEE keeps
                assert noisy == [m for m in generate_moves(s.board, True)[0]
                                 if noisy_by_see(s.board, m)]
            s = GAME.result(s, rng.choice(list(GAME.actions(s))))


def test_evaluation_prefers_material() -> None:
    up_a_knight = GAME.parse_state("rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert GAME.evaluate(up_a_knight, 0) > 250
    assert GAME.evaluate(up_a_knight, 1) < -250


# ----- the engine ----------------------------------------------------------------------------
@pytest.mark.parametrize(("fen", "best", "plies"), [
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1),
    ("3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "d8d1", 1),
    ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "g3g6", 3),  # WAC.001
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6", 3),
])
def test_engine_finds_mate(fen: str, best: str, plies: int) -> None:
    state = GAME.search_start(GAME.parse_state(fen))
    r = search(GAME, state, "id", Limit(depth=4))
    assert r.action.uci() == best
    assert r.value == MATE - 100 * plies
    assert uci_score(r.value, MATE) == f"mate {(plies + 1) // 2}"


def test_engine_returns_legal_moves_at_small_budgets() -> None:
    lines = read_epd(DATA / "wac.epd")[:40] + read_epd(DATA / "bk.epd")
    for _, line in lines:
        board, _ = chess.Board.from_epd(line)
        state = ChessState.from_board(board)
        for nodes in (1, 50, 400):
            r = search(GAME, GAME.search_start(state), "id", Limit(nodes=nodes))
            assert r.action in board.legal_moves, (board.fen(), nodes)


def test_late_move_reductions_on_for_chess_only() -> None:
    assert make_searcher(GAME, "id").lmr
    assert not make_searcher(GAME, "id", lmr=False).lmr
    assert not make_searcher(GAME, "negamax").lmr
    assert not make_searcher(get_game("connect4"), "id").lmr
    assert not make_searcher(get_game("tictactoe"), "id").lmr
    # The textbook searchers reduce nothing on chess: every leaf they evaluate lies at the
    # full depth (a state's ply counts from the search root), while a negamax with
    # late-move reductions (and nothing else) evaluates some leaves shallower.
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    for algorithm, options, reduces in (
        ("alphabeta", {}, False),
        ("negamax", {"quiescence": False}, False),
        ("negamax", {"quiescence": False, "pvs": True, "lmr": True}, True),
    ):
        plies = _leaf_plies(fen, algorithm, options, depth=4)
        assert max(plies) == 4, (algorithm, options)
        assert (min(plies) < 4) == reduces, (algorithm, options, min(plies))


def _leaf_plies(fen: str, algorithm: str, options: dict[str, Any], depth: int) -> list[int]:
    """The plies below the root of the positions ``algorithm`` evaluates in a search of
    ``fen`` to ``depth``."""
    game = ChessGame()
    plies: list[int] = []
    evaluate = game.evaluate

    def recording(state: ChessState, player: int) -> float:
        plies.append(state.ply)
        return evaluate(state, player)

    game.evaluate = recording
    make_searcher(game, algorithm, **options).search(
        game.search_start(game.parse_state(fen)), Limit(depth=depth))
    return plies


#: WAC.001-style mates an engine finds at depth 5 with every pruning on: (FEN, the move)
QUICK_MATES = [
    ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "g3g6"),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6"),
]


def test_late_move_reductions_reduce_and_keep_the_tactics() -> None:
    # WAC.001-style mates and a quiet middlegame: with reductions the engine still finds the
    # mates at the same depth, and it does reduce (and sometimes re-search) late moves.
    reduced = 0
    for fen, best in QUICK_MATES:
        state = GAME.search_start(GAME.parse_state(fen))
        for lmr in (False, True):
            s = make_searcher(GAME, "id", lmr=lmr)
            r = s.search(state, Limit(depth=5))
            assert r.action.uci() == best
            assert r.value > MATE - 1000
    s = _fewer_nodes_without(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "lmr")
    reduced += s.reductions
    # Some reduced moves beat alpha and are searched again at full depth (none would be if
    # the re-search were lost), but not all (if every one were, reducing would only cost).
    assert reduced > 0 and 0 < s.re_searches < s.reductions


def _fewer_nodes_without(fen: str, option: str) -> Any:
    """The engine's depth-5 search of ``fen`` (returned), checked to need fewer nodes than
    with ``option`` off and to choose a legal move."""
    state = GAME.search_start(GAME.parse_state(fen))
    plain = make_searcher(GAME, "id", **{option: False}).search(state, Limit(depth=5))
    s = make_searcher(GAME, "id")
    r = s.search(state, Limit(depth=5))
    assert r.nodes < plain.nodes
    assert r.action in board_of(state).legal_moves
    return s


def test_futility_pruning_prunes_and_keeps_the_tactics() -> None:
    assert make_searcher(GAME, "id").futility == GAME.engine_settings().futility_margins
    assert make_searcher(GAME, "id", futility=False).futility is None
    assert make_searcher(get_game("connect4"), "id").futility is None
    # The mates are still found at the same depth with futility pruning on.
    for fen, best in QUICK_MATES:
        r = make_searcher(GAME, "id").search(GAME.search_start(GAME.parse_state(fen)),
                                             Limit(depth=5))
        assert r.action.uci() == best
        assert r.value > MATE - 1000
    # A position where one side is a rook up: quiet moves far below alpha are pruned and
    # nodes far above beta end at once, and the search needs fewer nodes for its depth.
    s = _fewer_nodes_without(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/1NBQK2R w Kkq - 4 4", "futility")
    assert s.futility_prunes > 0 and s.reverse_futility_prunes > 0


def test_is_noisy_is_capture_or_promotion() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        state = GAME.initial_state()
        for _ in range(rng.randrange(10, 80)):
            moves = list(GAME.actions(state))
            if not moves:
                break
            board = board_of(state)
            for m in moves:
                assert GAME.is_noisy(state, m) == (
                    board.is_capture(m) or m.promotion is not None), (board.fen(), m)
                checked += 1
            state = GAME.result(state, rng.choice(moves))
    assert checked > 10_000


def test_soft_time_limit_starts_no_iteration_after_its_share() -> None:
    state = GAME.search_start(GAME.initial_state())
    # a tiny soft time: any time passed is past it, so only depth 1 is searched
    r = make_searcher(GAME, "id").search(state, Limit(time=30.0, soft_time=1e-9))
    assert r.depth == 1 and r.action in board_of(state).legal_moves and not r.completed
    assert make_searcher(GAME, "id").soft_share == 0.5  # chess asks for it
    assert make_searcher(get_game("connect4"), "id").soft_share is None
    # a depth limit alone has no clock: the soft limit does not apply
    r = make_searcher(GAME, "id", soft_share=1e-9).search(state, Limit(depth=3))
    assert r.depth == 3


# ----- arena openings ----------------------------------------------------------------------
def test_chess_matches_default_to_the_balanced_openings(tmp_path: Path) -> None:
    import chess.pgn

    from gamesearch.arena import default_openings
    from gamesearch.interfaces.cli import main

    book = default_openings(GAME)
    assert len(book) == 50 and len({o.moves for o in book}) == 50
    assert all(4 <= len(o.moves) <= 8 for o in book)
    pgn = tmp_path / "games.pgn"
    out = io.StringIO()
    code = main(["match", "chess", "random:seed=1", "random:seed=2", "--games", "4",
                 "--max-plies", "4", "--quiet", "--export-pgn", str(pgn)], out)
    assert code == 0, out.getvalue()
    with pgn.open(encoding="utf-8") as handle:
        games = [chess.pgn.read_game(handle) for _ in range(4)]
    starts = [[m.uci() for m in g.mainline_moves()][:len(book[0].moves)] for g in games if g]
    # games 0 and 1 play the first line (colours swapped), games 2 and 3 the second
    assert starts[0] == starts[1] == list(book[0].moves)
    assert starts[2][:len(book[1].moves)] == starts[3][:len(book[1].moves)] == list(
        book[1].moves)
    assert games[0] and games[1] and (
        games[0].headers["White"] == games[1].headers["Black"])


# ----- UCI -------------------------------------------------------------------------------------
def converse(*lines: str, wait: float = 0.0) -> list[str]:
    """Feed lines to an in-process engine; returns what it wrote."""
    out = io.StringIO()
    engine = UCIEngine(out)
    for line in lines:
        engine.handle(line)
        if line.startswith("go") and "infinite" not in line and engine._thread is not None:
            engine._thread.join(30)
    time.sleep(wait)
    engine.stop_search()
    return out.getvalue().splitlines()


def test_uci_handshake_and_bad_input_in_process() -> None:
    out = converse(
        "uci", "isready", "frobnicate", "position fen not a fen",
        "position startpos moves e2e4 e2e4",
        "setoption name Hash value lots", "setoption name Colour value red", "go depth x",
        "go depth 2", "",
    )
    assert out[:2] == ["id name gamesearch 0.1.0", "id author the gamesearch authors"]
    assert "uciok" in out and "readyok" in out
    strings = [line for line in out if line.startswith("info string")]
    assert len(strings) == 6, strings
    assert any("illegal" in s and "e2e4" in s for s in strings)
    bestmoves = [line for line in out if line.startswith("bestmove")]
    assert len(bestmoves) == 2  # every go answered: "go depth x" at once, "go depth 2"
    # the position after e2e4 (the illegal second e2e4 ignored): Black moves
    board = chess.Board()
    board.push_uci("e2e4")
    for line in bestmoves:
        assert chess.Move.from_uci(line.split()[1]) in board.legal_moves


def test_uci_no_legal_move_answers_0000() -> None:
    out = converse("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go depth 3")
    assert out[-1] == "bestmove 0000"


@pytest.mark.skipif(GAME.compiled_search() is None, reason="the compiled twin is not built")
def test_uci_hash_is_the_tables_memory() -> None:
    """``Hash`` MiB size the table of the search that runs: the compiled twin's table (slots
    of 32 bytes) fills at most that memory and more than half of it; the Python search's
    dict is sized at ~200 bytes an entry."""
    for mb in (1, 16, 64):
        engine = ChessEngine(mb)
        assert engine.searcher.compiled
        twin_table = engine.searcher._twin.table
        assert (mb << 20) // 2 < twin_table.nbytes <= mb << 20, (mb, twin_table.nbytes)
        assert engine.searcher.table is not None
        assert engine.searcher.table.size == twin_table.size > hash_entries(mb)
    plain = ChessEngine(16, compiled=False)
    assert not plain.searcher.compiled
    assert plain.searcher.table is not None and plain.searcher.table.size == hash_entries(16)
    engine = ChessEngine(1)
    engine.set_hash(64)
    assert engine.searcher._twin.table.nbytes == 64 << 20


def test_uci_info_lines() -> None:
    out = converse("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go depth 3")
    infos = [line.split() for line in out if line.startswith("info depth")]
    assert infos
    last = infos[-1]
    for word in ("depth", "seldepth", "score", "nodes", "nps", "time", "pv"):
        assert word in last
    assert last[last.index("score") + 1: last.index("score") + 3] == ["mate", "1"]
    assert out[-1] == "bestmove d1d8"


def test_uci_clock_of_the_wrong_side_still_answers() -> None:
    out = converse("position startpos", "go btime 300 binc 0")
    assert any("no clock for the side to move" in line for line in out)
    assert out[-1].startswith("bestmove ") and out[-1] != "bestmove 0000"


def test_uci_score_text() -> None:
    assert uci_score(35.4, MATE) == "cp 35"
    assert uci_score(MATE - 100, MATE) == "mate 1"
    assert uci_score(MATE - 300, MATE) == "mate 2"
    assert uci_score(-(MATE - 200), MATE) == "mate -1"
    assert uci_score(-(MATE - 400), MATE) == "mate -2"


def test_uci_through_python_chess_engine() -> None:
    with chess.engine.SimpleEngine.popen_uci(UCI_COMMAND) as engine:
        assert engine.id["name"].startswith("gamesearch")
        assert "Hash" in engine.options
        engine.configure({"Hash": 8})
        board = chess.Board()
        r = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
        assert r.move in board.legal_moves
        assert r.info["depth"] == 3 and "score" in r.info and r.info["pv"]
        # position with moves
        for uci in ("e2e4", "e7e5", "g1f3", "b8c6"):
            board.push_uci(uci)
        start = time.perf_counter()
        r = engine.play(board, chess.engine.Limit(time=0.5))
        assert time.perf_counter() - start < 1.5
        assert r.move in board.legal_moves
        # a clock
        r = engine.play(board, chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0))
        assert r.move in board.legal_moves
        r = engine.play(board, chess.engine.Limit(nodes=200))
        assert r.move in board.legal_moves
        # mate score
        info = engine.analyse(chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
                              chess.engine.Limit(depth=3))
        assert info["score"].white() == chess.engine.Mate(1)
        # infinite + stop
        with engine.analysis(chess.Board()) as analysis:
            time.sleep(0.3)
            analysis.stop()
            assert analysis.wait().move in chess.Board().legal_moves
        # malformed input: the engine survives and keeps answering
        for line in ("position fen garbage", "go nodes", "go depth -3x", "frobnicate",
                     "position startpos moves e2e4 e7e5 e1e8", "setoption name Hash value x"):
            engine.protocol.send_line(line)
        engine.ping()
        r = engine.play(chess.Board(), chess.engine.Limit(depth=2))
        assert r.move in chess.Board().legal_moves


def test_uci_plays_a_short_game_against_itself() -> None:
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(UCI_COMMAND) as engine:
        while not board.is_game_over() and board.ply() < 16:
            r = engine.play(board, chess.engine.Limit(nodes=300))
            assert r.move in board.legal_moves
            board.push(r.move)


# ----- commands ----------------------------------------------------------------------------------
def run_command(*argv: str) -> str:
    parser = argparse.ArgumentParser()
    add_chess_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    out = io.StringIO()
    assert args.func(args, out) == 0
    return out.getvalue()


def perft_command(*argv: str) -> str:
    """``gamesearch perft ...`` (the command every game with a perft capability shares)."""
    from gamesearch.interfaces.cli import main

    out = io.StringIO()
    assert main(["perft", *argv], out) == 0
    return out.getvalue()


def test_perft_command() -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    text = perft_command("chess", "--fen", fen, "--depth", "2")
    assert "perft 2: 2039 " in text and "convention perft: leaves exactly D plies" in text
    data = json.loads(perft_command("chess", "--depth", "3", "--divide", "--json"))
    assert data["nodes"] == 8902 and len(data["divide"]) == 20


def test_perft_command_rejects_other_games_and_bad_fen(
        capsys: pytest.CaptureFixture[str]) -> None:
    from gamesearch.interfaces.cli import main

    assert main(["perft", "connect4", "--depth", "2"], io.StringIO()) == 2
    assert "connect4 has no perft; games with one: chess" in capsys.readouterr().err
    assert main(["perft", "chess", "--fen", "8/8/8 w", "--depth", "1"], io.StringIO()) == 2
    assert "8/8/8 w" in capsys.readouterr().err


def test_epd_command(tmp_path: Path) -> None:
    lines = (DATA / "wac.epd").read_text().splitlines()[:2]
    lines.append('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - am Rd8; id "avoid";')
    path = tmp_path / "suite.epd"
    path.write_text("\n".join(lines) + "\n")
    text = run_command("epd", str(path), "--time", "0.2")
    assert "WAC.001" in text
    assert text.strip().splitlines()[-1].startswith("solved ")
    records = [json.loads(x) for x in run_command("epd", str(path), "--nodes", "20000", "--json")
               .splitlines()]
    assert records[-1]["total"] == 3
    assert records[0]["move"] == "g3g6" and records[0]["solved"]
    assert records[2]["am"] == ["Rd8#"] and not records[2]["solved"]


def test_run_epd_reports_bad_lines() -> None:
    with pytest.raises(InvalidPositionError, match="EPD line 3"):
        run_epd([(3, "not an epd at all")], 0.1)
