"""The rules of Connect Four on the standard 7-column, 6-row board, with bitboards in Pascal
Pons's layout.

Board layout (Pons, "Solving Connect 4"): 7 bits per column, 6 cells and one sentinel bit on
top that always stays empty, so bit ``col * 7 + row`` is the cell in column ``col`` (0 = left)
and row ``row`` (0 = bottom)::

    .  .  .  .  .  .  .     <- sentinel row 6 (always empty)
    5 12 19 26 33 40 47
    4 11 18 25 32 39 46
    3 10 17 24 31 38 45
    2  9 16 23 30 37 44
    1  8 15 22 29 36 43
    0  7 14 21 28 35 42

State: a tuple ``(current, mask, moves, score)``:

* ``current`` -- bitboard of the stones of the side to move (Pons's ``current_position``);
* ``mask`` -- bitboard of all stones;
* ``moves`` -- stones played so far; the side to move is ``moves & 1`` (0 = first player);
* ``score`` -- the evaluation E (below) for the side to move, as a float, kept up to date
  by :meth:`ConnectFour.result` so that :meth:`ConnectFour.evaluate` is a tuple lookup.

``moves`` and ``score`` are functions of the position, so equal positions are equal states.
Measured in CPython 3.11 (depth-8 alpha-beta from the empty board): carrying E in the state
costs one table lookup more per ``result`` and makes ``evaluate`` a tuple lookup (~70 ns instead of
~580 ns from four 2-column lookup tables), ~35 % more nodes/s overall; computing the win test
in ``result`` and storing a flag was slower than testing in ``terminal_utility``; indexing the
tuple was as fast as unpacking it. The stones of the player who just moved are
``current ^ mask``.

Actions are columns 0-6, written ``1``-``7``. Positions are written as Pons's move strings:
the columns played from the empty board, one digit 1-7 per move, first player first (``""``
is the empty board, ``"4455"`` four moves). Utilities are +1000 / 0 / -1000; the heuristic
:meth:`ConnectFour.evaluate` is the peers' evaluation E: own minus opponent sum of cell
weights, a cell's weight being the number of four-in-a-row windows through it (at most 276
in absolute value, so a win always dominates it).

The methods after the rules and the capabilities (``winning_columns``,
``possible_non_losing_moves``, ``count_threats``, ...) are Connect Four knowledge for a
Pons-style exact solver. The game's capabilities (:mod:`gamesearch.capabilities`) offer the
rest of the package: the opening book (:mod:`.book`), its builder, the compiled solver
(:mod:`.compiled`), compiled playouts (:mod:`.playout`), and the ``solver`` agent as the
default opponent of ``gamesearch play``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from ...capabilities import (
    Book,
    Drawing,
    Evaluation,
    FastSolver,
    MatchHooks,
    MoveOrdering,
    Playouts,
    SafeMoves,
    ScoreConvention,
)
from ...errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from ...game import Game, GameType

WIDTH = 7
HEIGHT = 6
H1 = HEIGHT + 1  # bits per column: the cells and the sentinel

#: ``(current, mask, moves, score)``, see the module docstring.
C4State = tuple[int, int, int, float]

WIN = 1000.0
NUM_CELLS = WIDTH * HEIGHT

ORDERS = {
    "natural": (0, 1, 2, 3, 4, 5, 6),
    "center": (3, 2, 4, 1, 5, 0, 6),
}
#: Rank of each column in the centre-first order (for ``order_actions``).
CENTER_RANK = tuple(ORDERS["center"].index(c) for c in range(WIDTH))
CENTER_ORDER = ORDERS["center"]

#: The bottom cell of each column.
BOTTOM = tuple(1 << (c * H1) for c in range(WIDTH))
BOTTOM_ALL = sum(BOTTOM)
#: The six cells of each column.
COLUMN_MASK = tuple(((1 << HEIGHT) - 1) << (c * H1) for c in range(WIDTH))
#: The top cell of each column: the column is full when it is set in ``mask``.
TOP = tuple(1 << (c * H1 + HEIGHT - 1) for c in range(WIDTH))
TOP_ALL = sum(TOP)
#: All 42 cells (no sentinels).
BOARD = BOTTOM_ALL * ((1 << HEIGHT) - 1)


def _cell(col: int, row: int) -> int:
    return 1 << (col * H1 + row)


def _windows() -> list[int]:
    """Every four-in-a-row window of the board as a bitboard (69 of them)."""
    out = []
    for c in range(WIDTH):
        for r in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= cc < WIDTH and 0 <= rr < HEIGHT for cc, rr in cells):
                    out.append(sum(_cell(cc, rr) for cc, rr in cells))
    return out


WINDOWS = tuple(_windows())
#: WEIGHT[col][row]: the number of four-windows through the cell (the peers' E table).
WEIGHT = tuple(
    tuple(sum(1 for w in WINDOWS if w & _cell(c, r)) for r in range(HEIGHT)) for c in range(WIDTH)
)
#: The weight of a cell keyed by its one-bit bitboard, as a float (for ``result``).
_CELL_WEIGHT = {_cell(c, r): float(WEIGHT[c][r]) for c in range(WIDTH) for r in range(HEIGHT)}
_NEG_CELL_WEIGHT = {cell: -w for cell, w in _CELL_WEIGHT.items()}


def _actions_by_top(order: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """For every set of full columns (``mask & TOP_ALL``), the open columns in ``order``."""
    table = {}
    for full in range(1 << WIDTH):
        top = sum(TOP[c] for c in range(WIDTH) if full >> c & 1)
        table[top] = tuple(c for c in order if not full >> c & 1)
    return table


def has_four(p: int) -> bool:
    """True when the bitboard ``p`` contains four in a row (any of the four directions)."""
    m = p & p >> H1  # horizontal
    if m & m >> 2 * H1:
        return True
    m = p & p >> 1  # vertical
    if m & m >> 2:
        return True
    m = p & p >> HEIGHT  # diagonal, down to the right
    if m & m >> 2 * HEIGHT:
        return True
    m = p & p >> (H1 + 1)  # diagonal, up to the right
    return bool(m & m >> 2 * (H1 + 1))


def winning_cells(position: int, mask: int) -> int:
    """The empty cells that would complete a four for the stones ``position`` (a bitboard).

    Pons's ``compute_winning_position``: for each direction, a cell wins when the three cells
    before it, after it, or around it on that line belong to ``position``. The sentinel row
    stops lines wrapping from one column to the next; cells beyond the board are masked off.
    """
    # vertical: three stones just below
    r = (position << 1) & (position << 2) & (position << 3)
    # the other three directions (shift 7: horizontal, 6 and 8: the diagonals), unrolled:
    # with a = one step back and b = one step ahead on the line, a cell wins when
    # (a, two back) and (three back or b), or (b, two ahead) and (a or three ahead)
    a = position << 7
    b = position >> 7
    r |= a & (position << 14) & ((position << 21) | b) | b & (position >> 14) & (
        a | (position >> 21))
    a = position << 6
    b = position >> 6
    r |= a & (position << 12) & ((position << 18) | b) | b & (position >> 12) & (
        a | (position >> 18))
    a = position << 8
    b = position >> 8
    r |= a & (position << 16) & ((position << 24) | b) | b & (position >> 16) & (
        a | (position >> 24))
    return r & (BOARD ^ mask)


def possible(mask: int) -> int:
    """The cells where a stone can be played now: the lowest empty cell of each open column."""
    return (mask + BOTTOM_ALL) & BOARD


def columns_of(bits: int, order: Sequence[int] = ORDERS["natural"]) -> tuple[int, ...]:
    """The columns (in ``order``) that have at least one cell set in the bitboard ``bits``."""
    return tuple(c for c in order if bits & COLUMN_MASK[c])


def mirror_bits(x: int) -> int:
    """A bitboard (or a Pons key) mirrored left to right: column ``c`` becomes ``6 - c``."""
    return (
        (x & 0x7F) << 42
        | (x >> 7 & 0x7F) << 35
        | (x >> 14 & 0x7F) << 28
        | x & (0x7F << 21)
        | (x >> 28 & 0x7F) << 14
        | (x >> 35 & 0x7F) << 7
        | x >> 42
    )


def _weight_sum(bits: int) -> float:
    return sum(w for cell, w in _CELL_WEIGHT.items() if bits & cell)


class ConnectFour(Game[C4State, int]):
    name = "connect4"
    description = "Connect Four, 7 columns x 6 rows; columns 1-7 from the left"
    num_players = 2
    game_type = GameType(num_players=2, alternating=True)
    max_utility = WIN
    state_notation = (
        "Pons move string: the columns played from the empty board, one digit 1-7 per move, "
        "first player first (e.g. 4455; empty string = empty board)"
    )

    def __init__(self, order: str = "natural") -> None:
        if order not in ORDERS:
            raise InvalidLimitError(f"connect4 order {order!r}; allowed: {', '.join(ORDERS)}")
        self.order = order
        self._order = ORDERS[order]
        self._actions = _actions_by_top(self._order)
        #: the columns (in ``order``) for a set of columns given as their bottom cells
        self._by_bottoms = {
            sum(BOTTOM[c] for c in range(WIDTH) if cols >> c & 1): tuple(
                c for c in self._order if cols >> c & 1)
            for cols in range(1 << WIDTH)
        }

    # ----- the textbook's six functions -----------------------------------------------
    def initial_state(self) -> C4State:
        return (0, 0, 0, 0.0)

    def to_move(self, state: C4State) -> int:
        return state[2] & 1

    def actions(self, state: C4State) -> Sequence[int]:
        return self._actions[state[1] & TOP_ALL]

    def result(self, state: C4State, action: int) -> C4State:
        mask = state[1]
        new_mask = mask | (mask + BOTTOM[action])
        return (
            state[0] ^ mask,
            new_mask,
            state[2] + 1,
            _NEG_CELL_WEIGHT[new_mask ^ mask] - state[3],  # one float operation, not two
        )

    def is_terminal(self, state: C4State) -> bool:
        return state[2] == NUM_CELLS or has_four(state[0] ^ state[1])

    def utility(self, state: C4State, player: int) -> float:
        if has_four(state[0] ^ state[1]):  # the player who just moved has won
            return WIN if (state[2] ^ player) & 1 else -WIN
        return 0.0

    def terminal_utility(self, state: C4State, player: int) -> float | None:
        # has_four inlined: this runs at every node of a search.
        p = state[0] ^ state[1]
        m = p & p >> 7
        if m & m >> 14:
            return WIN if (state[2] ^ player) & 1 else -WIN
        m = p & p >> 1
        if m & m >> 2:
            return WIN if (state[2] ^ player) & 1 else -WIN
        m = p & p >> 6
        if m & m >> 12:
            return WIN if (state[2] ^ player) & 1 else -WIN
        m = p & p >> 8
        if m & m >> 16:
            return WIN if (state[2] ^ player) & 1 else -WIN
        if state[2] == 42:
            return 0.0
        return None

    def returns(self, state: C4State) -> tuple[float, float]:
        u = self.utility(state, 0)
        return (u, -u)

    # ----- capabilities (gamesearch.capabilities) ---------------------------------------
    def evaluation(self, name: str | None = None) -> Evaluation[C4State] | None:
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def move_ordering(self) -> MoveOrdering[C4State, int]:
        return MoveOrdering(self.order_actions)

    def safe_moves(self) -> SafeMoves[C4State, int]:
        return SafeMoves(self.winning_action, self.safe_actions, self.plies_left_bound)

    def score_convention(self) -> ScoreConvention[C4State]:
        """Pons's scores (see :meth:`exact_score`)."""
        return ScoreConvention(self.exact_score, self.score_threshold)

    def match_hooks(self) -> MatchHooks:
        """Perfect play against a person: the opening book, then the exact solver (see
        ``SolverAgent``)."""
        return MatchHooks(default_opponent="solver")

    def drawing(self) -> Drawing[C4State]:
        """The position as SVG, legal moves clickable (see :mod:`.svg`)."""
        from .svg import render

        return Drawing(partial(render, self))

    def playouts(self) -> Playouts[C4State] | None:
        """Random playouts compiled with numba (:mod:`.playout`) when it is installed; the
        import (numba's load) happens at the first call."""
        from . import playout

        return None if playout.PLAYOUT is None else Playouts(compiled=playout.PLAYOUT)

    def evaluate(self, state: C4State, player: int) -> float:
        """The peers' E for ``player``: own minus opponent sum of cell weights."""
        return state[3] if state[2] & 1 == player else 0.0 - state[3]  # never -0.0

    def key(self, state: C4State) -> int:
        """Pons's key ``current + mask``: one int below 2**49, unique per position."""
        return state[0] + state[1]

    def mirror_key(self, state: C4State) -> int:
        """The key of the mirror image of the position (columns 1-7 read as 7-1)."""
        return mirror_bits(state[0] + state[1])

    def canonical_key(self, state: C4State) -> int:
        """A key shared by the position and its mirror image: the smaller of the two keys."""
        k = state[0] + state[1]
        m = mirror_bits(k)
        return k if k <= m else m

    def order_actions(self, state: C4State, actions: Sequence[int]) -> Sequence[int]:
        """Pons's order: most threats created first (empty cells the mover would then win
        on), ties centre first (3, 2, 4, 1, 5, 0, 6)."""
        cur, mask = state[0], state[1]
        keyed = []
        for c in actions:
            moved = (mask + BOTTOM[c]) & COLUMN_MASK[c]
            # one int per move, -8 * threats + centre rank: sorts like the pair, no tuples
            keyed.append(-winning_cells(cur | moved, mask).bit_count() << 3 | CENTER_RANK[c])
        keyed.sort()
        return [CENTER_ORDER[k & 7] for k in keyed]

    # ----- Pons's pruning and scores (the safe_moves and score_convention capabilities) ----
    def winning_action(self, state: C4State) -> int | None:
        """A column that wins at once for the side to move (centre first), or None."""
        cur, mask = state[0], state[1]
        wins = winning_cells(cur, mask) & possible(mask)
        if not wins:
            return None
        for c in ORDERS["center"]:
            if wins & COLUMN_MASK[c]:
                return c
        return None  # pragma: no cover - wins is a playable cell of some column

    def safe_actions(self, state: C4State) -> Sequence[int]:
        """Pons's non-losing moves: never leave the opponent a win at once."""
        bits = self.non_losing_moves_mask(state)
        # At most one cell per column: sliding each down to its column's bottom cell (a
        # shift of at most 5 never reaches the next column's bottom) names the columns.
        return self._by_bottoms[
            (bits | bits >> 1 | bits >> 2 | bits >> 3 | bits >> 4 | bits >> 5) & BOTTOM_ALL
        ]

    def plies_left_bound(self, state: C4State) -> int:
        return NUM_CELLS - state[2]

    def exact_score(self, state: C4State, value: float) -> float:
        """Pons's score of the root ``state`` from a solved value (see the data README):
        ``±(22 - k)`` for a win/loss with the winner's ``k``-th stone, 0 for a draw."""
        if abs(value) < WIN / 2:
            return 0.0 if value == 0 else value  # a draw, or a heuristic value (not solved)
        end_ply = state[2] + round(WIN - abs(value))  # stones on the board when it ends
        score = (44 - end_ply) // 2
        return float(score if value > 0 else -score)

    def score_threshold(self, state: C4State, score: float) -> float:
        left = NUM_CELLS - state[2]
        s = int(score)
        if s >= 0:  # Pons score > s  <=>  a win within left - 2s plies
            return WIN - (left - 2 * s) - 0.5
        return -(WIN - (left + 2 + 2 * s))  # > s  <=>  not a loss within left + 2 + 2s plies

    # ----- the book and the compiled solver ----------------------------------------------
    def opening_book(self, spec: str | None = None) -> Book | None:
        """The package's opening book (:mod:`.book`) for ``spec`` ``None`` or on, none for
        off, else the book file ``spec``; scores in Pons's convention, columns as moves."""
        from .book import load_book

        return load_book(spec)

    def book_builder(self) -> Callable[..., Book]:
        """:func:`.book.build_book`: the policy book, solved with the compiled solver."""
        from .book import build_book

        return build_book

    def fast_solver(self) -> FastSolver | None:
        """The compiled solver (:mod:`.compiled`) when numba is installed. Only for the
        natural action order: the compiled code lists and probes the best moves in that
        order, so in another its moves could differ from the Python solver's."""
        if self.order != "natural":
            return None
        from . import compiled

        return compiled.SOLVER if compiled.available() else None

    # ----- notation ------------------------------------------------------------------
    def format_action(self, state: C4State, action: int) -> str:
        return str(action + 1)

    def parse_action(self, state: C4State, text: str) -> int:
        text = text.strip()
        legal = [str(c + 1) for c in self._order if not state[1] & TOP[c]]
        if len(text) != 1 or text not in "1234567":
            raise IllegalMoveError(text, legal, reason="a move is a column number 1-7")
        col = int(text) - 1
        if state[1] & TOP[col]:
            raise IllegalMoveError(text, legal, reason=f"column {text} is full")
        return col

    def format_state(self, state: C4State) -> str:
        """A Pons move string that reaches the position (one of them, if there are several)."""
        moves = self._move_sequence(state)
        if moves is None:
            raise InvalidPositionError(
                f"connect4 state {state!r}: no legal sequence of moves reaches it"
            )
        return "".join(str(c + 1) for c in moves)

    def format_line(self, start: C4State, actions: Sequence[int]) -> str:
        """The start's move string, then the moves in the order played (``format_state``
        of the end would give one sequence reaching it, not necessarily this one)."""
        return self.format_state(start) + "".join(str(c + 1) for c in actions)

    def parse_state(self, text: str) -> C4State:
        text = text.strip()
        state = self.initial_state()
        for i, ch in enumerate(text):
            where = f"connect4 position {text!r}: move {i + 1} ({ch!r})"
            if ch not in "1234567":
                raise InvalidPositionError(
                    f"{where} is not a column; allowed: digits 1-7 (columns from the left), "
                    "e.g. '4455'"
                )
            if i and self.terminal_utility(state, 0) is not None:
                raise InvalidPositionError(
                    f"{where} comes after the end of the game: move {i} "
                    + ("won it" if has_four(state[0] ^ state[1]) else "filled the board")
                )
            col = ord(ch) - ord("1")
            if state[1] & TOP[col]:
                raise InvalidPositionError(
                    f"{where} plays a 7th stone in column {ch}, which holds only {HEIGHT}; "
                    f"allowed: columns that are not full "
                    f"({', '.join(str(c + 1) for c in range(WIDTH) if not state[1] & TOP[c])})"
                )
            state = self.result(state, col)
        return state

    def render(self, state: C4State) -> str:
        """The board, top row first: X = first player, O = second, columns numbered below."""
        cur, mask, n, _ = state
        first = cur if n & 1 == 0 else cur ^ mask
        rows = []
        for r in reversed(range(HEIGHT)):
            cells = []
            for c in range(WIDTH):
                bit = _cell(c, r)
                cells.append("X" if first & bit else "O" if mask & bit else ".")
            rows.append(" ".join(cells))
        rows.append(" ".join(str(c + 1) for c in range(WIDTH)))
        return "\n".join(rows)

    # ----- Connect Four knowledge (for a Pons-style solver) ---------------------------
    def state_from_bitboards(self, current: int, mask: int) -> C4State:
        """The state with side-to-move stones ``current`` and all stones ``mask``.

        Raises :class:`InvalidPositionError` if the bitboards are not a position (stones
        outside the board or floating, ``current`` not inside ``mask``, wrong stone counts,
        a four for the side to move).
        """
        n = mask.bit_count()
        if (
            mask & ~BOARD
            or current & ~mask
            or any((m := mask >> (c * H1) & 0x7F) & (m + 1) for c in range(WIDTH))  # gaps
            or current.bit_count() != n // 2
            or has_four(current)
        ):
            raise InvalidPositionError(
                f"connect4 bitboards current={current:#x} mask={mask:#x}: not a position; "
                "stones must stack from the bottom of each column of the 7x6 board, the side "
                "to move must have as many stones as the other player or one fewer, and no "
                "four in a row"
            )
        first = current if n & 1 == 0 else current ^ mask
        score = _weight_sum(first) - _weight_sum(mask ^ first)
        return (current, mask, n, score if n & 1 == 0 else -score)

    def moves_played(self, state: C4State) -> int:
        """The number of stones on the board."""
        return state[2]

    def can_play(self, state: C4State, col: int) -> bool:
        """True when column ``col`` (0-6) is not full."""
        return not state[1] & TOP[col]

    def winning_cells(self, state: C4State) -> int:
        """Bitboard of the empty cells that would complete a four for the side to move."""
        return winning_cells(state[0], state[1])

    def opponent_winning_cells(self, state: C4State) -> int:
        """Bitboard of the empty cells that would complete a four for the other player."""
        return winning_cells(state[0] ^ state[1], state[1])

    def can_win_next(self, state: C4State) -> bool:
        """True when the side to move can win with its next stone."""
        return bool(winning_cells(state[0], state[1]) & possible(state[1]))

    def winning_columns(self, state: C4State) -> tuple[int, ...]:
        """The columns (in action order) where the side to move wins at once."""
        return columns_of(winning_cells(state[0], state[1]) & possible(state[1]), self._order)

    def opponent_winning_columns(self, state: C4State) -> tuple[int, ...]:
        """The columns where the opponent would win at once if it were its turn to move."""
        cur, mask = state[0], state[1]
        return columns_of(winning_cells(cur ^ mask, mask) & possible(mask), self._order)

    def non_losing_moves_mask(self, state: C4State) -> int:
        """Pons's ``possibleNonLosingMoves`` as a bitboard of playable cells.

        The moves after which the opponent cannot win at once: if the opponent threatens
        two playable cells, none; if one, only the block; never the cell just below an
        opponent winning cell. Meant for positions where the side to move cannot win at
        once (check :meth:`can_win_next` first): a winning move may be left out.
        """
        cur, mask = state[0], state[1]
        moves = possible(mask)
        threats = winning_cells(cur ^ mask, mask)
        forced = moves & threats
        if forced:
            if forced & (forced - 1):  # two forced blocks: the opponent wins anyway
                return 0
            moves = forced
        return moves & ~(threats >> 1)

    def possible_non_losing_moves(self, state: C4State) -> tuple[int, ...]:
        """The columns of :meth:`non_losing_moves_mask`, in action order."""
        return columns_of(self.non_losing_moves_mask(state), self._order)

    def count_threats(self, state: C4State, col: int) -> int:
        """How many empty cells complete a four for the side to move after it plays ``col``.

        Pons's move-ordering score (his version counts with the mask before the move, which
        differs only when ``col`` itself wins at once).
        """
        mask = state[1]
        if mask & TOP[col]:
            raise IllegalMoveError(str(col + 1), reason=f"column {col + 1} is full")
        new_mask = mask | (mask + BOTTOM[col])
        return winning_cells(state[0] | (new_mask ^ mask), new_mask).bit_count()

    def mirror(self, state: C4State) -> C4State:
        """The position reflected left to right (same side to move, same E)."""
        return (mirror_bits(state[0]), mirror_bits(state[1]), state[2], state[3])

    # ----- helpers ---------------------------------------------------------------------
    def _move_sequence(self, state: C4State) -> list[int] | None:
        """Columns of a legal game reaching ``state``, found by taking stones off the top.

        The last stone taken must belong to the player who moved last; if the position is
        won, the first stone taken off must undo every four (earlier positions had none).
        Dead ends (stone orders that cannot alternate) are remembered by their mask.
        """
        cur, mask, n, _ = state
        stones = [cur ^ mask, cur]  # [stones of the player who moved last, of the other]
        if n == 0:
            return []
        won = has_four(stones[0])
        dead: set[int] = set()

        def undo(mask: int, own: int, other: int, k: int, must_unwin: bool) -> list[int] | None:
            # ``own``: stones of the player who played stone k (the last one left).
            if k == 0:
                return []
            if mask in dead:
                return None
            for c in reversed(range(WIDTH)):
                col = mask & COLUMN_MASK[c]
                if not col:
                    continue
                top = 1 << (col.bit_length() - 1)
                if not own & top:
                    continue
                if must_unwin and has_four(own ^ top):
                    continue
                rest = undo(mask ^ top, other, own ^ top, k - 1, False)
                if rest is not None:
                    rest.append(c)
                    return rest
            dead.add(mask)
            return None

        return undo(mask, stones[0], stones[1], n, won)
