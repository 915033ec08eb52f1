"""Chinese Checkers for 2, 3, 4 and 6 players on OpenSpiel's star board.

Follows OpenSpiel's ``chinese_checkers`` (open_spiel/games/chinese_checkers/*.cc, .h; the
``open_spiel`` wheel on PyPI): the 121-hole star (:mod:`.board`), ten pieces a player in
its home triangle, the home triangles of each player count (2: north and south; 3: north,
south-east, south-west; 4: north, north-east, south, south-west; 6: all), the goal (fill
the opposite triangle with one's ten pieces), the move limit (``max_moves``, turns of all
players together, 1000 by default) and a pass only when a player has no move at all.

A move is a step to an adjacent empty hole, or a chain of jumps: each jump goes over one
adjacent piece (of any colour) to the empty hole just beyond it, the chain never lands on
a hole it has already visited (its start included), and it stops wherever the player
chooses. A step never lands where a chain can (a jump keeps a hole's class modulo two
steps in every direction; a step changes it), so a move is named by its start and end
holes alone, and every end hole a piece can reach is one move, however many chains reach it.

**One move against OpenSpiel's several actions.** OpenSpiel splits a chain into actions of
the same player: the first jump ``hole * 6 + direction`` (the action of a step too), then
each further jump ``hole * 6 + direction`` from where the piece stands, then ``726``
(pass) to stop; the turn also ends by itself when no further jump exists. Our move
``a-b`` is therefore any OpenSpiel action sequence of one turn that starts at ``a`` and
leaves the piece at ``b`` (``referees/chinese_checkers_openspiel.py``'s ``to_actions``
gives the shortest one: the jumps of a shortest chain, then 726 if the turn has not ended
by itself), and OpenSpiel's whole moves from a state are the distinct (start, end) pairs
of its action sequences, which ``benchmarks/chinese_checkers_openspiel.py`` checks equal
ours state by state. A turn counts one towards the move limit in both.

**The end, and where we depart from OpenSpiel.** Both end the game as soon as a player has
filled the opposite triangle (the one who just moved; no one else's pieces moved), and
after ``max_moves`` turns. OpenSpiel then scores the winner ``n-1`` and everyone else
``-1``, and everyone ``0`` at the move limit, however far each got. Ours ranks the players
by their *distance left* (:meth:`ChineseCheckers.distance_left`: the sum over the ten
pieces of their steps to the target triangle's tip, less 20, the sum of a filled triangle;
0 exactly when the triangle is filled), the smallest first, tied players sharing a rank,
and pays rank-based constant-sum utilities: the ``k``-th of ``n`` places (from 0) is worth
``1 - 2k/(n-1)`` (1 for the first, -1 for the last), tied players share the mean of the
places they span, so the returns always sum to 0. So the winner is the same in both (the
only one with distance 0, ranked alone first), the end is the same turn in both, and only
the others' returns differ (and every return at the move limit): the comparison checks
the end and the winner, never the returns' values.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import partial
from types import MappingProxyType
from typing import NamedTuple

from ...capabilities import Drawing, Evaluation, MoveOrdering, Perft, TurnPassing
from ...errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from ...game import Game, GameType
from ...spec import GameOption
from ..bitboards import set_bits
from . import board as B

#: The player counts the game (and OpenSpiel) supports.
PLAYER_COUNTS = (2, 3, 4, 6)
#: OpenSpiel's default move limit (turns of all players together).
DEFAULT_MAX_MOVES = 1000
MAX_MAX_MOVES = 100_000
#: The pass, legal only when the player to move has no other move.
PASS = -1
#: A move is ``start * HOLES + end`` (an int: cheap to hash, compare and store).
HOLES = B.HOLES
#: Evaluations stay within ``±EVAL_SCALE``, strictly inside the utilities' ``±1``.
EVAL_SCALE = 0.9

PERFT_CONVENTIONS = MappingProxyType({
    "perft": "positions exactly D turns deep (a whole jump chain is one move); a game "
             "over earlier counts 0"})

# Precomputed per hole: (neighbour, its bit) of each step; (over bit, landing, landing
# bit) of each jump.
_STEPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((n, 1 << n) for n in B.NEIGHBOUR[h] if n >= 0) for h in range(HOLES))
_JUMPS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((1 << B.NEIGHBOUR[h][d], B.JUMP[h][d], 1 << B.JUMP[h][d])
          for d in range(6) if B.JUMP[h][d] >= 0) for h in range(HOLES))


class CCState(NamedTuple):
    """A position: each player's pieces as a 121-bit mask (bit ``h``: a piece on hole
    ``h``), the player to move (0-based) and the turns played so far (the move limit's
    count)."""

    pieces: tuple[int, ...]
    player: int
    moves: int


def _read_players(key: str, text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdigit() and int(t) in PLAYER_COUNTS):
        raise InvalidLimitError(f"option {key}={t[:20]!r}: Chinese Checkers is played by "
                                "2, 3, 4 or 6 players")
    return int(t)


def piece_moves(mine: int, occupied: int) -> list[int]:
    """The moves (``start * 121 + end``) of the pieces ``mine`` among ``occupied`` (both
    masks): steps, then every end hole of every jump chain, once each, sorted."""
    out: list[int] = []
    append = out.append
    m = mine
    steps, jumps = _STEPS, _JUMPS
    while m:
        low = m & -m
        m ^= low
        src = low.bit_length() - 1
        base = src * HOLES
        occ = occupied ^ low  # the piece has left its hole
        for n, bit in steps[src]:
            if not occ & bit:
                append(base + n)
        blocked = occupied  # occupied, or already reached (the start included)
        stack = [src]
        while stack:
            h = stack.pop()
            for over, land, land_bit in jumps[h]:
                if occ & over and not blocked & land_bit:
                    blocked |= land_bit
                    stack.append(land)
                    append(base + land)
    out.sort()
    return out


class ChineseCheckers(Game[CCState, int]):
    name = "chinese_checkers"
    description = "Chinese Checkers for 2, 3, 4 or 6 players on OpenSpiel's star board"
    max_utility = 1.0
    state_notation = ("17 rows of holes top to bottom separated by '/' ('.' an empty hole, "
                      "1-6 a player's piece), then the player to move (1-6) and the turns "
                      "played")
    options = (
        GameOption("players", int, 2, "2, 3, 4 or 6", "the number of players",
                   read=_read_players, choices=(2, 3, 4, 6)),
        GameOption("max_moves", int, DEFAULT_MAX_MOVES, (1, MAX_MAX_MOVES),
                   "turns of all players together after which the game ends (OpenSpiel's "
                   "move limit)"),
    )

    def __init__(self, players: int = 2, max_moves: int = DEFAULT_MAX_MOVES) -> None:
        if isinstance(players, bool) or players not in PLAYER_COUNTS:
            raise InvalidLimitError(f"Chinese Checkers is played by 2, 3, 4 or 6 players, "
                                    f"not {players!r}")
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) \
                or not 1 <= max_moves <= MAX_MAX_MOVES:
            raise InvalidLimitError(f"chinese_checkers max_moves={max_moves!r}: must be "
                                    f"from 1 to {MAX_MAX_MOVES}")
        self.players = players
        self.max_moves = max_moves
        self.num_players = players
        # Constant-sum (returns and evaluation sum to 0), each within +-1: what max^n's
        # pruning rules (maxn:shallow,lastbranch,speculative) rest on.
        self.game_type = GameType(num_players=players, constant_sum=0.0,
                                  value_bounds=(-self.max_utility, self.max_utility))
        #: The home and target triangle of each player.
        self.homes = B.SLOTS[players]
        self.targets = tuple(B.target(t) for t in self.homes)
        self.goal_masks = tuple(B.TRIANGLE_MASKS[t] for t in self.targets)
        self.goal_distance = tuple(B.GOAL_DISTANCE[t] for t in self.targets)
        # Rank utilities: place k (0-based) of n.
        self._place_value = tuple(1 - 2 * k / (players - 1) for k in range(players))
        self._eval_cache: tuple[tuple[int, ...], tuple[float, ...]] = ((), ())
        self.state_notation = (f"{ChineseCheckers.state_notation}; the start: "
                               f"{self.format_state(self.initial_state())}")

    # ----- the rules -------------------------------------------------------------------
    def initial_state(self) -> CCState:
        return CCState(tuple(B.TRIANGLE_MASKS[t] for t in self.homes), 0, 0)

    def to_move(self, state: CCState) -> int:
        return state[1]

    def actions(self, state: CCState) -> list[int]:
        pieces = state[0]
        occupied = 0
        for m in pieces:
            occupied |= m
        moves = piece_moves(pieces[state[1]], occupied)
        return moves or [PASS]

    def result(self, state: CCState, action: int) -> CCState:
        pieces, player, moves = state
        nxt = player + 1
        if nxt == self.players:
            nxt = 0
        if action == PASS:
            return CCState(pieces, nxt, moves + 1)
        src, dst = divmod(action, HOLES)
        new = list(pieces)
        new[player] ^= (1 << src) | (1 << dst)
        return CCState(tuple(new), nxt, moves + 1)

    def winner(self, state: CCState) -> int | None:
        """The player who has filled their target triangle, or ``None``."""
        for p, (m, g) in enumerate(zip(state[0], self.goal_masks, strict=True)):
            if m == g:
                return p
        return None

    def is_terminal(self, state: CCState) -> bool:
        if state[2] >= self.max_moves:
            return True
        return any(m == g for m, g in zip(state[0], self.goal_masks, strict=True))

    def distance_left(self, state: CCState, player: int) -> int:
        """The sum over ``player``'s pieces of their steps to the target triangle's tip,
        less 20 (a filled triangle's sum): 0 exactly when the triangle is filled, 120 at
        the start."""
        dist = self.goal_distance[player]
        return sum(dist[h] for h in set_bits(state[0][player])) - B.FILLED_DISTANCE

    def distances(self, state: CCState) -> tuple[int, ...]:
        """Every player's :meth:`distance_left`."""
        return tuple(self.distance_left(state, p) for p in range(self.players))

    def returns(self, state: CCState) -> list[float]:
        """Rank utilities by distance left (see the module docstring): place ``k`` is worth
        ``1 - 2k/(n-1)``, tied players share the mean of their places; they sum to 0."""
        d = self.distances(state)
        order = sorted(range(self.players), key=d.__getitem__)
        out = [0.0] * self.players
        k = 0
        while k < self.players:
            j = k
            while j + 1 < self.players and d[order[j + 1]] == d[order[k]]:
                j += 1
            share = sum(self._place_value[k:j + 1]) / (j + 1 - k)
            for i in range(k, j + 1):
                out[order[i]] = share
            k = j + 1
        return out

    def termination(self, state: CCState) -> str | None:
        if not self.is_terminal(state):
            return None
        w = self.winner(state)
        if w is not None:
            return f"player {w + 1} filled the opposite triangle"
        return f"move limit ({self.max_moves} turns): ranked by distance left"

    def key(self, state: CCState) -> Hashable:
        # The pieces, the player to move and the turns played: the turns matter because of
        # the move limit; transpositions within a search are at the same turn anyway.
        return state

    # ----- capabilities ----------------------------------------------------------------
    def evaluation(self, name: str | None = None) -> Evaluation[CCState] | None:
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def evaluate(self, state: CCState, player: int) -> float:
        """How far ``player`` is ahead of the average: ``0.9 * (mean distance left -
        player's distance left) / 140`` (140 bounds any distance left), strictly inside
        ``(-1, 1)`` and summing to 0 over the players, like the returns."""
        pieces = state[0]
        cached, values = self._eval_cache
        if cached != pieces:
            d = self.distances(state)
            mean = sum(d) / self.players
            values = tuple(EVAL_SCALE * (mean - x) / B.MAX_DISTANCE for x in d)
            self._eval_cache = (pieces, values)
        return values[player]

    def turn_passing(self) -> TurnPassing[CCState]:
        """The same pieces with another player to move (best-reply search's out-of-turn
        replies; the turn count is left as it is)."""
        return TurnPassing(self.give_turn)

    def give_turn(self, state: CCState, player: int) -> CCState:
        """``state`` with ``player`` to move."""
        return CCState(state.pieces, player, state.moves)

    def move_ordering(self) -> MoveOrdering[CCState, int]:
        return MoveOrdering(self.order_actions)

    def order_actions(self, state: CCState, actions: Sequence[int]) -> list[int]:
        """Forward moves first: by the steps gained towards the target tip, most first
        (ties keep the order given)."""
        dist = self.goal_distance[state[1]]

        def gain(a: int) -> int:
            if a == PASS:
                return 0
            src, dst = divmod(a, HOLES)
            return dist[dst] - dist[src]

        return sorted(actions, key=gain)

    def drawing(self) -> Drawing[CCState]:
        from .svg import render

        return Drawing(partial(render, self))

    def perft(self) -> Perft[CCState]:
        return Perft(PERFT_CONVENTIONS, self.count_perft)

    def count_perft(self, state: CCState, depth: int, convention: str | None = None) -> int:
        if convention not in (None, "perft"):
            raise InvalidLimitError(f"chinese_checkers perft convention {convention!r}; "
                                    "allowed: perft")
        if depth == 0:
            return 1
        if self.is_terminal(state):
            return 0
        acts = self.actions(state)
        if depth == 1:
            return len(acts)
        return sum(self.count_perft(self.result(state, a), depth - 1) for a in acts)

    # ----- notation --------------------------------------------------------------------
    def format_action(self, state: CCState, action: int) -> str:
        if action == PASS:
            return "pass"
        src, dst = divmod(action, HOLES)
        return f"{B.NAMES[src]}-{B.NAMES[dst]}"

    def parse_action(self, state: CCState, text: str) -> int:
        if not isinstance(text, str):
            raise IllegalMoveError(text, None, reason="write START-END, e.g. d1-e5")
        t = text.strip().lower()
        legal_moves = [] if self.is_terminal(state) else self.actions(state)

        def legal() -> list[str]:
            return [self.format_action(state, a) for a in legal_moves]

        if self.is_terminal(state):
            raise IllegalMoveError(text, [], reason="the game is over")
        if t == "pass":
            if PASS in legal_moves:
                return PASS
            raise IllegalMoveError(text, legal(), reason="a pass is legal only without "
                                   "any other move")
        start, dash, end = t.partition("-")
        if not dash:
            raise IllegalMoveError(text, legal(), reason="write START-END with hole names "
                                   "like d1-e5 (rows a-q from the top, holes from 1 at "
                                   "the left)")
        for name in (start, end):
            if name.strip() not in B.BY_NAME:
                raise IllegalMoveError(text, legal(), reason=f"no hole {name.strip()[:8]!r}:"
                                       " rows a-q from the top, holes from 1 at the left")
        src, dst = B.BY_NAME[start.strip()], B.BY_NAME[end.strip()]
        action = src * HOLES + dst
        if action not in legal_moves:
            who = next((p for p, m in enumerate(state[0]) if (m >> src) & 1), None)
            why = ("no piece on " + B.NAMES[src] if who is None else
                   f"the piece on {B.NAMES[src]} is player {who + 1}'s"
                   if who != state[1] else
                   f"{B.NAMES[dst]} cannot be reached from {B.NAMES[src]}")
            raise IllegalMoveError(text, legal(), reason=why)
        return action

    def format_state(self, state: CCState) -> str:
        cells = ["."] * HOLES
        for p, m in enumerate(state[0]):
            for h in set_bits(m):
                cells[h] = str(p + 1)
        rows = []
        i = 0
        for n in B.ROW_LENGTHS:
            rows.append("".join(cells[i:i + n]))
            i += n
        return f"{'/'.join(rows)} {state[1] + 1} {state[2]}"

    def split_position_line(self, line: str) -> tuple[str, str]:
        words = line.split()
        n = 1
        while n < len(words) and n < 3 and words[n].isascii() and words[n].isdigit():
            n += 1
        return " ".join(words[:n]), " ".join(words[n:])

    def parse_state(self, text: str) -> CCState:
        def bad(why: str) -> InvalidPositionError:
            return InvalidPositionError(f"chinese_checkers position {text[:60]!r}: {why}")

        if not isinstance(text, str):
            raise InvalidPositionError(f"chinese_checkers position {text!r}: expected text")
        words = text.split()
        if not 1 <= len(words) <= 3:
            raise bad(f"expected {self.state_notation}")
        rows = words[0].split("/")
        if len(rows) != B.ROWS:
            raise bad(f"expected {B.ROWS} rows separated by '/', got {len(rows)}")
        for r, (row, n) in enumerate(zip(rows, B.ROW_LENGTHS, strict=True)):
            if len(row) != n:
                raise bad(f"row {B.ROW_LETTERS[r]} has {n} holes, got {len(row)}")
        cells = "".join(rows)
        pieces = [0] * self.players
        for h, ch in enumerate(cells):
            if ch == ".":
                continue
            if not (ch.isascii() and ch.isdigit() and 1 <= int(ch) <= self.players):
                raise bad(f"hole {B.NAMES[h]}: {ch!r} is neither '.' nor a player 1-"
                          f"{self.players}")
            pieces[int(ch) - 1] |= 1 << h
        for p, m in enumerate(pieces):
            if m.bit_count() != 10:
                raise bad(f"player {p + 1} has {m.bit_count()} pieces, not 10")
        player, moves = 0, 0
        if len(words) > 1:
            w = words[1]
            if not (w.isascii() and w.isdigit() and 1 <= int(w) <= self.players):
                raise bad(f"the player to move must be 1-{self.players}, not {w[:8]!r}")
            player = int(w) - 1
        if len(words) > 2:
            w = words[2]
            if not (w.isascii() and w.isdigit() and len(w) <= 6
                    and int(w) <= self.max_moves):
                raise bad(f"the turns played must be 0-{self.max_moves}, not {w[:8]!r}")
            moves = int(w)
        state = CCState(tuple(pieces), player, moves)
        finished = [p for p in range(self.players) if pieces[p] == self.goal_masks[p]]
        if len(finished) > 1:
            raise bad("more than one player has filled the target triangle")
        return state

    def render(self, state: CCState) -> str:
        cells = ["."] * HOLES
        for p, m in enumerate(state[0]):
            for h in set_bits(m):
                cells[h] = str(p + 1)
        lines = []
        i = 0
        for r, n in enumerate(B.ROW_LENGTHS):
            line = [" "] * 25
            for h in range(i, i + n):
                line[B.CELLS[h][1]] = cells[h]
            lines.append(f"{B.ROW_LETTERS[r]}  {''.join(line).rstrip()}")
            i += n
        d = self.distances(state)
        status = "  ".join(f"{p + 1}:{d[p]}" for p in range(self.players))
        head = (f"over: {self.termination(state)}" if self.is_terminal(state)
                else f"player {state[1] + 1} to move")
        lines.append(f"{head}; {state[2]} of {self.max_moves} turns played; distance left "
                     f"{status}")
        return "\n".join(lines)
