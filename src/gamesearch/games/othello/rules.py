"""The rules of Othello on 64-bit bitboards (Python ints), its notation, an evaluation and
the move ordering of the exact endgame solver.

Squares: bit ``8 * row + col`` is column ``col`` (``a``-``h``, 0-7) of row ``row`` (``1``-``8``,
0-7), so ``a1`` is bit 0, ``h1`` bit 7 and ``h8`` bit 63 -- the order of the 64-character board
strings of the FFO suite and of Edax (``../shared/data/othello/README.md``): square ``a1`` first,
then ``b1`` ... ``h1``, ``a2`` ... ``h8``; ``X`` a black disc, ``O`` a white one, ``-`` empty.

State: a tuple ``(mover, other, side, moves)``:

* ``mover``/``other`` -- the discs of the player to move and of the other player;
* ``side`` -- the player to move: 0 black (``X``, moves first), 1 white (``O``);
* ``moves`` -- the legal moves of the player to move as a bitboard; :data:`PASS_BIT` (bit
  64) when that player has none but the other has (the only move is then ``pass``); 0 when
  neither has a move: the game is over. :meth:`Othello.result` works it out once for each new
  position, so ``actions`` and the terminal test cost no move generation.

``moves`` is a function of the rest, so equal positions are equal states, and the state
itself is the key of the transposition table (the two bitboards and the side to move).

Passes are explicit moves (:data:`PASS`, written ``pass``), so the players strictly alternate
(``GameType(alternating=True)``) and a pass counts as a ply, in search and in perft.
The utility is the final disc difference for the player, the empty squares going to the
winner (the convention of the FFO suite and of Edax): always even, from -64 to +64.

Move generation: the moves of one direction are found with a parallel-prefix shift
("Kogge-Stone" style: a run of one, then two, then four opposing discs), the 8 directions
unrolled; a move's flips walk the precomputed rays of its square, where the first disc
that is not an opponent's is the lowest (or highest) set bit of ``ray & ~other``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from types import MappingProxyType
from typing import Any

from ...capabilities import (
    Drawing,
    Evaluation,
    FastSolver,
    MoveOrdering,
    Perft,
    Playouts,
    ScoreConvention,
)
from ...errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from ...game import Game, GameType
from ..bitboards import set_bits

#: ``(mover, other, side, moves)``, see the module docstring.
OState = tuple[int, int, int, int]

FULL = (1 << 64) - 1
#: The pass action (a square number past the board) and its bit in ``moves``.
PASS = 64
PASS_BIT = 1 << PASS
NOT_A = 0xFEFEFEFEFEFEFEFE  # every square but column a
NOT_H = 0x7F7F7F7F7F7F7F7F  # every square but column h
INNER = NOT_A & NOT_H  # columns b-g: a run along a row or diagonal cannot wrap
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
#: The squares diagonally next to a corner (b2, g2, b7, g7), keyed by their corner.
X_SQUARES = {1 << 0: 1 << 9, 1 << 7: 1 << 14, 1 << 56: 1 << 49, 1 << 63: 1 << 54}
CENTRE = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)  # d4 e4 d5 e5
#: The standard start: d4 and e5 white, e4 and d5 black; black to move.
START_BOARD = "-" * 27 + "OX------XO" + "-" * 27
#: Largest disc difference (a board of one colour); the utilities run from -64 to +64.
MAX_DISCS = 64

DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def square_name(sq: int) -> str:
    return "pass" if sq == PASS else "abcdefgh"[sq & 7] + str((sq >> 3) + 1)


SQUARE_NAMES = tuple(square_name(sq) for sq in range(64))


def _rays() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """For each square, the rays (of two squares or more) towards higher square numbers and
    towards lower ones, each as a bitboard."""
    out = []
    for sq in range(64):
        row, col = divmod(sq, 8)
        up: list[int] = []
        down: list[int] = []
        for dr, dc in DIRECTIONS:
            ray, r, c = 0, row + dr, col + dc
            while 0 <= r < 8 and 0 <= c < 8:
                ray |= 1 << (8 * r + c)
                r, c = r + dr, c + dc
            if ray.bit_count() >= 2:
                (up if dr * 8 + dc > 0 else down).append(ray)
        out.append((tuple(up), tuple(down)))
    return tuple(out)


RAYS = _rays()


def legal_moves(p: int, o: int) -> int:
    """The squares where the player with discs ``p`` may play against ``o`` (a bitboard).

    For each direction: ``t`` grows from ``p`` over runs of opposing discs (1, 2, then 4 and
    4 more at once through ``pre``, the discs whose neighbour that way is opposing too), and
    one more step lands on the squares beyond. Rows and diagonals use the opposing discs of
    columns b-g only, so that no run wraps from one row to the next.
    """
    mo = o & INNER
    # +1 (towards h) and -1
    t = mo & (p << 1)
    t |= mo & (t << 1)
    pre = mo & (mo << 1)
    t |= pre & (t << 2)
    t |= pre & (t << 2)
    moves = t << 1
    t = mo & (p >> 1)
    t |= mo & (t >> 1)
    pre >>= 1
    t |= pre & (t >> 2)
    t |= pre & (t >> 2)
    moves |= t >> 1
    # +8 (towards row 8) and -8: every column, no wrap possible
    t = o & (p << 8)
    t |= o & (t << 8)
    pre = o & (o << 8)
    t |= pre & (t << 16)
    t |= pre & (t << 16)
    moves |= t << 8
    t = o & (p >> 8)
    t |= o & (t >> 8)
    pre >>= 8
    t |= pre & (t >> 16)
    t |= pre & (t >> 16)
    moves |= t >> 8
    # +7 and -7 (the anti-diagonal)
    t = mo & (p << 7)
    t |= mo & (t << 7)
    pre = mo & (mo << 7)
    t |= pre & (t << 14)
    t |= pre & (t << 14)
    moves |= t << 7
    t = mo & (p >> 7)
    t |= mo & (t >> 7)
    pre >>= 7
    t |= pre & (t >> 14)
    t |= pre & (t >> 14)
    moves |= t >> 7
    # +9 and -9 (the diagonal)
    t = mo & (p << 9)
    t |= mo & (t << 9)
    pre = mo & (mo << 9)
    t |= pre & (t << 18)
    t |= pre & (t << 18)
    moves |= t << 9
    t = mo & (p >> 9)
    t |= mo & (t >> 9)
    pre >>= 9
    t |= pre & (t >> 18)
    t |= pre & (t >> 18)
    moves |= t >> 9
    return moves & ~(p | o) & FULL


def flips(p: int, o: int, sq: int) -> int:
    """The discs of ``o`` that a move of ``p`` on the empty square ``sq`` turns over."""
    f = 0
    up, down = RAYS[sq]
    for ray in up:  # the first square that is not the opponent's: the lowest bit
        b = ray & ~o
        first = b & -b
        if first & p:
            f |= ray & (first - 1)
    for ray in down:  # towards lower squares: the highest bit
        b = ray & ~o
        if b:
            first = 1 << (b.bit_length() - 1)
            if first & p:
                f |= ray & -(first << 1)
    return f


def neighbours(x: int) -> int:
    """The squares next to (8 directions) a disc of ``x``, ``x`` included."""
    h = x | ((x << 1) & NOT_A) | ((x >> 1) & NOT_H)
    return (h | (h << 8) | (h >> 8)) & FULL


#: The number of discs of a bitboard (the compiled twins of the functions that call it
#: rebind it to the CPU's instruction: :mod:`.compiled`).
popcount = int.bit_count


def final_score(p: int, o: int) -> int:
    """The disc difference for ``p`` at the end, the empty squares to the winner."""
    mine, theirs = popcount(p), popcount(o)
    diff = mine - theirs
    if diff > 0:
        return diff + 64 - mine - theirs
    if diff < 0:
        return diff - (64 - mine - theirs)
    return 0


def make_state(p: int, o: int, side: int) -> OState:
    """The state with ``p`` to move (player ``side``) against ``o``; works out ``moves``."""
    m = legal_moves(p, o)
    if not m:
        m = PASS_BIT if legal_moves(o, p) else 0
    return (p, o, side, m)


#: The set squares of a bitboard, lowest first (bit 64 is :data:`PASS`).
squares = set_bits


# ----- the solver's move ordering ---------------------------------------------------------
#: A square's worth when its quadrant holds an odd number of empty squares (parity: the
#: last move of an odd region tends to fall to the side that enters it first).
QUADRANTS = (0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32)
QUADRANT_OF = tuple(next(q for q in QUADRANTS if q >> sq & 1) for sq in range(64))
#: Edax's (and J. C. Weill's) square values for ordering: corners best, X-squares worst.
SQUARE_VALUE = (
    18, 4, 16, 12, 12, 16, 4, 18,
    4, 2, 6, 8, 8, 6, 2, 4,
    16, 6, 14, 10, 10, 14, 6, 16,
    12, 8, 10, 0, 0, 10, 8, 12,
    12, 8, 10, 0, 0, 10, 8, 12,
    16, 6, 14, 10, 10, 14, 6, 16,
    4, 2, 6, 8, 8, 6, 2, 4,
    18, 4, 16, 12, 12, 16, 4, 18,
)
#: Weights of the ordering score (see :func:`order_score`), measured on FFO #13-#34 (the
#: nodes of the compiled solver with a 16M table, 103.8M with the first guess: mobility
#: 1024, corners in it counted twice, potential mobility 64, parity 32, square value 1;
#: 82.8M with these).
W_MOBILITY = 1 << 10  # per reply of the opponent after the move (a corner reply: 3)
W_CORNER_STABILITY = 1 << 8  # per corner disc of the mover and its edge neighbours
W_OWN_MOBILITY = 1 << 5  # per move of the mover after the move
W_SQUARE = 1 << 3  # times the square's value
W_PARITY = 1 << 5  # a move into a quadrant with an odd number of empty squares


def corner_stability(x: int) -> int:
    """The discs of ``x`` on a corner or on an edge square next to a corner of ``x`` (they
    can never be turned over): Edax's ``get_corner_stability``."""
    return ((((x & 0x0100000000000001) << 1) | ((x & 0x8000000000000080) >> 1)
             | ((x & 0x0000000000000081) << 8) | ((x & 0x8100000000000000) >> 8)
             | CORNERS) & x).bit_count()


