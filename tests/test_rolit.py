"""Rolit (``games/rolit``): the published rules' example, a hand-picked position for every
rule, the bitboard rules against a plain square-by-square reference written here (OpenSpiel
has no Rolit: this reference is the independent truth) over random games and by perft for
2, 3 and 4 players, the perft table, notation and bad input, the evaluation, the drawing,
and every search that serves several players on small depths.

Each test's docstring or comment names the mutation of ``games/rolit/rules.py`` it was
seen to catch (the line broken once by hand, the test run, the line restored).
"""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import pytest

from gamesearch.errors import (
    IllegalMoveError,
    InvalidLimitError,
    InvalidPositionError,
    UnsupportedGameError,
)
from gamesearch.games import get_game
from gamesearch.games.rolit.rules import (
    START_BOARD,
    Rolit,
    RState,
    place_values,
    rank_returns,
)
from gamesearch.interfaces.cli import main
from gamesearch.search import ALGORITHMS, Limit, make_searcher

START = START_BOARD + " R"
GAMES = {n: Rolit(players=n) for n in (2, 3, 4)}


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def sq(name: str) -> int:
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def board(balls: dict[str, str], centre: str = "RRRR") -> str:
    """A 64-character board with ``balls`` (square -> colour letter) and the centre d4, e4,
    d5, e5 filled with ``centre``'s letters (red by default: they then bracket nothing for
    red that the test does not put there)."""
    cells = ["-"] * 64
    for name, c in zip(("d4", "e4", "d5", "e5"), centre, strict=True):
        cells[sq(name)] = c
    for name, c in balls.items():
        cells[sq(name)] = c
    return "".join(cells)


# ----- the plain reference: a board of 64 letters, the rules read square by square ---------
DIRS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def ref_flips(cells: list[str], mover: str, at: int) -> list[int]:
    """The balls a ball of ``mover`` on the empty square ``at`` rolls over: in each of the 8
    directions, walk over balls of other colours; if the walk ends on a ball of ``mover``
    after at least one of them, they all turn."""
    out = []
    c0, r0 = at % 8, at // 8
    for dc, dr in DIRS:
        line = []
        c, r = c0 + dc, r0 + dr
        while 0 <= c < 8 and 0 <= r < 8 and cells[8 * r + c] not in ("-", mover):
            line.append(8 * r + c)
            c, r = c + dc, r + dr
        if line and 0 <= c < 8 and 0 <= r < 8 and cells[8 * r + c] == mover:
            out.extend(line)
    return out


def ref_moves(cells: list[str], mover: str) -> list[int]:
    """The legal squares: those with a capture if any, else the empty squares with a ball
    among their (up to 8) neighbours."""
    empty = [i for i in range(64) if cells[i] == "-"]
    captures = [i for i in empty if ref_flips(cells, mover, i)]
    if captures:
        return captures
    return [i for i in empty
            if any(0 <= i % 8 + dc < 8 and 0 <= i // 8 + dr < 8
                   and cells[i + dc + 8 * dr] != "-" for dc, dr in DIRS)]


def ref_play(cells: list[str], mover: str, at: int) -> list[str]:
    out = list(cells)
    for i in ref_flips(cells, mover, at):
        out[i] = mover
    out[at] = mover
    return out


def ref_perft(cells: list[str], player: int, n: int, depth: int) -> int:
    if depth == 0:
        return 1
    moves = ref_moves(cells, "RYGB"[player])
    if not moves:
        return 1
    return sum(ref_perft(ref_play(cells, "RYGB"[player], m), (player + 1) % n, n, depth - 1)
               for m in moves)


def ref_rank(counts: list[int]) -> list[float]:
    """Places by sorting, ties given the mean of the values of the places they fill."""
    n = len(counts)
    order = sorted(range(n), key=lambda q: -counts[q])
    values = [1 - 2 * k / (n - 1) for k in range(n)]
    out = [0.0] * n
    for q in range(n):
        places = [k for k, p in enumerate(order) if counts[p] == counts[q]]
        out[q] = sum(values[k] for k in places) / len(places)
    return out


