"""Othello: rules against an independent square-by-square move generator, passes and the end
of the game, notation and bad input, perft in both conventions of ``tests/data/othello``,
the evaluation, and the exact solver on the FFO suite (the Python path of the generic
solver; the compiled path against it node for node is ``test_othello_compiled.py``)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from gamesearch.errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from gamesearch.games import get_game
from gamesearch.games.othello import compiled
from gamesearch.games.othello.rules import (
    PASS,
    PASS_BIT,
    START_BOARD,
    OState,
    Othello,
    final_score,
    flips,
    legal_moves,
    order_score,
    perft,
)
from gamesearch.interfaces.cli import main
from gamesearch.search import Limit, make_searcher
from gamesearch.search.solve import solve

DATA = Path(__file__).resolve().parent / "data" / "othello"
GAME = Othello()
START = START_BOARD + " X"
#: Positions met in random games: the side to move has no move, the other has.
BLACK_PASSES = "OOOOO-X-XOOOXXX-XOOOXXX-XOXOXOX-XXXOXXOXXOOOXOXOXXOOOXOO-OOOOOOO X"
WHITE_PASSES = "XXXXXXOXOOXXOOXXOOXOXXXXOOOXXXXXOOXXXOXXOOOOXXXXOO-OOXXXO----OXX O"

needs_numba = pytest.mark.skipif(
    not compiled.available(),
    reason="NUMBA IS NOT INSTALLED: the compiled Othello perft is NOT TESTED")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def ffo(name: str) -> dict[int, dict[str, Any]]:
    """``ffo.txt``/``ffo_1_39.txt`` by id: position, score, best moves, every move's score."""
    out = {}
    for line in (DATA / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            f = line.split()
            out[int(f[0])] = {
                "empties": int(f[1]), "position": f"{f[2]} {f[3]}", "score": int(f[4]),
                "best": set(f[5].lower().split(",")),
                "scores": {m.lower(): int(v) for m, v in
                           (x.split(":") for x in f[6].split(","))},
            }
    return out


FFO_1_39 = ffo("ffo_1_39.txt")
FFO_40_59 = ffo("ffo.txt")


# ----- an independent move generator: square by square, direction by direction ----------
def naive_flips(mine: set[int], theirs: set[int], sq: int) -> set[int]:
    if sq in mine or sq in theirs:
        return set()
    out: set[int] = set()
    r0, c0 = divmod(sq, 8)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            run_: list[int] = []
            r, c = r0 + dr, c0 + dc
            while 0 <= r < 8 and 0 <= c < 8 and 8 * r + c in theirs:
                run_.append(8 * r + c)
                r, c = r + dr, c + dc
            if run_ and 0 <= r < 8 and 0 <= c < 8 and 8 * r + c in mine:
                out.update(run_)
    return out


def bits(x: int) -> set[int]:
    return {i for i in range(64) if x >> i & 1}


def random_states(n: int, seed: int) -> list[OState]:
    """``n`` positions from random games (every ply of a few games)."""
    rng = random.Random(seed)
    out: list[OState] = []
    while len(out) < n:
        s = GAME.initial_state()
        while s[3] and len(out) < n:
            out.append(s)
            s = GAME.result(s, rng.choice(GAME.actions(s)))
        out.append(s)  # the end of the game too
    return out[:n]


# ----- rules ---------------------------------------------------------------------------
def test_start_position() -> None:
    s = GAME.initial_state()
    assert GAME.format_state(s) == START
    assert GAME.parse_state(START) == s
    assert GAME.to_move(s) == 0 and not GAME.is_terminal(s)
    assert [GAME.format_action(s, a) for a in GAME.actions(s)] == ["d3", "c4", "f5", "e6"]
    after = GAME.play(s, "D3")  # upper case too
    assert GAME.format_state(after) == (
        "-" * 19 + "X" + "-" * 7 + "XX------XO" + "-" * 27 + " O")
    assert get_game("othello").format_state(get_game("othello").initial_state()) == START


def test_moves_and_flips_agree_with_the_square_by_square_generator() -> None:
    for s in random_states(600, seed=1):
        p, o = s[0], s[1]
        mine, theirs = bits(p), bits(o)
        legal = {sq for sq in range(64) if naive_flips(mine, theirs, sq)}
        assert bits(legal_moves(p, o)) == legal
        for sq in legal:
            assert bits(flips(p, o, sq)) == naive_flips(mine, theirs, sq)


def test_moves_at_the_edges_do_not_wrap() -> None:
    # A disc on column h next to an opposing one on column a of the next rows (and the
    # mirror image): a shift that wrapped from one row to the next would find moves there.
    centre = {27: "O", 28: "X", 35: "X", 36: "O"}
    for mine, theirs in ((7, 8), (23, 32), (15, 22), (56, 55), (40, 31), (24, 17)):
        cells = ["-"] * 64
        for sq, c in centre.items():
            cells[sq] = c
        cells[mine], cells[theirs] = "X", "O"
        s = GAME.parse_state("".join(cells) + " X")
        m, t = bits(s[0]), bits(s[1])
        assert bits(s[3]) == {sq for sq in range(64) if naive_flips(m, t, sq)}, (mine, theirs)


@pytest.mark.parametrize(("text", "side"), [(BLACK_PASSES, 0), (WHITE_PASSES, 1)])
def test_a_player_without_a_move_passes(text: str, side: int) -> None:
    s = GAME.parse_state(text)
    assert GAME.to_move(s) == side and s[3] == PASS_BIT and not GAME.is_terminal(s)
    assert GAME.actions(s) == [PASS] and GAME.legal_action_strings(s) == ["pass"]
    after = GAME.play(s, "PASS")
    assert GAME.to_move(after) == 1 - side and after[:2] == (s[1], s[0])
    assert GAME.actions(after) and PASS not in GAME.actions(after)
    with pytest.raises(IllegalMoveError, match="must pass"):
        GAME.play(s, "a1")


def test_game_end_and_utility() -> None:
    # black only, with empty squares: nobody can move, black takes the empties: +64
    over = GAME.parse_state("X" * 27 + "XX------XX" + "-" * 27 + " O")
    assert GAME.is_terminal(over) and GAME.actions(over) == []
    assert GAME.utility(over, 0) == 64 and GAME.utility(over, 1) == -64
    assert GAME.returns(over) == (64.0, -64.0)
    assert GAME.terminal_utility(over, 1) == -64
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.play(over, "a1")
    # a full board, 40-24: +16 for black; a draw with empty squares is 0
    assert final_score((1 << 40) - 1, ((1 << 64) - 1) ^ ((1 << 40) - 1)) == 16
    assert final_score(0b1111, 0b11110000) == 0
    assert final_score(0b111, 0b1) == 62  # 3-1 with 60 empty: 63-1
    for s in random_states(400, seed=2):
        if GAME.is_terminal(s):
            u = GAME.utility(s, 0)
            assert u % 2 == 0 and -64 <= u <= 64 and u == -GAME.utility(s, 1)
        else:
            assert GAME.terminal_utility(s, 0) is None


def test_notation_round_trips() -> None:
    for s in random_states(300, seed=3):
        text = GAME.format_state(s)
        assert GAME.parse_state(text) == s
        assert GAME.parse_state(text.lower().replace("-", ".")) == s
        for a in GAME.actions(s):
            name = GAME.format_action(s, a)
            assert GAME.parse_action(s, name) == a == GAME.parse_action(s, f" {name.upper()} ")
    assert "X to move" in GAME.render(GAME.initial_state())


@pytest.mark.parametrize(("text", "message"), [
    ("", "expected the board and the side"),
    (START_BOARD, "expected the board and the side"),
    (START_BOARD[:-1] + " X", "63 characters, not 64"),
    (START_BOARD + "- X", "65 characters"),
    (START_BOARD[:-1] + "# X", "bad board character"),
    (START_BOARD + " B", "side to move 'B'"),
    (START_BOARD + " X O", "expected the board and the side"),
    ("-" * 64 + " X", "d4, e4, d5 and e5 are never empty"),
])
def test_bad_positions_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        GAME.parse_state(text)


@pytest.mark.parametrize(("move", "reason"), [
    ("d4", "the square is taken"),
    ("a1", "turns no disc over"),
    ("pass", "only legal without a move"),
    ("i9", "a square a1-h8 or pass"),
    ("d", "a square a1-h8 or pass"),
])
def test_illegal_moves_name_the_reason_and_the_legal_moves(move: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError, match=reason) as info:
        GAME.play(GAME.initial_state(), move)
    assert "legal moves: d3 c4 f5 e6" in str(info.value)


# ----- perft -----------------------------------------------------------------------------
def perft_rows() -> list[tuple[int, int, int]]:
    rows = []
    for line in (DATA / "perft.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            f = line.split()
            rows.append((int(f[0]), int(f[1]), int(f[2])))
    return rows


PERFT = perft_rows()


@pytest.mark.parametrize(("depth", "count", "full"), [r for r in PERFT if r[0] <= 8])
def test_perft_python(depth: int, count: int, full: int) -> None:
    s = GAME.initial_state()
    assert perft(s, depth) == count
    assert perft(s, depth, full_depth=True) == full


def test_perft_python_depth_9() -> None:
    assert perft(GAME.initial_state(), 9) == PERFT[8][1] == 3005288


@needs_numba
@pytest.mark.parametrize(("depth", "count", "full"), [r for r in PERFT if r[0] <= 10])
def test_perft_compiled(depth: int, count: int, full: int) -> None:
    s = GAME.initial_state()
    count_perft = GAME.perft().count
    assert count_perft(s, depth, None) == compiled.perft(s, depth) == count
    assert count_perft(s, depth, "full_depth") == compiled.perft(s, depth, True) == full


@needs_numba
def test_perft_conventions_differ_where_games_end_early() -> None:
    # FFO #20 (6 empties) and positions where one side passes: games end before depth 10
    for text in (FFO_1_39[20]["position"], WHITE_PASSES, BLACK_PASSES):
        s = GAME.parse_state(text)
        ended = 0
        for depth in range(10):
            a, b = perft(s, depth), perft(s, depth, full_depth=True)
            assert (a, b) == (compiled.perft(s, depth), compiled.perft(s, depth, True))
            assert a >= b
            ended += a - b
        assert ended > 0, text


def test_perft_command_says_its_convention() -> None:
    code, text = run("perft", "othello", "--depth", "4")
    assert code == 0 and "perft 4: 244 " in text and "convention perft: " in text
    code, text = run("perft", "othello", "--depth", "3", "--convention", "full_depth",
                     "--divide", "--json")
    data = json.loads(text)
    assert data["nodes"] == 56 and data["convention"] == "full_depth"
    assert data["divide"] == {"d3": 14, "c4": 14, "f5": 14, "e6": 14}
    code, text = run("perft", "othello", "--depth", "2", "--position", WHITE_PASSES)
    assert code == 0 and "perft 2: " in text
    assert run("perft", "othello", "--depth", "2", "--convention", "oeis")[0] == 2
    with pytest.raises(InvalidLimitError):
        GAME.perft().count(GAME.initial_state(), 2, "oeis")


# ----- evaluation ------------------------------------------------------------------------
def test_evaluation_is_inside_the_utilities_and_zero_sum() -> None:
    assert GAME.evaluate(GAME.initial_state(), 0) == 0.0
    for s in random_states(300, seed=4):
        if not GAME.is_terminal(s):
            v = GAME.evaluate(s, 0)
            assert -64 < v < 64 and v == -GAME.evaluate(s, 1) and v == int(v)


def test_evaluation_prefers_corners_and_mobility() -> None:
    # the same position, once with black's disc on a1 (a corner), once on b2 (beside it)
    corner = GAME.parse_state("X" + "-" * 26 + "OX------XO" + "-" * 27 + " X")
    x_square = GAME.parse_state("-" * 9 + "X" + "-" * 17 + "OX------XO" + "-" * 27 + " X")
    assert GAME.evaluate(corner, 0) > 0 > GAME.evaluate(x_square, 0)


def test_a_depth_limited_search_plays_legal_moves() -> None:
    s = GAME.initial_state()
    for _ in range(6):
        r = make_searcher(GAME, "id").search(s, Limit(depth=3))
        assert r.action in GAME.actions(s) and -64 < r.value < 64
        s = GAME.result(s, r.action)


# ----- the exact solver (the generic one, on the game's hooks) ------------------------------
def test_order_actions_is_a_permutation_best_first() -> None:
    for s in random_states(200, seed=5):
        if GAME.is_terminal(s):
            continue
        moves = GAME.actions(s)
        ordered = GAME.order_actions(s, moves)
        assert sorted(ordered) == sorted(moves)
        if moves != [PASS]:
            scores = [order_score(s[0], s[1], a) for a in ordered]
            assert scores == sorted(scores, reverse=True)
    assert GAME.key(GAME.initial_state()) == GAME.initial_state()


#: A seeded sample of FFO #1-#19 (14-16 empties) small enough for the Python solver (a few
#: seconds each), and #20 (6 empties).
PYTHON_SAMPLE = sorted([*random.Random(15).sample([1, 2, 5, 7, 13, 14, 17], 3), 20])


@pytest.mark.parametrize("number", PYTHON_SAMPLE)
def test_python_solver_on_ffo(number: int) -> None:
    case = FFO_1_39[number]
    s = GAME.parse_state(case["position"])
    r = solve(GAME, s)
    assert r.value == case["score"], number
    assert GAME.format_action(s, r.action) in case["best"]
    assert {GAME.format_action(s, a) for a in r.best_actions} == case["best"]


def test_every_move_scores_like_the_suite() -> None:
    # FFO #20: every legal move's exact score, as listed in the file
    case = FFO_1_39[20]
    s = GAME.parse_state(case["position"])
    for a in GAME.actions(s):
        child = GAME.result(s, a)
        value = (GAME.utility(child, GAME.to_move(child)) if GAME.is_terminal(child)
                 else solve(GAME, child).value)
        assert -value == case["scores"][GAME.format_action(s, a)]


def test_solve_command_json() -> None:
    case = FFO_1_39[20]
    code, text = run("solve", "othello", "--position", case["position"], "--json", "--pure")
    data = json.loads(text)
    assert code == 0 and data["value"] == case["score"] and data["move"] in case["best"]
    if compiled.available():
        code, text = run("solve", "othello", "--position", case["position"], "--json")
        fast = json.loads(text)
        # the compiled solver (Edax's techniques) agrees on the score and searches fewer
        # positions than the plain path (which also counts full boards)
        assert fast["value"] == data["value"] and fast["move"] in case["best"]
        assert 0 < fast["nodes"] < data["nodes"]
    assert run("solve", "othello", "--position", START_BOARD + " Z")[0] == 2