def order_score(p: int, o: int, sq: int) -> int:
    """How promising the move ``sq`` of ``p`` is for the exact solver (higher first).

    Fastest first: the opponent's replies after the move, the fewer the better, a corner
    reply counting three times; then the mover's stable corner discs, the mover's own
    mobility after the move, the square's value (Edax's table) and parity (a move into a
    quadrant with an odd number of empty squares). Integer weights keep the parts apart;
    the compiled solver (:mod:`.compiled`) computes the same number.
    """
    f = flips(p, o, sq)
    bit = 1 << sq
    p2, o2 = p | f | bit, o ^ f
    replies = legal_moves(o2, p2)
    score = (W_MOBILITY * (36 - replies.bit_count() - 2 * (replies & CORNERS).bit_count())
             + W_CORNER_STABILITY * corner_stability(p2)
             + W_OWN_MOBILITY * legal_moves(p2, o2).bit_count()
             + W_SQUARE * SQUARE_VALUE[sq])
    if ((~(p2 | o2) | bit) & QUADRANT_OF[sq]).bit_count() & 1:
        score += W_PARITY
    return score


# ----- the evaluation ---------------------------------------------------------------------
def evaluation(p: int, o: int, moves: int) -> int:
    """A heuristic of the final disc difference for ``p`` (to move, with legal ``moves``):
    corners, mobility, potential mobility (frontier) and X-squares next to empty corners,
    the classic features of the early programs (Rosenbloom's IAGO, Buro's Logistello
    before its patterns). Clamped to +-63: strictly inside the utilities."""
    own_moves = 0 if moves == PASS_BIT else moves.bit_count()
    their_moves = legal_moves(o, p).bit_count()
    empty = ~(p | o) & FULL
    corners = (p & CORNERS).bit_count() - (o & CORNERS).bit_count()
    x_squares = 0
    for corner, x in X_SQUARES.items():
        if empty & corner:
            x_squares += (1 if p & x else 0) - (1 if o & x else 0)
    # frontier: empty squares next to a disc; having fewer next to one's own is better
    potential = (neighbours(o) & empty).bit_count() - (neighbours(p) & empty).bit_count()
    v = 8 * corners - 4 * x_squares + 2 * (own_moves - their_moves) + potential
    return max(-63, min(63, v))


