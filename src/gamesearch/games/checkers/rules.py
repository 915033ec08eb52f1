"""English draughts (American checkers): the rules, PDN notation, perft and what the engine
asks (an evaluation of weighted features, a move ordering, captures as tactics).

Rules (the English Draughts Association's and the American Checker Federation's laws):

* 8x8 board, the 32 dark squares numbered 1-32 (:mod:`.board`); twelve men a side, Black on
  1-12, White on 21-32; **Black moves first** (player 0 is Black, player 1 White);
* a man steps one square diagonally forward; a king one square diagonally either way;
* a capture (jump) goes over a diagonally adjacent opposing piece to the empty square
  beyond, forward only for a man, either way for a king. **Capturing is compulsory**: when
  the side to move has a jump, it must make one -- any one, not necessarily the longest --
  and then must complete the chain, jumping on with the same piece while it can. A piece
  is jumped at most once per chain, and the jumped pieces leave the board when the move
  ends (so no chain lands on one);
* a man that reaches the far row (Black's 29-32, White's 1-4) is crowned king, and **its
  move ends there**, even when it could jump on as a king;
* the side to move that has no legal move (no piece left, or all blocked) **loses**;
* **move-limit draw** (the 40-move rule of the laws, made automatic): the game is drawn
  once ``draw_plies`` plies (default 80: forty moves by each side) have been played in a
  row without a capture and without a man's move. It is checked first: the position that
  completes the count is a draw even if the side to move there has no move. The option
  ``draw_count=captures`` counts as OpenSpiel's ``checkers`` does (with ``draw_plies=40``:
  40 plies without a capture; a man's move does not reset the count), so that the engine
  knows the rule of a game played against OpenSpiel;
* **repetition draw**: the game is drawn when a position (the pieces and the side to move)
  occurs for the third time. Only positions since the last capture or man's move can
  repeat (those moves cannot be undone), so the state keeps just those.

Notation: a move is its path of squares: ``11-15`` a step, ``22x15`` a jump, ``9x18x27`` a
chain; a chain may be given by its end squares alone (``9x27``) when that is unambiguous.
Positions are PDN FEN: ``B:W21,22,K30:B1,2,K5`` (the side to move, then each colour's
squares, ``K`` before a king; ranges ``21-24`` are read too). A FEN has no move counter or
history: a position read from it starts with none.

State: :class:`CheckersState`, a named tuple ``(black, white, kings, side, quiet, history,
moves)``:

* ``black``/``white`` -- the squares of each colour's pieces; ``kings`` -- the squares of
  both colours' kings (bitboards, bit ``i - 1`` = square ``i``); ``side`` -- 0 Black to move,
  1 White;
* ``quiet`` -- plies played since the last capture or man's move (the move-limit count;
  since the last capture under ``draw_count=captures``);
* ``history`` -- the :func:`position_key` of each position since the last capture or man's
  move, before this one (the repetition rule reads it);
* ``moves`` -- the legal moves of the side to move, each the tuple of square bits it
  visits; empty when the game is over. :meth:`Checkers.result` works it out once for each
  new position (as Othello does), so ``actions`` and the terminal test cost nothing.

The transposition key (:meth:`Checkers.key`) is :func:`position_key` (the pieces and the
side to move) and, after a king's move, the move-limit count and the positions since the
last capture or man's move: what the draw rules read, so that a value stored in a table
holds wherever the key recurs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from importlib import import_module
from types import MappingProxyType
from typing import Any, NamedTuple

from ...argtypes import ascii_digits
from ...capabilities import (
    Drawing,
    EndgameDatabase,
    Evaluation,
    MoveOrdering,
    Perft,
    Tactics,
)
from ...errors import (
    IllegalMoveError,
    InvalidLimitError,
    InvalidPositionError,
    UnsupportedGameError,
    echo,
)
from ...game import Game, GameType
from ...spec import GameOption, read_int
from .board import CROWN_ROW, FULL, JUMPED, ROW, bits, generate_moves, mobility, row_col

#: A move: the square bits (0-31) it visits, start first.
Move = tuple[int, ...]
BLACK, WHITE = 0, 1
SIDE_NAMES = ("Black", "White")
#: Twelve men a side on 1-12 (Black) and 21-32 (White).
START_BLACK = 0x00000FFF
START_WHITE = 0xFFF00000
#: The default move limit: 80 plies (40 moves each) without a capture or a man's move.
DRAW_PLIES = 80
#: What resets the move-limit count (the ``draw_count`` option): the laws' "a capture or a
#: man's move" (the default), or OpenSpiel's "a capture" alone.
DRAW_COUNTS = ("captures_or_men", "captures")
MAX_PIECES = 12
#: The start position in PDN FEN.
START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


class CheckersState(NamedTuple):
    """A checkers position and what the draw rules need (see the module docstring)."""

    black: int
    white: int
    kings: int
    side: int
    quiet: int
    history: tuple[int, ...]
    moves: tuple[Move, ...]

    @property
    def black_men(self) -> int:
        return self.black & ~self.kings

    @property
    def black_kings(self) -> int:
        return self.black & self.kings

    @property
    def white_men(self) -> int:
        return self.white & ~self.kings

    @property
    def white_kings(self) -> int:
        return self.white & self.kings


_new_state = tuple.__new__


def position_key(black: int, white: int, kings: int, side: int) -> int:
    """One int for the pieces and the side to move (the repetition rule's and the
    transposition table's key)."""
    return black | white << 32 | kings << 64 | side << 96


def make_state(black: int, white: int, kings: int, side: int, quiet: int = 0,
               history: tuple[int, ...] = (), draw_plies: int = DRAW_PLIES) -> CheckersState:
    """The state of a position, its legal moves worked out (none when a draw rule ends the
    game there)."""
    if quiet >= draw_plies or (history and history.count(
            position_key(black, white, kings, side)) >= 2):
        moves: tuple[Move, ...] = ()
    elif side == BLACK:
        moves = tuple(generate_moves(black, white, kings, BLACK))
    else:
        moves = tuple(generate_moves(white, black, kings, WHITE))
    return _new_state(CheckersState, (black, white, kings, side, quiet, history, moves))


def is_jump(move: Move) -> bool:
    """Whether ``move`` is a capture (its first leg spans two rows)."""
    return abs(ROW[move[0]] - ROW[move[1]]) == 2


def play_move(state: CheckersState, move: Move, draw_plies: int = DRAW_PLIES,
              captures_only: bool = False) -> CheckersState:
    """The position after ``move`` (a legal move of ``state``; not checked here);
    ``captures_only``: only a capture resets the move-limit count (OpenSpiel's rule; a
    man's move still clears the repetition history, since nothing before it can recur)."""
    black, white, kings, side, quiet, history, _ = state
    start, end = move[0], move[-1]
    start_bit, end_bit = 1 << start, 1 << end
    captured = 0
    if abs(ROW[start] - ROW[move[1]]) == 2:
        prev = start
        for sq in move[1:]:
            captured |= JUMPED[prev * 32 + sq]
            prev = sq
    king = kings & start_bit
    if side == BLACK:
        black = black ^ start_bit | end_bit
        white &= ~captured
    else:
        white = white ^ start_bit | end_bit
        black &= ~captured
    kings &= ~captured
    if king:
        kings = kings ^ start_bit | end_bit
    elif end_bit & CROWN_ROW[side]:
        kings |= end_bit
    if captured:
        quiet, history = 0, ()
    elif not king:
        quiet, history = (quiet + 1 if captures_only else 0), ()
    else:
        quiet += 1
        history = (*history, position_key(state[0], state[1], state[2], side))
    return make_state(black, white, kings, side ^ 1, quiet, history, draw_plies)


def is_drawn(state: CheckersState, draw_plies: int = DRAW_PLIES) -> bool:
    """Whether a draw rule (the move limit, or a third repetition) ends the game here."""
    return state.quiet >= draw_plies or (bool(state.history) and state.history.count(
        position_key(state.black, state.white, state.kings, state.side)) >= 2)


# ----- notation ----------------------------------------------------------------------------
def format_move(move: Move) -> str:
    """``11-15``, ``22x15``, ``9x18x27`` (squares 1-32)."""
    return ("x" if is_jump(move) else "-").join(str(sq + 1) for sq in move)


def _fen_squares(text: str, shown: str) -> tuple[int, int]:
    """The men and the kings of one colour's FEN field (``21,22,K30``, ranges ``21-24``)."""
    men = kings = 0
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        king = item[0] in "Kk"
        if king:
            item = item[1:]
        low, sep, high = item.partition("-")
        if not ascii_digits(low) or (sep and not ascii_digits(high)) or len(item) > 5:
            raise InvalidPositionError(
                f"checkers FEN {shown}: bad square {echo(item)}; squares are 1-32, a king "
                "K30, a range 21-24")
        first, last = int(low), int(high) if sep else int(low)
        if not (1 <= first <= last <= 32):
            raise InvalidPositionError(f"checkers FEN {shown}: square(s) {echo(item)} "
                                       "outside 1-32")
        for sq in range(first - 1, last):
            bit = 1 << sq
            if (men | kings) & bit:
                raise InvalidPositionError(f"checkers FEN {shown}: square {sq + 1} listed "
                                           "twice")
            if king:
                kings |= bit
            else:
                men |= bit
    return men, kings


def parse_fen(text: str) -> tuple[int, int, int, int]:
    """``(black, white, kings, side)`` of a PDN FEN (``B:W21,22,K30:B1,2,K5``); a clear
    :class:`InvalidPositionError` for anything else or an impossible position."""
    shown = echo(text.strip(), 80)
    body = text.strip().strip("[]").strip()
    if body.upper().startswith("FEN"):
        body = body[3:].strip().strip('"')
    body = body.rstrip(".").strip()
    fields = body.split(":")
    if len(fields) != 3 or fields[0].strip().upper() not in ("B", "W"):
        raise InvalidPositionError(
            f"checkers FEN {shown}: expected the side to move and the two colours' squares, "
            "e.g. B:W21,22,K30:B1,2,K5")
    side = BLACK if fields[0].strip().upper() == "B" else WHITE
    colours: dict[str, tuple[int, int]] = {}
    for field in fields[1:]:
        field = field.strip()
        colour = field[:1].upper()
        if colour not in ("B", "W") or colour in colours:
            raise InvalidPositionError(
                f"checkers FEN {shown}: each colour field starts with W or B, once each "
                "(e.g. W21,22,K30 and B1,2,K5)")
        colours[colour] = _fen_squares(field[1:], shown)
    (bm, bk), (wm, wk) = colours["B"], colours["W"]
    black, white = bm | bk, wm | wk
    if black & white:
        raise InvalidPositionError(f"checkers FEN {shown}: square(s) "
                                   f"{', '.join(str(s + 1) for s in bits(black & white))} "
                                   "hold both colours")
    for name, pieces in (("Black", black), ("White", white)):
        if pieces.bit_count() > MAX_PIECES:
            raise InvalidPositionError(f"checkers FEN {shown}: {name} has "
                                       f"{pieces.bit_count()} pieces; at most 12")
    if bm & CROWN_ROW[BLACK] or wm & CROWN_ROW[WHITE]:
        raise InvalidPositionError(
            f"checkers FEN {shown}: a man on its crowning row (a Black man on 29-32 or a "
            "White man on 1-4) would be a king; write it K29")
    return black, white, bk | wk, side


def format_fen(black: int, white: int, kings: int, side: int) -> str:
    """The PDN FEN of a position: ``B:W21,22,K30:B1,2,K5`` (squares in increasing order)."""
    def field(pieces: int) -> str:
        return ",".join(("K" if kings >> sq & 1 else "") + str(sq + 1) for sq in bits(pieces))

    return f"{'BW'[side]}:W{field(white)}:B{field(black)}"


# ----- the evaluation ------------------------------------------------------------------------
#: Weights of the evaluation's features, in hundredths of a man (see :func:`evaluate_black`).
W_MAN = 100
W_KING = 140
W_BACK_ROW = 12  # a man still guarding its own back row (Black 1-4, White 29-32)
W_CENTRE = 6  # a man on the central squares 14, 15, 18, 19
W_ADVANCE = 3  # per row a man has advanced (past the third row), a step towards a king
W_KING_CENTRE = 8  # a king off the edge of the board
W_TRADE = 40  # a side ahead in material gains by trading down (per the loser's missing pieces)
W_CHASE = 4  # in the endgame, per square between a leading side's king and its prey
W_PREY_MOBILITY = 6  # in the endgame, per step the losing side can make
#: the chase counts when at most this many pieces are left
CHASE_PIECES = 8
BACK_ROW = (0x0000000F, 0xF0000000)
CENTRE = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18)
EDGE = sum(1 << sq for sq in range(32) if row_col(sq)[1] in (0, 7) or row_col(sq)[0] in (0, 7))
#: Bitboards of the squares in each row, from Black's side.
ROWS = tuple(0xF << (4 * r) for r in range(8))
#: The evaluation's largest size: heuristic values stay inside the searches' win threshold
#: (half of ``max_utility``).
EVAL_LIMIT = 4000
#: A database win the move limit may cut off (the probe leaves it undecided) is worth this
#: less its distance in plies (at most :data:`UNDECIDED_SPAN`): above every heuristic value,
#: below the searches' win threshold, so the engine heads for the shortest such win (and a
#: capture or man's move that makes it certain) without taking it for a won game.
UNDECIDED_WIN = EVAL_LIMIT + 900
UNDECIDED_SPAN = 899