def cells_of(game: Rolit, state: RState) -> list[str]:
    return list(game.format_state(state).split()[0])


# ----- the published rules ----------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_published_example(n: int) -> None:
    """From the start red has exactly three captures (d6, f4, f6); after red f4 yellow has no
    capture and 14 squares to choose from (the example of the rules, module docstring).
    Mutations caught: yellow and green swapped in the start (yellow keeps a ball and has
    captures); the adjacency mask without the diagonals (``neighbours`` replaced by a
    4-neighbourhood); captures not obligatory (the adjacent squares added to them)."""
    game = GAMES[n]
    s = game.initial_state()
    assert game.format_state(s) == START
    assert sorted(game.legal_action_strings(s)) == ["d6", "f4", "f6"]
    s = game.play(s, "f4")
    assert game.format_state(s) == "-" * 27 + "RRR-----BG" + "-" * 27 + " Y"
    yellow = s[1]
    assert yellow == 0  # yellow has no ball, so no capture
    legal = sorted(game.legal_action_strings(s))
    assert len(legal) == 14
    assert legal == sorted(["c3", "d3", "e3", "f3", "g3", "c4", "g4", "c5", "f5", "g5",
                            "c6", "d6", "e6", "f6"])


# ----- a hand-picked position for every rule -----------------------------------------------
#: (the move, the balls around it, the balls it rolls over): one line in each of the 8
#: directions, then several balls, several colours, several lines at once.
CAPTURES = [
    ("a1", {"b1": "Y", "c1": "R"}, {"b1"}),  # towards h
    ("h1", {"g1": "G", "f1": "R"}, {"g1"}),  # towards a
    ("a1", {"a2": "B", "a3": "R"}, {"a2"}),  # towards row 8
    ("a8", {"a7": "Y", "a6": "R"}, {"a7"}),  # towards row 1
    ("a1", {"b2": "Y", "c3": "R"}, {"b2"}),  # a1-h8 diagonal, up
    ("h8", {"g7": "G", "f6": "R"}, {"g7"}),  # a1-h8 diagonal, down
    ("h1", {"g2": "B", "f3": "R"}, {"g2"}),  # h1-a8 diagonal, towards a8
    ("a8", {"b7": "Y", "c6": "R"}, {"b7"}),  # h1-a8 diagonal, towards h1
    ("a1", {"b1": "Y", "c1": "G", "d1": "B", "e1": "Y", "f1": "R"},
     {"b1", "c1", "d1", "e1"}),  # a line of every other colour
    ("a1", {"b1": "Y", "c1": "R", "d1": "G", "e1": "R"}, {"b1"}),  # up to the nearest own
    ("h8", {"g8": "Y", "f8": "R", "h7": "G", "h6": "R", "g7": "B", "f6": "R"},
     {"g8", "h7", "g7"}),  # three lines at once
]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize(("move", "balls", "rolled"), CAPTURES)
def test_a_capture_rolls_over_the_trapped_balls_of_any_colour(
        n: int, move: str, balls: dict[str, str], rolled: set[str]) -> None:
    """Mutations caught: only the next colour's balls rolled over (``occupied ^ p``
    replaced by the next colour's balls in ``result``), or only they capturable (the same
    in ``moves``); the rolled balls left in their old colour's bitboard (``keep``
    not applied)."""
    game = GAMES[n]
    s = game.parse_state(board(balls) + " R")
    assert move in game.legal_action_strings(s)
    after = game.play(s, move)
    before, now = cells_of(game, s), cells_of(game, after)
    changed = {f"{'abcdefgh'[i % 8]}{i // 8 + 1}" for i in range(64) if before[i] != now[i]}
    assert changed == rolled | {move}
    assert all(now[sq(x)] == "R" for x in changed)
    assert sum(b.bit_count() for b in after[:4]) == sum(b.bit_count() for b in s[:4]) + 1
    assert not any(after[i] & after[j] for i in range(4) for j in range(i + 1, 4))