#: How :meth:`Othello.count_perft` may count (name -> what it counts; the first is the
#: default).
PERFT_CONVENTIONS = MappingProxyType({
    "perft": "leaves at depth D; a game over before depth D counts as one leaf; a pass "
             "is a ply (engine perft, Aart Bik's table)",
    "full_depth": "positions exactly D plies deep; games over earlier count 0; a pass is "
                  "a ply (OEIS A124004)",
})


class Othello(Game[OState, int]):
    """Othello (Reversi with the standard start), 8x8; see the module docstring."""

    name = "othello"
    description = "Othello 8x8, moves a1-h8 and pass, FFO/Edax board strings"
    num_players = 2
    game_type = GameType(num_players=2, alternating=True)
    #: Twice the largest disc difference, so that no utility is ever taken for a
    #: distance-discounted win: search treats values beyond ``max_utility / 2`` as wins
    #: ``d`` plies away (``search/common.py``: ``win_threshold``) and shifts them by ply in
    #: its transposition table. With 128 the disc differences (at most 64) stay below that
    #: threshold, nothing is discounted, and every value the solver sees is a disc count.
    max_utility = 128.0
    state_notation = (
        "64 characters a1..h1, a2..h2, ..., a8..h8 (X black, O white, - empty), a space and "
        "the side to move, X or O (e.g. the start: "
        "---------------------------OX------XO--------------------------- X)"
    )

    # ----- the textbook's six functions -----------------------------------------------
    def initial_state(self) -> OState:
        return make_state(0x0000000810000000, 0x0000001008000000, 0)

    def to_move(self, state: OState) -> int:
        return state[2]

    def actions(self, state: OState) -> list[int]:
        return squares(state[3])

    def result(self, state: OState, action: int) -> OState:
        p, o, side, _ = state
        if action == PASS:
            return (o, p, side ^ 1, legal_moves(o, p))
        f = flips(p, o, action)
        p2 = p | f | (1 << action)
        o2 = o ^ f
        m = legal_moves(o2, p2)
        if not m:
            m = PASS_BIT if legal_moves(p2, o2) else 0
        return (o2, p2, side ^ 1, m)

    def is_terminal(self, state: OState) -> bool:
        return not state[3]

    def utility(self, state: OState, player: int) -> float:
        v = final_score(state[0], state[1])
        return float(v if player == state[2] else -v)

    def terminal_utility(self, state: OState, player: int) -> float | None:
        if state[3]:
            return None
        v = final_score(state[0], state[1])
        return float(v if player == state[2] else -v)

    def returns(self, state: OState) -> tuple[float, float]:
        return (self.utility(state, 0), self.utility(state, 1))

    # ----- capabilities (gamesearch.capabilities) ------------------------------------------
    def evaluation(self, name: str | None = None) -> Evaluation[OState] | None:
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def move_ordering(self) -> MoveOrdering[OState, int]:
        return MoveOrdering(self.order_actions)

    def score_convention(self) -> ScoreConvention[OState]:
        """Disc differences (see :meth:`exact_score`)."""
        return ScoreConvention(self.exact_score, self.score_threshold)

    def playouts(self) -> Playouts[OState] | None:
        """Random playouts compiled with numba (:func:`.compiled.fast_playout`) when it is
        installed, for Monte Carlo tree search."""
        from . import compiled

        return Playouts(compiled=compiled.fast_playout) if compiled.available() else None

    def perft(self) -> Perft[OState]:
        """Two conventions (:data:`PERFT_CONVENTIONS`), counted by :meth:`count_perft`."""
        return Perft(PERFT_CONVENTIONS, self.count_perft)

    def drawing(self) -> Drawing[OState]:
        """The position as SVG, legal moves clickable (see :mod:`.svg`)."""
        from .svg import render

        return Drawing(partial(render, self))

    def evaluate(self, state: OState, player: int) -> float:
        v = evaluation(state[0], state[1], state[3])
        return float(v if player == state[2] else -v)

    def order_actions(self, state: OState, actions: Sequence[int]) -> list[int]:
        """The solver's ordering (:func:`order_score`, best first; ties keep the square
        order). A pass is alone, so it needs none."""
        p, o = state[0], state[1]
        if len(actions) < 2 or actions[0] == PASS:
            return list(actions)
        scored = sorted((-order_score(p, o, a), a) for a in actions)
        return [a for _, a in scored]

    def exact_score(self, state: OState, value: float) -> float:
        """Solved values are disc differences already; the solver's initial window
        (``+-max_utility``) is clamped to the possible ones, -64..64."""
        return float(max(-MAX_DISCS, min(MAX_DISCS, round(value))))

    def score_threshold(self, state: OState, score: float) -> float:
        return score

    def fast_solver(self) -> FastSolver | None:
        """The compiled endgame solver (:mod:`.compiled`) when numba is installed: the same
        scores and best moves as :func:`gamesearch.search.solve`, by Edax's endgame search
        (null-window probes, a two-bound table with moves, enhanced transposition and
        stability cut-offs, parity near the end), with its own node count."""
        from . import compiled

        return compiled.SOLVER if compiled.available() else None

    # ----- perft ----------------------------------------------------------------------
    def count_perft(self, state: OState, depth: int, convention: str | None = None) -> int:
        """The leaf count of the move tree ``depth`` plies deep in one of
        :data:`PERFT_CONVENTIONS` (the compiled counter when numba is installed)."""
        convention = convention or "perft"
        if convention not in PERFT_CONVENTIONS:
            raise InvalidLimitError(f"othello perft convention {convention!r}; allowed: "
                                    + ", ".join(PERFT_CONVENTIONS))
        if depth < 0:
            raise InvalidLimitError(f"perft depth {depth}: must be >= 0")
        from . import compiled

        if compiled.available():
            return compiled.perft(state, depth, convention == "full_depth")
        return perft(state, depth, convention == "full_depth")

    # ----- notation -------------------------------------------------------------------
    def format_action(self, state: OState, action: int) -> str:
        return square_name(action)

    def parse_action(self, state: OState, text: str) -> int:
        word = text.strip().lower()
        legal = self.legal_action_strings(state)
        if word == "pass":
            action = PASS
        elif len(word) == 2 and word[0] in "abcdefgh" and word[1] in "12345678":
            action = "abcdefgh".index(word[0]) + 8 * (int(word[1]) - 1)
        else:
            raise IllegalMoveError(text, legal, reason="a move is a square a1-h8 or pass")
        if not state[3] >> action & 1:
            reason = ("the side to move has no move and must pass" if state[3] == PASS_BIT
                      else "the game is over" if not state[3]
                      else "a pass is only legal without a move" if action == PASS
                      else "the square is taken" if (state[0] | state[1]) >> action & 1
                      else "the move turns no disc over")
            raise IllegalMoveError(text, legal, reason=reason)
        return action

    def format_state(self, state: OState) -> str:
        p, o, side, _ = state
        black, white = (p, o) if side == 0 else (o, p)
        board = "".join("X" if black >> i & 1 else "O" if white >> i & 1 else "-"
                        for i in range(64))
        return f"{board} {'XO'[side]}"

    def split_position_line(self, line: str) -> tuple[str, str]:
        # The board and the side to move are two words.
        words = line.split(None, 2)
        return " ".join(words[:2]), (words[2].strip() if len(words) > 2 else "")

    def parse_state(self, text: str) -> OState:
        words = text.split()
        shown = text.strip()[:80]
        if len(words) != 2:
            raise InvalidPositionError(
                f"othello position {shown!r}: expected the board and the side to move; "
                f"{self.state_notation}")
        board, who = words
        if len(board) != 64:
            raise InvalidPositionError(
                f"othello position {shown!r}: the board has {len(board)} characters, "
                "not 64 (one per square, a1..h1, a2..h2, ..., a8..h8)")
        bad = sorted({c for c in board if c not in "XOxo-."})
        if bad:
            raise InvalidPositionError(
                f"othello position {shown!r}: bad board character(s) {''.join(bad)!r}; "
                "allowed: X (black), O (white), - or . (empty)")
        if who.upper() not in ("X", "O"):
            raise InvalidPositionError(
                f"othello position {shown!r}: side to move {who!r}; allowed: X (black) "
                "or O (white)")
        black = sum(1 << i for i, c in enumerate(board) if c in "Xx")
        white = sum(1 << i for i, c in enumerate(board) if c in "Oo")
        if (black | white) & CENTRE != CENTRE:
            raise InvalidPositionError(
                f"othello position {shown!r}: d4, e4, d5 and e5 are never empty in Othello "
                "(the game starts with a disc on each)")
        side = 0 if who.upper() == "X" else 1
        return make_state(black, white, 0) if side == 0 else make_state(white, black, 1)

    def render(self, state: OState) -> str:
        p, o, side, moves = state
        black, white = (p, o) if side == 0 else (o, p)
        rows = ["  a b c d e f g h"]
        for r in range(8):
            cells = []
            for c in range(8):
                bit = 1 << (8 * r + c)
                cells.append("X" if black & bit else "O" if white & bit
                             else "*" if moves & bit else ".")
            rows.append(f"{r + 1} " + " ".join(cells))
        nb, nw = black.bit_count(), white.bit_count()
        to_move = "game over" if not moves else f"{'XO'[side]} to move" + (
            " (must pass)" if moves == PASS_BIT else "")
        rows.append(f"X {nb}  O {nw}  {to_move}")
        return "\n".join(rows)


# ----- perft ------------------------------------------------------------------------------
def perft(state: OState, depth: int, full_depth: bool = False) -> int:
    """The leaves of the move tree ``depth`` plies deep (a pass is a ply). A game over
    before ``depth`` counts as one leaf, or as none with ``full_depth`` (positions exactly
    ``depth`` plies deep, OEIS A124004). The plain Python counter, the reference of the
    compiled one."""
    p, o, _, moves = state
    if depth == 0:
        return 1
    if not moves:
        return 0 if full_depth else 1
    if depth == 1:
        return moves.bit_count()  # (a pass is one bit too)
    if moves == PASS_BIT:
        return perft(make_state(o, p, 0), depth - 1, full_depth)
    total = 0
    for sq in squares(moves):
        f = flips(p, o, sq)
        total += perft(make_state(o ^ f, p | f | (1 << sq), 0), depth - 1, full_depth)
    return total


def _check_state(state: Any) -> OState:
    """``state`` if it is an Othello state (a tuple of four ints), else a clear error."""
    if not (type(state) is tuple and len(state) == 4
            and all(type(x) is int for x in state)):
        raise InvalidPositionError(f"othello state {state!r:.80}: expected (mover, other, "
                                   "side, moves) as Othello.parse_state returns")
    return state