def evaluate_black(black: int, white: int, kings: int) -> int:
    """A heuristic of the position for Black, in hundredths of a man: material (a king is
    worth 1.4 men), men guarding the back row, men in the centre, men's advance, kings off
    the edge, and a bonus for trading down when ahead (the classical features of Samuel's
    and the early Chinook's evaluations, hand-weighted). Symmetric: swapping the colours
    (and mirroring the board) negates it."""
    bm, bk = black & ~kings, black & kings
    wm, wk = white & ~kings, white & kings
    nbm, nbk, nwm, nwk = bm.bit_count(), bk.bit_count(), wm.bit_count(), wk.bit_count()
    material = W_MAN * (nbm - nwm) + W_KING * (nbk - nwk)
    v = material
    v += W_BACK_ROW * ((bm & BACK_ROW[0]).bit_count() - (wm & BACK_ROW[1]).bit_count())
    v += W_CENTRE * ((bm & CENTRE).bit_count() - (wm & CENTRE).bit_count())
    advance = 0
    for r in range(3, 7):
        advance += (r - 2) * ((bm & ROWS[r]).bit_count() - (wm & ROWS[7 - r]).bit_count())
    v += W_ADVANCE * advance
    v += W_KING_CENTRE * ((bk & ~EDGE).bit_count() - (wk & ~EDGE).bit_count())
    if material:
        nb, nw = nbm + nbk, nwm + nwk
        lead = 1 if material > 0 else -1
        # the side ahead wants fewer pieces on the board: 24 - pieces, signed by who leads
        v += (W_TRADE * (24 - nb - nw) // 24) * lead
        if nb + nw <= CHASE_PIECES:
            # ...and its kings close to the pieces they hunt (a lone king is trapped by
            # kings that come near it, not by kings that wait in the centre)
            hunters, prey = (bk, white) if lead > 0 else (wk, black)
            v -= lead * W_CHASE * chase_distance(hunters, prey)
            # ...and the losing side short of squares to go to
            loser = WHITE if lead > 0 else BLACK
            v -= lead * W_PREY_MOBILITY * mobility(prey, black | white ^ prey, kings, loser)
    return max(-EVAL_LIMIT, min(EVAL_LIMIT, v))


#: DISTANCE[a * 32 + b]: king moves from square ``a`` to ``b`` on an empty board.
DISTANCE = [max(abs(row_col(a)[0] - row_col(b)[0]), abs(row_col(a)[1] - row_col(b)[1]))
            for a in range(32) for b in range(32)]


def chase_distance(hunters: int, prey: int) -> int:
    """The sum, over the ``hunters``' squares, of the distance to the nearest ``prey``."""
    if not prey:
        return 0
    targets = bits(prey)
    total = 0
    for h in bits(hunters):
        row = h * 32
        total += min(DISTANCE[row + t] for t in targets)
    return total


#: How :meth:`Checkers.count_perft` may count (name -> what it counts; the first is the
#: default).
PERFT_CONVENTIONS = MappingProxyType({
    "moves": "leaves at depth D, a jump chain one move (the published checkers perft: "
             "7, 49, 302, 1469, 7361, 36768, 179740, ...); a game over earlier counts as "
             "one leaf",
    "openspiel": "leaves at depth D in OpenSpiel's actions: a chain of k jumps is k "
                 "actions by the same player; a game over earlier counts as one leaf",
})


def perft(state: CheckersState, depth: int, draw_plies: int = DRAW_PLIES) -> int:
    """Leaves of the move tree ``depth`` moves deep (a chain is one move): the plain Python
    counter. A game over before ``depth`` counts as one leaf."""
    moves = state[6]
    if depth == 0 or not moves:
        return 1
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        total += perft(play_move(state, m, draw_plies), depth - 1, draw_plies)
    return total


def _legs_perft(state: CheckersState, moves: Sequence[Move], done: int, depth: int,
                draw_plies: int) -> int:
    """OpenSpiel's count below a node where the moves ``moves`` of ``state`` share their
    first ``done`` squares (legs already played): the distinct next legs are the actions."""
    if depth == 0:
        return 1
    groups: dict[Move, list[Move]] = {}
    for m in moves:
        groups.setdefault(m[:done + 1], []).append(m)
    if depth == 1:
        return len(groups)  # one action each (bulk counting)
    total = 0
    for group in groups.values():
        finished = [m for m in group if len(m) == done + 1]
        if finished:  # this leg ends the move (a chain's end is reached by one path only)
            total += openspiel_perft(play_move(state, finished[0], draw_plies), depth - 1,
                                     draw_plies)
        else:
            total += _legs_perft(state, group, done + 1, depth - 1, draw_plies)
    return total


def openspiel_perft(state: CheckersState, depth: int, draw_plies: int = DRAW_PLIES) -> int:
    """Leaves ``depth`` actions deep in OpenSpiel's convention: each leg of a jump chain is
    an action of its own (the mover moves again until the chain ends)."""
    moves = state[6]
    if depth == 0 or not moves:
        return 1
    return _legs_perft(state, moves, 1, depth, draw_plies)


#: The longest move limit ``draw_plies`` takes (a game of checkers is a few hundred plies).
MAX_DRAW_PLIES = 100_000


def _read_draw_plies(key: str, text: str) -> int:
    """``draw_plies``: a whole number in ASCII digits (``int()`` would take ``٣`` and
    ``1_0``) from 1 to :data:`MAX_DRAW_PLIES`."""
    return read_int(key, text, 1, MAX_DRAW_PLIES)


class Checkers(Game[CheckersState, Move]):
    """English draughts (American checkers); see the module docstring."""

    name = "checkers"
    description = ("English draughts (checkers) 8x8, Black first, squares 1-32: moves "
                   "11-15 / 22x15, PDN FEN")
    num_players = 2
    game_type = GameType(num_players=2, alternating=True)
    #: Wins are worth 10,000 so that the evaluation (hundredths of a man, at most
    #: :data:`EVAL_LIMIT`) stays below the searches' win threshold (half of this).
    max_utility = 10000.0
    state_notation = ("PDN FEN: the side to move (B or W), then W and B with their squares "
                      "1-32, K before a king, e.g. B:W21,22,K30:B1,2,K5")
    options = (
        GameOption("draw_plies", int, DRAW_PLIES, f"a whole number from 1 to {MAX_DRAW_PLIES}",
                   "plies without a capture or a man's move that draw the game",
                   read=_read_draw_plies),
        GameOption("draw_count", str, DRAW_COUNTS[0], DRAW_COUNTS,
                   "what resets the move-limit count: a capture or a man's move (the laws), "
                   "or a capture only (OpenSpiel's checkers, with draw_plies=40)"),
        GameOption("egdb", str, "", None,
                   "the folder of a built endgame database the engine probes "
                   "(gamesearch egdb build checkers); empty: none"),
    )

    def __init__(self, draw_plies: int = DRAW_PLIES, egdb: str = "",
                 draw_count: str = DRAW_COUNTS[0]) -> None:
        if draw_count not in DRAW_COUNTS:
            raise InvalidLimitError(f"option draw_count={echo(draw_count)}; allowed: "
                                    + ", ".join(DRAW_COUNTS))
        self.draw_plies = draw_plies
        self.draw_count = draw_count
        #: only a capture resets the move-limit count (``draw_count=captures``)
        self.captures_only = draw_count == "captures"
        self.egdb = egdb
        self._database: EndgameDatabase | None = None

    @property
    def resets(self) -> str:
        """What resets the move-limit count, in words."""
        return "a capture" if self.captures_only else "a capture or a man's move"

    def plies_left(self, state: CheckersState) -> int:
        """Plies the move-limit rule leaves from ``state``: a game that goes on this long
        without a reset of the count is drawn (:data:`DRAW_COUNTS`)."""
        return self.draw_plies - state[4]

    # ----- the textbook's six functions -----------------------------------------------
    def initial_state(self) -> CheckersState:
        return make_state(START_BLACK, START_WHITE, 0, BLACK, draw_plies=self.draw_plies)

    def to_move(self, state: CheckersState) -> int:
        return state[3]

    def actions(self, state: CheckersState) -> tuple[Move, ...]:
        return state[6]

    def result(self, state: CheckersState, action: Move) -> CheckersState:
        return play_move(state, action, self.draw_plies, self.captures_only)

    def is_terminal(self, state: CheckersState) -> bool:
        return not state[6]

    def utility(self, state: CheckersState, player: int) -> float:
        if is_drawn(state, self.draw_plies):
            return 0.0
        return -self.max_utility if player == state[3] else self.max_utility

    def terminal_utility(self, state: CheckersState, player: int) -> float | None:
        if state[6]:
            return None
        return self.utility(state, player)

    def returns(self, state: CheckersState) -> tuple[float, float]:
        return (self.utility(state, 0), self.utility(state, 1))

    def key(self, state: CheckersState) -> int | tuple[int, int, tuple[int, ...]]:
        """The pieces and the side to move, and, after a king's move, what the draw rules
        read: the move-limit count and the positions since the last capture or man's move
        (sorted: their order does not matter). Two states with the same key have the same
        future, so a value stored for one holds for the other (without the draw rules'
        part, a value found where a repetition ended the game was reused where it could not,
        and the exact solver gave wrong values: the graph history interaction)."""
        position = state[0] | state[1] << 32 | state[2] << 64 | state[3] << 96
        if not state[4] and not state[5]:
            return position  # (no count, no history: the common case, a plain int)
        return position, state[4], tuple(sorted(state[5]))

    def termination(self, state: CheckersState) -> str | None:
        if state[6]:
            return None
        if state.quiet >= self.draw_plies:
            return f"move limit ({self.draw_plies} plies without {self.resets})"
        if is_drawn(state, self.draw_plies):
            return "threefold repetition"
        return f"{SIDE_NAMES[state[3]]} has no move"

    # ----- capabilities ------------------------------------------------------------------
    def evaluation(self, name: str | None = None) -> Evaluation[CheckersState] | None:
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def move_ordering(self) -> MoveOrdering[CheckersState, Move]:
        return MoveOrdering(order_moves)

    def tactics(self) -> Tactics[CheckersState, Move]:
        """Captures: a side that must capture is "in check" (quiescence tries every capture
        instead of standing pat, and the engine extends the search a ply), and otherwise
        has no noisy move (a capture it could make would be compulsory)."""
        return Tactics(noisy_actions=capture_moves, is_noisy=_is_noisy, in_check=must_capture)

    def endgame_database(self) -> EndgameDatabase | None:
        """The endgame database in the folder of the ``egdb`` option (``None`` without one),
        opened once by ``open_database(folder, draw_plies)`` of :mod:`.egdb` (the retrograde
        builder's module); its ``probe(state)`` answers the positions it holds, under this
        game's move limit: a win longer than the plies the count leaves is undecided (the
        evaluation then scores it, :data:`UNDECIDED_WIN`)."""
        if not self.egdb:
            return None
        if self._database is None:
            try:
                egdb = import_module(f"{__package__}.egdb")
            except ImportError:
                raise UnsupportedGameError(
                    "checkers: this installation has no endgame database support "
                    f"(egdb={echo(self.egdb)})") from None
            self._database = egdb.open_database(self.egdb, self.draw_plies)
        return self._database

    def perft(self) -> Perft[CheckersState]:
        """Two conventions (:data:`PERFT_CONVENTIONS`), counted by :meth:`count_perft`."""
        return Perft(PERFT_CONVENTIONS, self.count_perft)

    def drawing(self) -> Drawing[CheckersState]:
        """The board as SVG: click a piece, then its destination (see :mod:`.svg`)."""
        from .svg import render

        return Drawing(partial(render, self))

    def evaluate(self, state: CheckersState, player: int) -> float:
        v = evaluate_black(state[0], state[1], state[2])
        if self.egdb:
            known = self._database_value(state)
            if known is not None:
                v = known
        return float(v if player == BLACK else -v)

    def _database_value(self, state: CheckersState) -> int | None:
        """For Black, what the database knows of a position the engine's probe left
        undecided (a win the move limit may cut off): :data:`UNDECIDED_WIN` less the
        distance, signed; a database draw 0; ``None`` when the database does not hold it."""
        database: Any = self.endgame_database()
        if (state[0] | state[1]).bit_count() > database.pieces:
            return None
        found = database.value(state)
        if found is None:
            return None
        if found.value == 0:
            return 0
        v = found.value * (UNDECIDED_WIN - min(found.plies or 0, UNDECIDED_SPAN))
        return int(v if state[3] == BLACK else -v)

    def count_perft(self, state: CheckersState, depth: int, convention: str | None = None) -> int:
        convention = convention or "moves"
        if convention not in PERFT_CONVENTIONS:
            raise InvalidLimitError(f"checkers perft convention {echo(convention)}; allowed: "
                                    + ", ".join(PERFT_CONVENTIONS))
        if depth < 0:
            raise InvalidLimitError(f"perft depth {depth}: must be >= 0")
        if convention == "moves":
            return perft(state, depth, self.draw_plies)
        return openspiel_perft(state, depth, self.draw_plies)

    # ----- notation ----------------------------------------------------------------------
    def format_action(self, state: CheckersState, action: Move) -> str:
        return format_move(action)

    def parse_action(self, state: CheckersState, text: str) -> Move:
        legal = self.legal_action_strings(state)
        word = text.strip().lower().replace(" ", "")
        if not state[6]:
            raise IllegalMoveError(text, legal, reason="the game is over")
        jump = "x" in word
        parts = word.replace("x", "-").split("-")
        if len(parts) < 2 or not all(ascii_digits(p) and len(p) <= 2 and 1 <= int(p) <= 32
                                     for p in parts):
            raise IllegalMoveError(text, legal, reason="a move is its squares 1-32, e.g. "
                                   "11-15, 22x15 or 9x18x27")
        path = tuple(int(p) - 1 for p in parts)
        moves = state[6]
        exact = [m for m in moves if m == path]
        if exact:
            return exact[0]
        if len(path) == 2:  # a chain by its ends: 9x27
            ends = [m for m in moves if m[0] == path[0] and m[-1] == path[1]]
            if len(ends) == 1 and (jump or not is_jump(ends[0])):
                return ends[0]
            if len(ends) > 1:
                raise IllegalMoveError(text, legal, reason="ambiguous: several chains join "
                                       "these squares; give the squares between")
        reason = ("a capture is compulsory" if is_jump(moves[0]) and not jump
                  else "not a legal move here")
        raise IllegalMoveError(text, legal, reason=reason)

    def format_state(self, state: CheckersState) -> str:
        return format_fen(state[0], state[1], state[2], state[3])

    def parse_state(self, text: str) -> CheckersState:
        return self.from_fen(text)

    def from_fen(self, text: str) -> CheckersState:
        """The state of a PDN FEN (no move-limit count, no history)."""
        black, white, kings, side = parse_fen(text)
        return make_state(black, white, kings, side, draw_plies=self.draw_plies)

    def to_fen(self, state: CheckersState) -> str:
        return self.format_state(state)

    def split_position_line(self, line: str) -> tuple[str, str]:
        words = line.split(None, 1)
        return (words[0], words[1].strip() if len(words) > 1 else "") if words else ("", "")

    def render(self, state: CheckersState) -> str:
        """The board from White's side (Black's men ``b``, kings ``B``; White's ``w``, ``W``;
        an empty square shows its number), the side to move and the counts."""
        black, white, kings, side = state[0], state[1], state[2], state[3]
        lines = []
        for r in range(8):
            cells = []
            for c in range(8):
                if (r + c) % 2 == 0:
                    cells.append("  ")
                    continue
                sq = 4 * r + c // 2
                if black >> sq & 1:
                    cells.append(" B" if kings >> sq & 1 else " b")
                elif white >> sq & 1:
                    cells.append(" W" if kings >> sq & 1 else " w")
                else:
                    cells.append(" .")
            numbers = " ".join(f"{4 * r + i + 1:2d}" for i in range(4))
            lines.append(" ".join(cells) + "    " + numbers)
        over = self.termination(state)
        status = f"{SIDE_NAMES[side]} to move" if over is None else f"game over: {over}"
        lines.append(f"{status}; {state.quiet} plies without {self.resets} "
                     f"(draw at {self.draw_plies})")
        return "\n".join(lines)


# ----- the engine's hooks --------------------------------------------------------------------
def capture_moves(state: CheckersState) -> tuple[Move, ...]:
    """The captures of the side to move: all its moves when it must capture, else none."""
    moves = state[6]
    return moves if moves and abs(ROW[moves[0][0]] - ROW[moves[0][1]]) == 2 else ()


def must_capture(state: CheckersState) -> bool:
    moves = state[6]
    return bool(moves) and abs(ROW[moves[0][0]] - ROW[moves[0][1]]) == 2


def _is_noisy(state: CheckersState, move: Move) -> bool:
    return abs(ROW[move[0]] - ROW[move[1]]) == 2


def order_moves(state: CheckersState, moves: Sequence[Move]) -> list[Move]:
    """Longer chains first; then crowning moves, then men's advances towards the centre
    (a stable sort: ties keep the generator's order)."""
    side, kings = state[3], state[2]
    crown = CROWN_ROW[side]

    def score(m: Move) -> int:
        s = -len(m) * 4
        end_bit = 1 << m[-1]
        if not kings >> m[0] & 1 and end_bit & crown:
            s -= 3
        if end_bit & CENTRE:
            s -= 1
        return s

    return sorted(moves, key=score)


def check_state(state: Any) -> CheckersState:
    """``state`` if it is a :class:`CheckersState`, else a clear error."""
    if not isinstance(state, CheckersState):
        raise InvalidPositionError(f"checkers state {state!r:.80}: expected a CheckersState "
                                   "(Checkers.from_fen makes one)")
    return state


__all__ = [
    "BLACK",
    "FULL",
    "WHITE",
    "Checkers",
    "CheckersState",
    "Move",
    "format_fen",
    "format_move",
    "make_state",
    "parse_fen",
    "play_move",
    "position_key",
]
