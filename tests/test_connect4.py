"""Connect Four: the bitboard rules against a slow 2-D reference, notation, helpers, data."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from gamesearch.game import random_playout
from gamesearch.games.connect4 import ConnectFour

W, H = 7, 6
DIRECTIONS = {
    "horizontal": (1, 0),
    "vertical": (0, 1),
    "diagonal /": (1, 1),
    "diagonal \\": (1, -1),
}
DATA = Path(__file__).resolve().parent / "data" / "connect4"

# The peers' table (docs/peers.md): number of four-windows through each cell, row 1 = bottom.
PEER_WEIGHTS = [
    [3, 4, 5, 7, 5, 4, 3],
    [4, 6, 8, 10, 8, 6, 4],
    [5, 8, 11, 13, 11, 8, 5],
    [5, 8, 11, 13, 11, 8, 5],
    [4, 6, 8, 10, 8, 6, 4],
    [3, 4, 5, 7, 5, 4, 3],
]


# ----- the slow reference: a 2-D board, every cell scanned -------------------------------
#: Every four-window: from every cell, in every direction, the four cells that stay on the board.
WINDOWS_2D = [
    (name, [(c + k * dc, r + k * dr) for k in range(4)])
    for c in range(W)
    for r in range(H)
    for name, (dc, dr) in DIRECTIONS.items()
    if 0 <= c + 3 * dc < W and 0 <= r + 3 * dr < H
]


class Ref:
    """A plain board: ``cells[c][r]`` is None, 0 (first player) or 1; row 0 is the bottom."""

    def __init__(self, moves: str = "") -> None:
        self.cells: list[list[int | None]] = [[None] * H for _ in range(W)]
        self.n = 0
        for ch in moves:
            self.play(int(ch) - 1)

    def copy(self) -> Ref:
        r = Ref()
        r.cells = [col[:] for col in self.cells]
        r.n = self.n
        return r

    def height(self, c: int) -> int:
        return sum(1 for x in self.cells[c] if x is not None)

    def legal(self) -> list[int]:
        return [c for c in range(W) if self.height(c) < H]

    def play(self, c: int) -> None:
        self.cells[c][self.height(c)] = self.n & 1
        self.n += 1

    def at(self, c: int, r: int) -> int | None:
        return self.cells[c][r] if 0 <= c < W and 0 <= r < H else None

    def fours(self, player: int) -> set[str]:
        """The directions in which ``player`` has four in a row (every window scanned)."""
        cells = self.cells
        return {
            name for name, window in WINDOWS_2D if all(cells[c][r] == player for c, r in window)
        }

    def winner(self) -> int | None:
        for p in (0, 1):
            if self.fours(p):
                return p
        return None

    def terminal(self) -> bool:
        return self.winner() is not None or self.n == W * H

    def completes_four(self, c: int, r: int, player: int) -> bool:
        """True when a ``player`` stone on (c, r) would be part of four in a row."""
        cells = self.cells
        for dc, dr in DIRECTIONS.values():
            run = 1
            for sign in (1, -1):
                x, y = c + sign * dc, r + sign * dr
                while 0 <= x < W and 0 <= y < H and cells[x][y] == player:
                    run += 1
                    x, y = x + sign * dc, y + sign * dr
            if run >= 4:
                return True
        return False

    def wins_by_playing(self, c: int, player: int) -> bool:
        return self.completes_four(c, self.height(c), player)

    def mirrored_moves(self, moves: str) -> str:
        return "".join(str(8 - int(ch)) for ch in moves)

    def grid(self) -> tuple[tuple[int | None, ...], ...]:
        return tuple(tuple(col) for col in self.cells)


def window_weights() -> list[list[int]]:
    """weights[r][c] = number of four-windows through the cell, counted from scratch."""
    weights = [[0] * W for _ in range(H)]
    for c in range(W):
        for r in range(H):
            for dc, dr in DIRECTIONS.values():
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < W and 0 <= y < H for x, y in cells):
                    for x, y in cells:
                        weights[y][x] += 1
    return weights


WEIGHTS = window_weights()


def ref_evaluate(b: Ref, player: int) -> float:
    total = 0
    for c in range(W):
        for r in range(H):
            if b.cells[c][r] == player:
                total += WEIGHTS[r][c]
            elif b.cells[c][r] is not None:
                total -= WEIGHTS[r][c]
    return float(total)


def random_games(seed: int, games: int) -> Iterator[tuple[tuple, Ref, str]]:
    """Every position (terminal ones included) of ``games`` random games."""
    g = ConnectFour()
    rng = random.Random(seed)
    for _ in range(games):
        state, ref, moves = g.initial_state(), Ref(), ""
        while True:
            yield state, ref, moves
            if g.terminal_utility(state, 0) is not None:
                break
            col = rng.choice(list(g.actions(state)))
            state = g.result(state, col)
            ref = ref.copy()
            ref.play(col)
            moves += str(col + 1)


game = ConnectFour()


# ----- rules against the reference --------------------------------------------------------
def test_weights_match_the_peers_table() -> None:
    assert WEIGHTS == PEER_WEIGHTS


def test_rules_match_reference_on_random_games() -> None:
    seen_directions: set[str] = set()
    positions = 0
    keys: dict[int, tuple] = {}
    for state, ref, moves in random_games(seed=1, games=400):
        positions += 1
        winner = ref.winner()
        if winner is not None:
            seen_directions |= ref.fours(winner)
        terminal = ref.terminal()
        assert game.is_terminal(state) == terminal, moves
        assert game.to_move(state) == ref.n % 2
        assert game.moves_played(state) == ref.n
        for player in (0, 1):
            expected = 0.0 if winner is None else (1000.0 if winner == player else -1000.0)
            assert game.utility(state, player) == expected
            assert game.terminal_utility(state, player) == (expected if terminal else None)
            assert game.evaluate(state, player) == ref_evaluate(ref, player), moves
            assert -1000.0 < game.evaluate(state, player) < 1000.0
        assert game.returns(state) == (game.utility(state, 0), game.utility(state, 1))
        if not terminal:
            assert list(game.actions(state)) == ref.legal()
        key = game.key(state)
        assert keys.setdefault(key, ref.grid()) == ref.grid(), "two positions share a key"
    assert positions > 5000
    assert seen_directions == set(DIRECTIONS)


@pytest.mark.parametrize(
    ("moves", "direction", "winner"),
    [
        ("7244635", "horizontal", 0),
        ("5354575", "vertical", 0),
        ("3243445555", "diagonal /", 1),
        ("53234632422", "diagonal \\", 0),
    ],
)
def test_wins_in_each_direction(moves: str, direction: str, winner: int) -> None:
    assert Ref(moves).fours(winner) == {direction}
    state = game.parse_state(moves)
    assert game.terminal_utility(state, winner) == 1000.0
    assert game.terminal_utility(state, 1 - winner) == -1000.0
    before = game.parse_state(moves[:-1])
    assert game.terminal_utility(before, 0) is None
    assert game.winning_columns(before) == (int(moves[-1]) - 1,)


def test_draw_on_a_full_board() -> None:
    moves = "442761225377252342545563474175371666631311"
    ref = Ref(moves)
    assert ref.n == 42 and ref.winner() is None
    state = game.parse_state(moves)
    assert game.terminal_utility(state, 0) == 0.0
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0)


def test_random_playout_ends() -> None:
    rng = random.Random(3)
    for _ in range(50):
        end = random_playout(game, game.initial_state(), rng)
        assert game.is_terminal(end)
        assert Ref(game.format_state(end)).terminal()


# ----- perft: legal move sequences from the empty board -------------------------------
def ref_perft(depth: int) -> int:
    """Legal move sequences of length ``depth`` on a 2-D board of column tuples.

    A game stops when a stone makes four in a row (counted along the lines through the
    new stone) or fills the board; positions are memoised.
    """
    memo: dict[tuple[tuple[tuple[int, ...], ...], int], int] = {}

    def wins(cols: tuple[tuple[int, ...], ...], c: int, r: int, p: int) -> bool:
        for dc, dr in DIRECTIONS.values():
            run = 1
            for sign in (1, -1):
                x, y = c + sign * dc, r + sign * dr
                while 0 <= x < W and 0 <= y < len(cols[x]) and cols[x][y] == p:
                    run += 1
                    x, y = x + sign * dc, y + sign * dr
            if run >= 4:
                return True
        return False

    def perft(cols: tuple[tuple[int, ...], ...], n: int, d: int) -> int:
        k = (cols, d)
        if k not in memo:
            total = 0
            for c in range(W):
                h = len(cols[c])
                if h == H:
                    continue
                if d == 1:
                    total += 1
                    continue
                child = (*cols[:c], (*cols[c], n & 1), *cols[c + 1 :])
                if not wins(child, c, h, n & 1) and n + 1 < W * H:
                    total += perft(child, n + 1, d - 1)
            memo[k] = total
        return memo[k]

    return perft(((),) * W, 0, depth)


def fast_perft(depth: int) -> int:
    memo: dict[tuple[int, int], int] = {}

    def perft(state: tuple, d: int) -> int:
        if d == 0:
            return 1
        k = (game.key(state), d)
        if k in memo:
            return memo[k]
        if game.terminal_utility(state, 0) is not None:
            total = 0
        else:
            total = sum(perft(game.result(state, a), d - 1) for a in game.actions(state))
        memo[k] = total
        return total

    return perft(game.initial_state(), depth)


def test_perft() -> None:
    # Nobody can win before ply 7 and no column is full before ply 6, so the first six depths
    # are 7**d; at depth 7 the 7 games that filled one column have only 6 moves left.
    expected = {d: 7**d for d in range(1, 7)} | {7: 7**7 - 7}
    for d in range(1, 9):
        count = fast_perft(d)
        if d in expected:
            assert count == expected[d]
        assert count == ref_perft(d), d
    # depth 8: every depth-7 game that was not won at ply 7 continues
    assert fast_perft(8) < 7 * fast_perft(7)


# ----- keys and symmetry --------------------------------------------------------------
moves_strategy = st.lists(st.integers(0, W - 1), max_size=42)


def play_legal(choices: list[int]) -> str:
    """A legal move string from arbitrary column choices (full columns skipped, stop at end)."""
    state, moves = game.initial_state(), ""
    for c in choices:
        if game.terminal_utility(state, 0) is not None:
            break
        legal = list(game.actions(state))
        col = legal[c % len(legal)]
        state = game.result(state, col)
        moves += str(col + 1)
    return moves


@settings(max_examples=300, deadline=None)
@given(moves_strategy)
def test_mirror_and_canonical_key(choices: list[int]) -> None:
    moves = play_legal(choices)
    state = game.parse_state(moves)
    mirrored = game.parse_state("".join(str(8 - int(ch)) for ch in moves))
    assert game.mirror(state) == mirrored
    assert game.mirror_key(state) == game.key(mirrored)
    assert game.canonical_key(state) == game.canonical_key(mirrored)
    assert game.canonical_key(state) == min(game.key(state), game.key(mirrored))
    if mirrored != state:
        assert game.key(state) != game.key(mirrored)


def test_canonical_key_separates_different_positions() -> None:
    seen: dict[int, frozenset[tuple]] = {}
    for state, ref, _moves in random_games(seed=2, games=100):
        grids = frozenset({ref.grid(), tuple(reversed(ref.grid()))})
        assert seen.setdefault(game.canonical_key(state), grids) == grids


# ----- notation -------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(moves_strategy)
def test_parse_format_round_trip(choices: list[int]) -> None:
    moves = play_legal(choices)
    state = game.parse_state(moves)
    text = game.format_state(state)
    assert len(text) == len(moves)
    assert game.parse_state(text) == state
    assert Ref(text).grid() == Ref(moves).grid()


def test_format_state_of_won_positions_ends_with_the_win() -> None:
    for state, ref, _moves in random_games(seed=4, games=200):
        if ref.winner() is not None:
            assert game.parse_state(game.format_state(state)) == state


def test_parse_examples() -> None:
    assert game.parse_state("") == game.initial_state()
    assert game.parse_state("  4455\n") == game.parse_state("4455")
    assert game.format_state(game.initial_state()) == ""
    state = game.parse_state("4455")
    assert game.to_move(state) == 0
    assert game.evaluate(state, 0) == (7 + 5) - (10 + 8)


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("4485", ["'4485'", "move 3", "'8'", "digits 1-7"]),
        ("0", ["move 1", "'0'", "digits 1-7"]),
        ("44a5", ["move 3", "'a'", "digits 1-7"]),
        ("44 55", ["move 3", "' '", "digits 1-7"]),
        ("4-4", ["move 2", "'-'"]),
        ("4444444", ["'4444444'", "move 7", "column 4", "full", "1, 2, 3, 5, 6, 7"]),
        ("12121214", ["move 8", "'4'", "after the end of the game", "move 7 won"]),
        ("53545751", ["move 8", "won"]),
        (
            "4427612253772523425455634741753716666313114",
            ["move 43", "after the end of the game", "filled the board"],
        ),
    ],
)
def test_bad_position_strings(text: str, fragments: list[str]) -> None:
    with pytest.raises(InvalidPositionError) as info:
        game.parse_state(text)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_actions_and_move_notation() -> None:
    state = game.parse_state("444444")
    assert list(game.actions(state)) == [0, 1, 2, 4, 5, 6]
    assert [game.format_action(state, a) for a in game.actions(state)] == list("123567")
    assert game.parse_action(state, " 7 ") == 6
    with pytest.raises(IllegalMoveError, match="column 4 is full"):
        game.parse_action(state, "4")
    for bad in ("8", "0", "x", "", "12"):
        with pytest.raises(IllegalMoveError, match="1-7"):
            game.parse_action(state, bad)
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play(game.parse_state("1212121"), "3")


def test_orders() -> None:
    center = ConnectFour(order="center")
    assert list(center.actions(center.initial_state())) == [3, 2, 4, 1, 5, 0, 6]
    state = center.parse_state("444444")
    assert list(center.actions(state)) == [2, 4, 1, 5, 0, 6]
    assert list(game.order_actions(state, [0, 1, 2, 4, 5, 6])) == [2, 4, 1, 5, 0, 6]
    assert list(game.order_actions(state, [6, 0, 3])) == [3, 0, 6]
    assert game.move_ordering() is not None and game.evaluation() is not None
    with pytest.raises(InvalidLimitError, match="natural, center"):
        ConnectFour(order="random")


def test_render() -> None:
    picture = game.render(game.parse_state("4455"))
    lines = picture.splitlines()
    assert lines[-1] == "1 2 3 4 5 6 7"
    assert lines[-2] == ". . . X X . ."
    assert lines[-3] == ". . . O O . ."
    assert len(lines) == 7


def test_state_from_bitboards() -> None:
    for state, _ref, _moves in random_games(seed=5, games=30):
        assert game.state_from_bitboards(state[0], state[1]) == state
    state = game.parse_state("4455")
    with pytest.raises(InvalidPositionError, match="not a position"):
        game.state_from_bitboards(state[1], state[1])  # side to move owns every stone
    with pytest.raises(InvalidPositionError, match="not a position"):
        game.state_from_bitboards(0, 1 << 1)  # a floating stone
    with pytest.raises(InvalidPositionError, match="not a position"):
        game.state_from_bitboards(0, 1 << 6)  # the sentinel row


# ----- solver helpers against the reference --------------------------------------------
def test_solver_helpers_match_reference() -> None:
    checked_non_losing = 0
    for state, ref, moves in random_games(seed=6, games=80):
        if ref.terminal():
            continue
        me = ref.n % 2
        legal = ref.legal()
        wins = [c for c in legal if ref.wins_by_playing(c, me)]
        opp_wins = [c for c in legal if ref.wins_by_playing(c, 1 - me)]
        assert list(game.winning_columns(state)) == wins, moves
        assert list(game.opponent_winning_columns(state)) == opp_wins, moves
        assert game.can_win_next(state) == bool(wins)
        if not wins:
            # the moves after which the opponent has no immediate win
            safe = []
            for c in legal:
                child = ref.copy()
                child.play(c)
                if not any(child.wins_by_playing(d, 1 - me) for d in child.legal()):
                    safe.append(c)
            assert list(game.possible_non_losing_moves(state)) == safe, moves
            assert list(game.safe_actions(state)) == safe, moves  # the solver's inlined copy
            checked_non_losing += 1
        for c in legal:
            child = ref.copy()
            child.play(c)
            threats = sum(
                1
                for x in range(W)
                for y in range(H)
                if child.cells[x][y] is None and child.completes_four(x, y, me)
            )
            assert game.count_threats(state, c) == threats, (moves, c)
        # whole-board winning cells, for both sides
        for bits, who in (
            (game.winning_cells(state), me),
            (game.opponent_winning_cells(state), 1 - me),
        ):
            cells = {
                (x, y)
                for x in range(W)
                for y in range(H)
                if ref.cells[x][y] is None and ref.completes_four(x, y, who)
            }
            assert {(b // 7, b % 7) for b in range(49) if bits >> b & 1} == cells
    assert checked_non_losing > 1000


def test_count_threats_of_a_full_column() -> None:
    with pytest.raises(IllegalMoveError, match="column 4 is full"):
        game.count_threats(game.parse_state("444444"), 3)


def test_non_losing_moves_examples() -> None:
    # X has three on the bottom row, open at both ends: O cannot stop both
    state = game.parse_state("44335")
    assert game.opponent_winning_columns(state) == (1, 5)
    assert game.possible_non_losing_moves(state) == ()
    # one threat (the bottom row against the left edge): the block is the only move
    state = game.parse_state("11223")
    assert game.opponent_winning_columns(state) == (3,)
    assert game.possible_non_losing_moves(state) == (3,)
    # no threat at all: every column
    assert game.possible_non_losing_moves(game.parse_state("4455")) == tuple(range(7))


# ----- the peers' node counts (docs/peers.md) -----------------------------------------
def alphabeta_nodes(g: ConnectFour, depth: int) -> int:
    """Textbook alpha-beta with E, discounted ±1000 wins; nodes = root + every child."""
    inf = float("inf")
    root = g.initial_state()
    me = g.to_move(root)
    nodes = 0

    def value(s: tuple, d: int, ply: int, alpha: float, beta: float) -> float:
        nonlocal nodes
        nodes += 1
        u = g.terminal_utility(s, me)
        if u is not None:
            return u - ply if u > 0 else u + ply if u < 0 else u
        if d == 0:
            return g.evaluate(s, me)
        maximize = g.to_move(s) == me
        v = -inf if maximize else inf
        for a in g.actions(s):
            v2 = value(g.result(s, a), d - 1, ply + 1, alpha, beta)
            if maximize and v2 > v:
                v = v2
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            elif not maximize and v2 < v:
                v = v2
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    value(root, depth, 0, -inf, inf)
    return nodes


def test_alphabeta_node_counts_match_the_peers() -> None:
    assert alphabeta_nodes(game, 2) == 42
    assert alphabeta_nodes(game, 6) == 11_767


# ----- Pons's benchmark positions ------------------------------------------------------
def test_pons_end_easy_positions() -> None:
    lines = (DATA / "Test_L3_R1").read_text().splitlines()
    assert len(lines) == 1000
    for line in lines[::4]:
        moves, score_text = line.split()
        score = int(score_text)
        state = game.parse_state(moves)
        n = game.moves_played(state)
        assert 29 <= n <= 41
        assert not game.is_terminal(state)
        assert game.parse_state(game.format_state(state)) == state
        # Pons's score convention: the best score is a win with the next stone ...
        assert game.can_win_next(state) == (score == (43 - n) // 2), line
        # ... and the worst a loss to the opponent's next stone, whatever one plays
        if not game.can_win_next(state) and n <= 40:  # at n = 41 a score of 0 is a draw
            lost_now = score == -((42 - n) // 2)
            assert (game.possible_non_losing_moves(state) == ()) == lost_now, line