@pytest.mark.parametrize("balls", [
    {"b1": "Y", "d1": "R"},  # an empty square breaks the line
    {"b1": "Y", "c1": "Y"},  # no own ball at the end
    {"b1": "R"},  # no ball of another colour between
])
def test_no_capture_without_a_closed_line(balls: dict[str, str]) -> None:
    """Red has no capture here: a1 is legal only as a ball next to b1, and rolls nothing
    over. Mutation caught: ``result`` closing a line on an empty square (the empty squares
    passed to ``flips`` as the mover's balls: b1 turns red)."""
    game = GAMES[4]
    s = game.parse_state(board(balls) + " R")
    assert not any(ref_flips(cells_of(game, s), "R", i) for i in range(64)
                   if cells_of(game, s)[i] == "-")
    after = game.play(s, "a1")
    assert [after[q] for q in range(4)] == [s[0] | 1, s[1], s[2], s[3]]


def test_a_capture_is_obligatory() -> None:
    """Red can capture (a1 over b1), so only captures are legal, though many empty squares
    touch a ball. Mutation caught: the adjacent squares added to the captures."""
    game = GAMES[4]
    s = game.parse_state(board({"b1": "Y", "c1": "R"}) + " R")
    assert game.legal_action_strings(s) == ["a1"]
    with pytest.raises(IllegalMoveError, match="capturing is obligatory"):
        game.parse_action(s, "c3")


def test_without_a_capture_a_ball_goes_next_to_any_ball() -> None:
    """Yellow has no capture (its one ball is walled in by nothing it can close): every empty
    square next to a ball, and only those, is legal, and such a move rolls nothing over.
    Mutation caught: the adjacency mask without the diagonals (a 4-neighbourhood)."""
    game = GAMES[4]
    text = board({"a8": "Y", "h1": "G"}, centre="RBGR") + " Y"
    s = game.parse_state(text)
    cells = cells_of(game, s)
    expected = sorted(ref_moves(cells, "Y"))
    assert not any(ref_flips(cells, "Y", i) for i in expected)
    assert game.actions(s) == expected
    assert {"a7", "b7", "b8", "g1", "g2", "h2", "c3", "f6"} <= set(
        game.legal_action_strings(s))
    assert len(expected) == 3 + 3 + 12
    after = game.play(s, "b7")
    assert after[1] == s[1] | 1 << sq("b7") and after[:4] != s[:4]
    assert [after[q] for q in (0, 2, 3)] == [s[q] for q in (0, 2, 3)]
    with pytest.raises(IllegalMoveError, match="next to no ball"):
        game.parse_action(s, "a5")
    with pytest.raises(IllegalMoveError, match="taken"):
        game.parse_action(s, "d4")


def test_neutral_balls_can_be_rolled_over_but_score_for_no_one() -> None:
    """With three players blue is neutral: red rolls a blue ball over; blue never moves and
    its balls count for no one. Mutations caught: the mover cycling over 4 colours
    (``nxt % 4``); only the next colour capturable."""
    game = GAMES[3]
    s = game.initial_state()
    s = game.play(s, "d6")  # red rolls over blue's d5
    assert s[3] == 0 and s[4] == 1
    s = game.play(s, game.legal_action_strings(s)[0])
    s = game.play(s, game.legal_action_strings(s)[0])
    assert s[4] == 0  # after green, red again
    with pytest.raises(InvalidPositionError, match="one of R, Y, G"):
        game.parse_state(START_BOARD + " B")


def full_board(counts: dict[str, int], last_empty: bool = False) -> str:
    cells = "".join(c * k for c, k in counts.items())
    assert len(cells) == 64
    return ("-" + cells[1:] if last_empty else cells)


