"""The rules of Rolit (Goliath) for 2, 3 and 4 players on 64-bit bitboards, its notation, an
evaluation, a move ordering and perft.

Rules (Goliath's published rules: the English text at
https://www.ultraboardgames.com/rolit/game-rules.php and the Portuguese Goliath leaflet
"Manual de instruções" #70 802; the start and the example below as written out at
http://www.greylabyrinth.com/discussion/viewtopic.php?t=14128):

* an 8x8 board; whatever the number of players, the game starts with four balls in the
  centre, one of each colour: red on d4, yellow on e4, green on e5, blue on d5 (row 1 at the
  top, as this module prints and draws the board: red, yellow, green, blue clockwise round
  the centre, which is the order of play);
* the players move in the order red, yellow, green, blue; with ``players=2`` red and yellow
  play, with ``players=3`` red, yellow and green. The colours no one plays (blue; green and
  blue) keep their starting balls as *neutral* balls: any player may roll them over, no one
  owns them (a choice of ours: the published rules place all four balls and say nothing
  more; it keeps the published start for every seat count);
* a move puts one ball of the mover's colour on an empty square. A *capture* is a move that
  traps, in at least one of the 8 directions, an unbroken line of balls of other colours
  (any mix of them, neutral ones included) between the new ball and the nearest ball of the
  mover's colour, as in Othello; every trapped ball of every such line turns to the mover's
  colour. A capture is obligatory: when the mover has one, only captures are legal.
  Otherwise (no capture, or no ball of the mover's colour on the board) the ball goes on any
  empty square next to a ball (8-neighbourhood) and turns nothing over. So there is always
  a move, and no one ever passes;
* the game ends when the board is full (after 60 moves); the player with the most balls
  wins, tied players sharing their place.

The published example checks the start: red has exactly three captures (d6, f4, f6); after
red f4 yellow has no ball left, hence no capture, and 14 squares next to a ball
(``tests/test_rolit.py``).

Utilities (``score=rank``, the default): constant-sum by place. With ``n`` players, place
``k`` (0 the best) is worth ``(n - 1 - 2k) / (n - 1)``: +1 for the winner, -1 for the last,
in between evenly (3 players: 1, 0, -1; 4 players: 1, 1/3, -1/3, -1); players tied on balls
share their places, each getting the mean of the places' values. The returns always sum to
0; two players get +1/-1, or 0 each on a 32-32 draw. ``score=balls``: a player's balls
less the mean of the players' balls (also summing to 0; ``max_utility`` 128, as Othello's,
so that no ball count is ever read as a distance-discounted win).

State: a tuple ``(red, yellow, green, blue, mover)``: the four colours' bitboards (bit
``8 * row + col``, ``a1`` bit 0, ``h1`` bit 7, ``h8`` bit 63, as :mod:`..othello.rules`) and
the player to move, 0 .. players-1 (0 red). Equal positions are equal tuples, so the state is
its own transposition-table key. Move generation is Othello's: the mover's captures are
:func:`..othello.rules.legal_moves` of the mover's balls against all the other balls, a
capture's balls :func:`..othello.rules.flips`, and the squares next to a ball
:func:`..othello.rules.neighbours` (imported, not copied).

Notation: a move is its square, ``a1`` .. ``h8``. A position is 64 characters, ``a1`` ..
``h1``, ``a2`` .. ``h8`` (the order of Othello's board strings), each ``R``, ``Y``, ``G``,
``B`` or ``-`` (``.`` is read as ``-`` too), a space and the colour to move: the start is
``---------------------------RY------BG--------------------------- R``. The colour to move
must be one that plays; balls of the colours that do not play are the neutral ones. In a
game from the start the mover is always player ``(balls - 4) mod players`` (no one passes),
but a position may put any player to move, for analysis.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from types import MappingProxyType

from ...capabilities import (
    Drawing,
    Evaluation,
    MatchHooks,
    MoveOrdering,
    Perft,
    TurnPassing,
)
from ...errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from ...game import Game, GameType
from ...spec import GameOption
from ..othello.rules import CORNERS, FULL, SQUARE_NAMES, flips, legal_moves, neighbours, squares

#: ``(red, yellow, green, blue, mover)``, see the module docstring.
RState = tuple[int, int, int, int, int]

COLOURS = "RYGB"
COLOUR_NAMES = ("red", "yellow", "green", "blue")
#: The start: red d4, yellow e4, green e5, blue d5.
START: tuple[int, int, int, int] = (1 << 27, 1 << 28, 1 << 36, 1 << 35)
CENTRE = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)
START_BOARD = "-" * 27 + "RY------BG" + "-" * 27
#: The weights of the evaluation's features (see :meth:`Rolit.evaluate`).
W_CORNER = 4.0
W_MOBILITY = 0.5
#: The evaluation's values stay within this fraction of ``max_utility``.
EVAL_SHARE = 0.9

#: How :meth:`Rolit.count_perft` may count (name -> what it counts; the first is the default).
PERFT_CONVENTIONS = MappingProxyType({
    "perft": "leaves at depth D; a game over (a full board) before depth D counts as one leaf",
    "full_depth": "positions exactly D plies deep; games over earlier count 0",
})


def place_values(n: int) -> tuple[float, ...]:
    """The value of each place (0 the best) in an ``n``-player game: +1 .. -1, evenly."""
    return tuple((n - 1 - 2 * k) / (n - 1) for k in range(n))


def rank_returns(counts: Sequence[int]) -> tuple[float, ...]:
    """Constant-sum returns by place: each player gets the mean value (:func:`place_values`)
    of the places that the players with its ball count occupy (tied players share)."""
    n = len(counts)
    values = place_values(n)
    out = []
    for c in counts:
        better = sum(1 for d in counts if d > c)
        tied = sum(1 for d in counts if d == c)
        out.append(sum(values[better:better + tied]) / tied)
    return tuple(out)


def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidLimitError(f"rolit players={players!r}: Rolit is for 2, 3 or 4 players")
    return players


class Rolit(Game[RState, int]):
    """Rolit for 2-4 players (``rolit:players=3``); see the module docstring."""

    name = "rolit"
    options = (
        GameOption("players", int, 4, (2, 4),
                   "the players: red, yellow, then green and blue (the others' balls are "
                   "neutral)"),
        GameOption("score", str, "rank", ("rank", "balls"),
                   "rank: +1 .. -1 by place, ties shared; balls: balls less the mean"),
    )

    def __init__(self, players: int = 4, score: str = "rank") -> None:
        self.players = _check_players(players)
        if score not in ("rank", "balls"):
            raise InvalidLimitError(f"rolit score={score!r}; allowed: rank, balls")
        self.score = score
        self.num_players = self.players
        self.max_utility = 1.0 if score == "rank" else 128.0
        # Constant-sum (returns and evaluation sum to 0), each within +-max_utility: what
        # max^n's pruning rules (maxn:shallow,lastbranch,speculative) rest on.
        self.game_type = GameType(num_players=self.players, alternating=self.players == 2,
                                  constant_sum=0.0,
                                  value_bounds=(-self.max_utility, self.max_utility))
        self.description = (f"Rolit 8x8 for {self.players} players ("
                            + ", ".join(COLOUR_NAMES[:self.players])
                            + "), moves a1-h8; most balls wins")
        self.state_notation = (
            "64 characters a1..h1, a2..h2, ..., a8..h8 (R red, Y yellow, G green, B blue, "
            "- empty), a space and the colour to move, one of "
            + "".join(COLOURS[:self.players]) + f" (the start: {START_BOARD} R)")
        self._all = range(self.players)

    def split_position_line(self, line: str) -> tuple[str, str]:
        # The board and the colour to move are two words.
        words = line.split(None, 2)
        return " ".join(words[:2]), (words[2].strip() if len(words) > 2 else "")

    # ----- the textbook's six functions -----------------------------------------------
    def initial_state(self) -> RState:
        return (*START, 0)

    def to_move(self, state: RState) -> int:
        return state[4]

    def moves(self, state: RState) -> int:
        """The legal squares of the player to move, as a bitboard: the captures if there
        is one, else every empty square next to a ball (0 on a full board)."""
        p = state[state[4]]
        occupied = state[0] | state[1] | state[2] | state[3]
        captures = legal_moves(p, occupied ^ p)
        if captures:
            return captures
        return neighbours(occupied) & ~occupied

    def actions(self, state: RState) -> list[int]:
        return squares(self.moves(state))

    def result(self, state: RState, action: int) -> RState:
        mover = state[4]
        p = state[mover]
        occupied = state[0] | state[1] | state[2] | state[3]
        f = flips(p, occupied ^ p, action)
        bit = 1 << action
        keep = ~f
        balls = [state[0] & keep, state[1] & keep, state[2] & keep, state[3] & keep]
        balls[mover] = p | f | bit
        nxt = mover + 1
        return (balls[0], balls[1], balls[2], balls[3], 0 if nxt == self.players else nxt)

    def is_terminal(self, state: RState) -> bool:
        return (state[0] | state[1] | state[2] | state[3]) == FULL

    def counts(self, state: RState) -> tuple[int, ...]:
        """The balls of each player (neutral balls belong to no one)."""
        return tuple(state[q].bit_count() for q in self._all)

    def returns(self, state: RState) -> tuple[float, ...]:
        counts = self.counts(state)
        if self.score == "rank":
            return rank_returns(counts)
        mean = sum(counts) / self.players
        return tuple(c - mean for c in counts)

    def utility(self, state: RState, player: int) -> float:
        return self.returns(state)[player]

    def terminal_utility(self, state: RState, player: int) -> float | None:
        if (state[0] | state[1] | state[2] | state[3]) != FULL:
            return None
        return self.returns(state)[player]

    # ----- capabilities (gamesearch.capabilities) --------------------------------------
    def evaluation(self, name: str | None = None) -> Evaluation[RState] | None:
        """Balls, corners and capture mobility (:meth:`evaluate`)."""
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def scores(self, state: RState) -> list[float]:
        """Each player's heuristic strength: balls, plus :data:`W_CORNER` per corner ball
        (a corner can never be rolled over), plus :data:`W_MOBILITY` per capture the player
        would have if it were to move (its mobility)."""
        occupied = state[0] | state[1] | state[2] | state[3]
        out = []
        for q in self._all:
            p = state[q]
            out.append(p.bit_count() + W_CORNER * (p & CORNERS).bit_count()
                       + W_MOBILITY * legal_moves(p, occupied ^ p).bit_count())
        return out

    def evaluate(self, state: RState, player: int) -> float:
        """A constant-sum heuristic on the utilities' scale: ``EVAL_SHARE * max_utility *
        (s_player - mean(s)) / (sum(s) + 1)`` for the :meth:`scores` ``s``. Each ``s`` is
        at least 0, so the value lies strictly inside ``(-EVAL_SHARE, EVAL_SHARE)`` times
        ``max_utility``, and the players' values sum to 0, as the returns do."""
        s = self.scores(state)
        total = sum(s)
        return EVAL_SHARE * self.max_utility * (s[player] - total / self.players) / (total + 1)

    def turn_passing(self) -> TurnPassing[RState]:
        """The same balls with another colour to move (best-reply search's out-of-turn
        replies)."""
        return TurnPassing(self.give_turn)

    def give_turn(self, state: RState, player: int) -> RState:
        """``state`` with ``player`` to move."""
        return (state[0], state[1], state[2], state[3], player)

    def move_ordering(self) -> MoveOrdering[RState, int]:
        """Corners first, then the captures that roll over most balls (:meth:`order_actions`)."""
        return MoveOrdering(self.order_actions)

    def order_actions(self, state: RState, actions: Sequence[int]) -> list[int]:
        """Corners first, then by the balls a move rolls over (most first); ties keep the
        square order."""
        p = state[state[4]]
        others = (state[0] | state[1] | state[2] | state[3]) ^ p
        scored = sorted((-(CORNERS >> a & 1), -flips(p, others, a).bit_count(), a)
                         for a in actions)
        return [a for _, _, a in scored]

    def drawing(self) -> Drawing[RState]:
        """The position as SVG, legal squares clickable (see :mod:`.svg`)."""
        from .svg import render

        return Drawing(partial(render, self))

    def perft(self) -> Perft[RState]:
        """Two conventions (:data:`PERFT_CONVENTIONS`), counted by :meth:`count_perft`."""
        return Perft(PERFT_CONVENTIONS, self.count_perft)

    def count_perft(self, state: RState, depth: int, convention: str | None = None) -> int:
        """The leaves of the move tree ``depth`` plies deep (:data:`PERFT_CONVENTIONS`)."""
        convention = convention or "perft"
        if convention not in PERFT_CONVENTIONS:
            raise InvalidLimitError(f"rolit perft convention {convention!r}; allowed: "
                                    + ", ".join(PERFT_CONVENTIONS))
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise InvalidLimitError(f"perft depth {depth!r}: must be a whole number >= 0")
        return self._perft(state, depth, convention == "full_depth")

    def _perft(self, state: RState, depth: int, full_depth: bool) -> int:
        if depth == 0:
            return 1
        moves = self.moves(state)
        if not moves:
            return 0 if full_depth else 1
        if depth == 1:
            return moves.bit_count()
        result = self.result
        return sum(self._perft(result(state, a), depth - 1, full_depth)
                   for a in squares(moves))

    # ----- what people read -------------------------------------------------------------
    def match_hooks(self) -> MatchHooks:
        """Each seat's colour (red, yellow, green, blue in seat order), so a person is told
        which colour is theirs."""
        return MatchHooks(seat_names=COLOUR_NAMES[:self.players])

    def termination(self, state: RState) -> str | None:
        if not self.is_terminal(state):
            return None
        counts = self.counts(state)
        return "board full: " + ", ".join(f"{COLOUR_NAMES[q]} {c}"
                                         for q, c in enumerate(counts))

    # ----- notation -------------------------------------------------------------------
    def format_action(self, state: RState, action: int) -> str:
        return SQUARE_NAMES[action]

    def parse_action(self, state: RState, text: str) -> int:
        word = text.strip().lower()
        legal = self.legal_action_strings(state)
        if not (len(word) == 2 and word[0] in "abcdefgh" and word[1] in "12345678"):
            raise IllegalMoveError(text, legal, reason="a move is a square a1-h8")
        action = "abcdefgh".index(word[0]) + 8 * (int(word[1]) - 1)
        if not self.moves(state) >> action & 1:
            occupied = state[0] | state[1] | state[2] | state[3]
            reason = ("the game is over" if occupied == FULL
                      else "the square is taken" if occupied >> action & 1
                      else "a capture is possible, and capturing is obligatory"
                      if legal_moves(state[state[4]], occupied ^ state[state[4]])
                      else "the square is next to no ball")
            raise IllegalMoveError(text, legal, reason=reason)
        return action

    def board_string(self, state: RState) -> str:
        """The 64 characters of the board (``a1`` .. ``h8``)."""
        out = []
        for i in range(64):
            for c in range(4):
                if state[c] >> i & 1:
                    out.append(COLOURS[c])
                    break
            else:
                out.append("-")
        return "".join(out)

    def format_state(self, state: RState) -> str:
        return f"{self.board_string(state)} {COLOURS[state[4]]}"

    def parse_state(self, text: str) -> RState:
        words = text.split()
        shown = text.strip()[:80]
        if len(words) != 2:
            raise InvalidPositionError(f"rolit position {shown!r}: expected the board and the "
                                       f"colour to move; {self.state_notation}")
        board, who = words
        if len(board) != 64:
            raise InvalidPositionError(
                f"rolit position {shown!r}: the board has {len(board)} characters, not 64 "
                "(one per square, a1..h1, a2..h2, ..., a8..h8)")
        bad = sorted({c for c in board.upper() if c not in "RYGB-."})
        if bad:
            raise InvalidPositionError(
                f"rolit position {shown!r}: bad board character(s) {''.join(bad)!r}; allowed: "
                "R, Y, G, B and - or . (empty)")
        playing = COLOURS[:self.players]
        if len(who) != 1 or who.upper() not in playing:
            raise InvalidPositionError(
                f"rolit position {shown!r}: colour to move {who[:10]!r}; with {self.players} "
                f"players it is one of {', '.join(playing)}")
        balls = [0, 0, 0, 0]
        for i, c in enumerate(board.upper()):
            if c in COLOURS:
                balls[COLOURS.index(c)] |= 1 << i
        if (balls[0] | balls[1] | balls[2] | balls[3]) & CENTRE != CENTRE:
            raise InvalidPositionError(
                f"rolit position {shown!r}: d4, e4, d5 and e5 are never empty in Rolit (the "
                "game starts with a ball on each)")
        return (balls[0], balls[1], balls[2], balls[3], playing.index(who.upper()))

    def render(self, state: RState) -> str:
        board = self.board_string(state)
        legal = 0 if self.is_terminal(state) else self.moves(state)
        rows = ["  a b c d e f g h"]
        for r in range(8):
            cells = [("*" if legal >> (8 * r + c) & 1 else ".") if board[8 * r + c] == "-"
                     else board[8 * r + c] for c in range(8)]
            rows.append(f"{r + 1} " + " ".join(cells))
        counts = "  ".join(f"{COLOURS[q]} {state[q].bit_count()}" for q in range(4))
        status = ("game over" if not legal
                  else f"{COLOUR_NAMES[state[4]]} ({COLOURS[state[4]]}) to move")
        neutral = "" if self.players == 4 else (
            "  (neutral: " + ", ".join(COLOURS[self.players:]) + ")")
        rows.append(f"{counts}  {status}{neutral}")
        return "\n".join(rows)