@pytest.mark.parametrize(("n", "counts", "returns"), [
    (4, {"R": 16, "Y": 16, "G": 16, "B": 16}, (0.0, 0.0, 0.0, 0.0)),
    (4, {"R": 20, "Y": 20, "G": 12, "B": 12}, (2 / 3, 2 / 3, -2 / 3, -2 / 3)),
    (4, {"R": 30, "Y": 10, "G": 12, "B": 12}, (1.0, -1.0, 0.0, 0.0)),
    (4, {"R": 10, "Y": 18, "G": 18, "B": 18}, (-1.0, 1 / 3, 1 / 3, 1 / 3)),
    (3, {"R": 20, "Y": 20, "G": 20, "B": 4}, (0.0, 0.0, 0.0)),
    (3, {"R": 10, "Y": 25, "G": 25, "B": 4}, (-1.0, 0.5, 0.5)),
    (3, {"R": 30, "Y": 4, "G": 25, "B": 5}, (1.0, -1.0, 0.0)),
    (2, {"R": 32, "Y": 30, "G": 1, "B": 1}, (1.0, -1.0)),
    (2, {"R": 31, "Y": 31, "G": 1, "B": 1}, (0.0, 0.0)),
])
def test_a_full_board_ends_the_game_and_tied_players_share_a_place(
        n: int, counts: dict[str, int], returns: tuple[float, ...]) -> None:
    """Mutation caught: tied players all given the best of their places
    (``values[better]``)."""
    game = GAMES[n]
    text = full_board(counts)
    # the centre is full; the game is over, with no move, and returns by place
    s = game.parse_state(text + " R")
    assert game.is_terminal(s) and game.legal_action_strings(s) == []
    assert game.returns(s) == pytest.approx(returns)
    assert list(returns) == pytest.approx(ref_rank([counts[c] for c in "RYGB"[:n]]))
    assert sum(game.returns(s)) == pytest.approx(0.0)
    for q in range(n):
        assert game.utility(s, q) == game.terminal_utility(s, q) == game.returns(s)[q]
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play(s, "a1")
    assert "board full" in (game.termination(s) or "")
    # one empty square: not over, one move (a1 is next to b1), then over
    s = game.parse_state(full_board(counts, last_empty=True) + " R")
    assert not game.is_terminal(s) and game.terminal_utility(s, 0) is None
    assert game.legal_action_strings(s) == ["a1"] and game.termination(s) is None
    assert game.is_terminal(game.play(s, "a1"))


def test_place_values_and_the_balls_score() -> None:
    assert place_values(2) == (1.0, -1.0)
    assert place_values(3) == (1.0, 0.0, -1.0)
    assert place_values(4) == pytest.approx((1.0, 1 / 3, -1 / 3, -1.0))
    assert rank_returns([5, 5]) == (0.0, 0.0)
    balls = get_game("rolit:players=3,score=balls")
    assert balls.spec == "rolit:players=3,score=balls" and balls.max_utility == 128
    s = balls.parse_state(full_board({"R": 30, "Y": 4, "G": 25, "B": 5}) + " R")
    mean = (30 + 4 + 25) / 3  # the neutral blue balls count for no one
    assert balls.returns(s) == pytest.approx((30 - mean, 4 - mean, 25 - mean))


# ----- the bitboards against the reference ------------------------------------------------
def random_games(game: Rolit, count: int, seed: int) -> list[list[RState]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        s = game.initial_state()
        line = [s]
        while not game.is_terminal(s):
            s = game.result(s, rng.choice(game.actions(s)))
            line.append(s)
        out.append(line)
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_moves_and_results_agree_with_the_reference_over_random_games(n: int) -> None:
    """300 random games per seat count (18,000 positions each): the same legal squares, the
    same board after every legal move, the same returns at the end. Mutations caught:
    every one listed in this file but the evaluation's and perft's conventions (the
    adjacency mask, obligatory captures, the colours captured or rolled over, ``keep``,
    the mover wrapping at 4, ties, lines closed on an empty square)."""
    game = GAMES[n]
    positions = 0
    for line in random_games(game, 300, seed=n):
        for s in line:
            cells, mover = cells_of(game, s), "RYGB"[s[4]]
            if game.is_terminal(s):
                assert "-" not in cells
                counts = [cells.count(c) for c in "RYGB"[:n]]
                assert list(game.returns(s)) == pytest.approx(ref_rank(counts))
                continue
            moves = game.actions(s)
            assert moves == ref_moves(cells, mover)
            for m in moves:
                assert cells_of(game, game.result(s, m)) == ref_play(cells, mover, m)
                assert game.result(s, m)[4] == (s[4] + 1) % n
            positions += 1
        assert len(line) == 61
    assert positions == 300 * 60


#: Perft from the start, depths 0-7, by the game's ``perft()`` (convention ``perft``). The
#: reference above gave the same counts to depth 6 when the table was written (5.9 s); the
#: test checks it to depth 4.
PERFT = {
    2: [1, 3, 20, 93, 572, 2914, 20327, 112000],
    3: [1, 3, 20, 136, 630, 3956, 27778, 161368],
    4: [1, 3, 20, 136, 1366, 7427, 44154, 343639],
}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_perft_table(n: int) -> None:
    """Mutations caught: every rule mutation of this file (the start, the adjacency mask,
    obligatory captures, the colours captured or rolled over, ``keep``, the mover
    wrapping at 4, lines closed on an empty square)."""
    game = GAMES[n]
    s = game.initial_state()
    for depth, expected in enumerate(PERFT[n]):  # shallow first: a wrong rule fails fast
        assert game.perft().count(s, depth, None) == expected, depth
    cells = cells_of(game, s)
    assert [ref_perft(cells, 0, n, d) for d in range(5)] == PERFT[n][:5]


def test_perft_conventions_differ_only_past_the_end() -> None:
    """Mutation caught: a full board counted as no leaf in the default convention."""
    game = GAMES[4]
    s = game.parse_state(full_board({"R": 16, "Y": 16, "G": 16, "B": 16}, True) + " R")
    assert [game.count_perft(s, d) for d in range(4)] == [1, 1, 1, 1]
    assert [game.count_perft(s, d, "full_depth") for d in range(4)] == [1, 1, 0, 0]
    with pytest.raises(InvalidLimitError, match="allowed: perft, full_depth"):
        game.perft().count(s, 2, "oeis")
    with pytest.raises(InvalidLimitError, match="depth"):
        game.count_perft(s, -1)


def test_perft_command() -> None:
    code, text = run("perft", "rolit:players=3", "--depth", "3")
    assert code == 0 and "perft 3: 136 " in text
    code, text = run("perft", "rolit:players=2", "--depth", "2", "--divide", "--json")
    data = json.loads(text)
    assert data["nodes"] == 20 and sum(data["divide"].values()) == 20


# ----- notation and bad input ---------------------------------------------------------------
def test_notation_round_trips() -> None:
    for n, game in GAMES.items():
        for line in random_games(game, 3, seed=10 + n):
            for s in line:
                text = game.format_state(s)
                assert game.parse_state(text) == s
                assert game.parse_state(text.lower().replace("-", ".")) == s
                for a in ([] if game.is_terminal(s) else game.actions(s)):
                    assert game.parse_action(s, game.format_action(s, a)) == a
                assert game.split_position_line(text + " 12 some comment") == (
                    text, "12 some comment")


@pytest.mark.parametrize(("text", "message"), [
    ("", "expected the board and the colour to move"),
    (START_BOARD, "expected the board and the colour to move"),
    (START_BOARD + " R extra", "expected the board and the colour to move"),
    (START_BOARD[:-1] + " R", "63 characters, not 64"),
    (START_BOARD[:-1] + "X R", r"bad board character\(s\) 'X'"),
    (START_BOARD + " Q", "colour to move 'Q'"),
    (START_BOARD + " RY", "colour to move 'RY'"),
    ("-" * 64 + " R", "d4, e4, d5 and e5 are never empty"),
])
def test_bad_positions_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        GAMES[4].parse_state(text)


def test_a_colour_that_does_not_play_cannot_be_to_move() -> None:
    with pytest.raises(InvalidPositionError, match="with 2 players it is one of R, Y"):
        GAMES[2].parse_state(START_BOARD + " G")
    assert GAMES[4].parse_state(START_BOARD + " B")[4] == 3


@pytest.mark.parametrize(("move", "reason"), [
    ("z9", "a move is a square a1-h8"),
    ("pass", "a move is a square a1-h8"),
    ("", "a move is a square a1-h8"),
    ("d4", "the square is taken"),
    ("c3", "capturing is obligatory"),
])
def test_illegal_moves_name_the_reason_and_the_legal_moves(move: str, reason: str) -> None:
    game = GAMES[3]
    with pytest.raises(IllegalMoveError, match=reason) as info:
        game.play(game.initial_state(), move)
    assert "d6" in str(info.value) and "f4" in str(info.value)


@pytest.mark.parametrize("spec", ["rolit:players=5", "rolit:players=1", "rolit:players=x",
                                  "rolit:score=points", "rolit:seats=3"])
def test_an_unsupported_option_is_a_one_line_error(spec: str) -> None:
    with pytest.raises(InvalidLimitError) as info:
        get_game(spec)
    assert "\n" not in str(info.value)
    code, text = run("perft", spec, "--depth", "1")
    assert code != 0 and len(text.strip().splitlines()) <= 1


def test_the_constructor_checks_its_arguments() -> None:
    for bad in (5, 1, True, "3"):
        with pytest.raises(InvalidLimitError, match="2, 3 or 4 players"):
            Rolit(players=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidLimitError, match="allowed: rank, balls"):
        Rolit(score="points")


def test_specs_and_the_list_command() -> None:
    assert get_game("rolit").spec == "rolit" and get_game("rolit").num_players == 4
    g = get_game("rolit:players=3")
    assert g.spec == "rolit:players=3" and g.num_players == 3
    assert g.game_type.num_players == 3 and not g.game_type.alternating
    assert get_game("rolit:players=2").game_type.alternating
    code, text = run("list")
    assert code == 0 and re.search(r"rolit\b", text) and "players" in text


def test_render_shows_the_board_the_moves_and_the_counts() -> None:
    game = GAMES[3]
    text = game.render(game.initial_state())
    lines = text.splitlines()
    assert lines[4] == "4 . . . R Y * . ." and lines[5] == "5 . . . B G . . ."
    assert "red (R) to move" in text and "neutral: B" in text


# ----- evaluation, key, drawing ---------------------------------------------------------------
def test_evaluation_is_constant_sum_and_strictly_inside_the_utilities() -> None:
    """Mutation caught: the evaluation not centred on the mean (``- total / players``
    dropped: the sums are no longer 0)."""
    for n, game in GAMES.items():
        ev = game.evaluation()
        assert ev is not None
        for line in random_games(game, 5, seed=20 + n):
            for s in line[:-1]:
                values = [ev.evaluate(s, q) for q in range(n)]
                assert sum(values) == pytest.approx(0.0, abs=1e-9)
                assert all(-game.max_utility < v < game.max_utility for v in values)
                assert all(abs(v) < 0.9 * game.max_utility for v in values)
    game = GAMES[4]
    s = game.initial_state()
    assert [game.evaluate(s, q) for q in range(4)] == [0.0] * 4  # a symmetric start
    s = game.play(s, "f4")  # red has 3 balls, yellow none
    assert game.evaluate(s, 0) > 0 > game.evaluate(s, 1)


def test_evaluation_prefers_corners_and_balls() -> None:
    game = GAMES[3]
    corner = game.parse_state(board({"a1": "R"}, centre="RYGB") + " Y")
    side = game.parse_state(board({"b1": "R"}, centre="RYGB") + " Y")
    assert game.evaluate(corner, 0) > game.evaluate(side, 0)
    more = game.parse_state(board({"a4": "R", "a5": "R"}, centre="RYGB") + " Y")
    fewer = game.parse_state(board({"a4": "R"}, centre="RYGB") + " Y")
    assert game.evaluate(more, 0) > game.evaluate(fewer, 0)


def test_move_ordering_is_a_permutation_corners_then_most_balls() -> None:
    game = GAMES[4]
    s = game.parse_state(board({"a1": "-", "b2": "Y", "c3": "R", "h4": "Y", "g4": "Y",
                                "f4": "R"}) + " R")
    ordering = game.move_ordering()
    assert ordering is not None
    ordered = ordering.order_actions(s, game.actions(s))
    assert sorted(ordered) == game.actions(s)
    assert [game.format_action(s, a) for a in ordered][:1] == ["a1"]


def test_the_key_is_the_position() -> None:
    """Two move orders to one position share a key; the player to move is part of it."""
    game = GAMES[2]
    lines: dict[Any, list[tuple[int, ...]]] = {}

    def walk(s: RState, line: tuple[int, ...]) -> None:
        if len(line) == 4:
            lines.setdefault(game.key(s), []).append(line)
            return
        for a in game.actions(s):
            walk(game.result(s, a), (*line, a))

    walk(game.initial_state(), ())
    shared = [k for k, ls in lines.items() if len(ls) > 1]
    assert shared and len(lines) < game.count_perft(game.initial_state(), 4)
    for k in shared:
        ends = set()
        for line in lines[k]:
            s = game.initial_state()
            for a in line:
                s = game.result(s, a)
            ends.add(game.format_state(s))
        assert len(ends) == 1  # one key, one position
    a = game.parse_state(START)
    assert game.key(a) != game.key(game.parse_state(START_BOARD + " Y"))


def test_the_drawing_has_a_target_on_every_legal_square() -> None:
    for game in GAMES.values():
        for line in random_games(game, 1, seed=30):
            for s in [*line[::10], line[-1]]:
                svg = game.render_svg(s) or ""
                targets = re.findall(r'data-move="([a-h][1-8])"', svg)
                assert sorted(targets) == sorted(game.legal_action_strings(s))
                assert svg.count('class="stone') == sum(b.bit_count() for b in s[:4])
    svg = GAMES[2].render_svg(GAMES[2].initial_state(), interactive=False) or ""
    assert "data-move" not in svg and "(neutral)" in svg


# ----- every search that serves several players ------------------------------------------------
def n_player_algorithms() -> list[str]:
    """The algorithms that serve n players (not two-player only); of those that handle
    chance, only MCTS (expectiminimax is for two-player chance games)."""
    return sorted(name for name, info in ALGORITHMS.items()
                  if not info.cls.two_player_only
                  and (name == "mcts" or not getattr(info.cls, "handles_chance", False)))


def test_the_n_player_algorithms_are_the_ones_listed() -> None:
    names = n_player_algorithms()
    assert {"maxn", "paranoid", "mcts"} <= set(names)
    code, text = run("list")
    assert code == 0
    assert all(re.search(rf"^\s+{name}\b", text, re.M) for name in names)


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("name", n_player_algorithms())
def test_every_n_player_search_plays_rolit(n: int, name: str) -> None:
    """Each algorithm that is not two-player only moves legally from a few positions of a
    random game, at depth 2 (MCTS: 60 iterations, playouts to the end, the game's plain
    Python playouts)."""
    game = GAMES[n]
    line = random_games(game, 1, seed=40 + n)[0]
    for s in (line[0], line[20], line[55]):
        searcher = make_searcher(game, name, **({"seed": 1} if name == "mcts" else {}))
        limit = Limit(nodes=60) if name == "mcts" else Limit(depth=2)
        r = searcher.search(s, limit)
        assert r.action in game.actions(s), (name, game.format_state(s))
        if isinstance(r.value, tuple):
            assert len(r.value) == n


def test_maxn_at_depth_one_takes_the_best_evaluated_move() -> None:
    """Max^n one ply deep picks the move whose evaluation is best for the mover: an
    independent check that the evaluation vector drives the search."""
    game = GAMES[3]
    s = game.play(game.initial_state(), "f4")
    r = make_searcher(game, "maxn").search(s, Limit(depth=1))
    values = {a: game.evaluate(game.result(s, a), 1) for a in game.actions(s)}
    assert values[r.action] == max(values.values())


def test_two_player_searches_play_two_player_rolit_and_refuse_three() -> None:
    game = GAMES[2]
    s = game.initial_state()
    for name in ("alphabeta", "id"):
        r = make_searcher(game, name).search(s, Limit(depth=3))
        assert r.action in game.actions(s) and -1 < r.value < 1
    with pytest.raises(UnsupportedGameError, match="needs a two-player zero-sum game; rolit "
                       "has 3 players"):
        make_searcher(GAMES[3], "alphabeta")


def test_a_search_to_the_end_of_a_nearly_full_board_is_exact() -> None:
    """Three empty squares, three players: max^n to the end returns the rank returns of
    the best line, a vector of utilities summing to 0."""
    game = GAMES[3]
    line = random_games(game, 1, seed=50)[0]
    s = line[-4]
    r = make_searcher(game, "maxn").search(s, Limit(depth=3))
    assert len(r.pv) == 3 and game.is_terminal(_play_line(game, s, r.pv))
    assert tuple(r.value) == game.returns(_play_line(game, s, r.pv))


def _play_line(game: Rolit, s: RState, pv: list[Any]) -> RState:
    for a in pv:
        s = game.result(s, a)
    return s


def _paranoid(game: Rolit, s: RState, depth: int, me: int) -> float:
    """Plain paranoid minimax (no pruning): ``me`` maximises its own value, everyone else
    minimises it; the evaluation at the cut-off, the returns at the end."""
    if game.is_terminal(s):
        return game.returns(s)[me]
    if depth == 0:
        return game.evaluate(s, me)
    values = [_paranoid(game, game.result(s, a), depth - 1, me) for a in game.actions(s)]
    return max(values) if game.to_move(s) == me else min(values)


@pytest.mark.parametrize("n", [3, 4])
def test_paranoid_on_rolit_equals_plain_paranoid_minimax(n: int) -> None:
    """Paranoid's alpha-beta returns the value of the plain paranoid tree written here, on
    mid-game and end-game positions, with and without the game's move ordering."""
    game = GAMES[n]
    line = random_games(game, 1, seed=60 + n)[0]
    for s in (line[12], line[30], line[-3]):
        want = _paranoid(game, s, 3, s[4])
        for options in ({}, {"ordering": True}):
            try:
                searcher = make_searcher(game, "paranoid", discount=False, **options)
            except (InvalidLimitError, TypeError):
                continue  # (paranoid without an ordering option in this version)
            r = searcher.search(s, Limit(depth=3))
            assert r.value == pytest.approx(want), (options, game.format_state(s))


def test_mcts_cuts_its_playouts_off_with_the_evaluation() -> None:
    game = GAMES[3]
    s = game.initial_state()
    r = make_searcher(game, "mcts", seed=2, playout_depth=4).search(s, Limit(nodes=80))
    assert r.action in game.actions(s)


def test_maxn_pruning_and_brs_on_rolit_agree_with_their_definitions() -> None:
    """Rolit promises constant-sum values within +-max_utility (``GameType.constant_sum``,
    ``value_bounds``) and offers ``turn_passing``: max^n's pruning rules then return plain
    max^n's value and move on mid-game positions, and ``brs`` runs on three players.
    Mutation caught: a ``value_bounds`` narrower than the values (e.g. ``(-0.1, 0.1)``), or
    an evaluation whose players' values do not sum to 0, changes a pruned answer."""
    import random

    from gamesearch.search import Limit, make_searcher

    for players in (3, 4):
        game = get_game(f"rolit:players={players}")
        rng = random.Random(players)
        for _ in range(6):
            s = game.initial_state()
            for _ in range(rng.randrange(4, 30)):
                s = game.result(s, rng.choice(list(game.actions(s))))
            plain = make_searcher(game, "maxn").search(s, Limit(depth=3))
            for opts in ({"shallow": True}, {"lastbranch": True}, {"speculative": True},
                         {"shallow": True, "lastbranch": True, "speculative": True}):
                pruned = make_searcher(game, "maxn", **opts).search(s, Limit(depth=3))
                assert (pruned.action, pruned.value) == (plain.action, plain.value), opts
                assert pruned.nodes <= plain.nodes
            brs = make_searcher(game, "brs").search(s, Limit(depth=3))
            assert brs.action in game.actions(s)
