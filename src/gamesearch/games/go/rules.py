"""The rules of Go on boards from 5x5 to 19x19: area scoring, positional superko, GTP
notation, handicap stones.

Rules (the Chinese rules' area count as Tromp and Taylor write them down, "The logical
rules of Go", https://tromp.github.io/go.html, with the choices below):

* two players, Black (player 0) and White (player 1); Black moves first, or White when
  Black has handicap stones;
* a move is a stone on an empty point, or a pass. After the stone is placed, every enemy
  group left without a liberty is removed; then, if the mover's own group has no liberty,
  the move is *suicide*: illegal by default (as in the Chinese and Japanese rules);
  ``suicide=1`` makes it legal as Tromp-Taylor do (the mover's group is removed);
* **positional superko**: a move may not recreate a board (the stones, whoever is to move)
  that appeared before in the game, the start included. A pass is always legal (it
  repeats the board, and that is allowed);
* the game ends after two passes in a row (``max_moves=N`` also ends it after ``N`` moves,
  passes included: OpenSpiel's length cap, for comparisons; 0: no cap);
* **area scoring**: a player's points are its stones plus the empty points that reach only
  its stones; White adds ``komi`` (7.5 by default). Every stone on the board counts as
  alive: the players remove dead stones by capturing them before passing (the
  ``--capture-all-dead`` convention; GTP's ``final_score`` in :mod:`..interfaces.gtp`
  estimates dead stones by playouts instead). The utility is +1 for the winner, -1 for the
  loser, 0 each on a tie (only with a whole-number komi);
* handicap stones (``handicap=2..9``): the fixed placement of the GTP specification
  (section 4.1.1: star points on the 3rd line below 13x13, the 4th above), Black's stones
  placed at the start, and White moves first. The komi stays as given (no compensation is
  added).

State: :class:`GoState`, an immutable value: the board as ``bytes`` (point ``row * size +
col``, row 0 the bottom line ``1``, col 0 the column ``A``; 0 empty, 1 black, 2 white), the
player to move, the passes in a row, the moves played, its Zobrist hash (64 bits, a fixed
seed) and the set of the hashes of every board of the game so far (positional superko).
Actions are point numbers; the pass is ``size * size`` (OpenSpiel's numbering, so the
comparison tests read its actions as ours).

Notation: a move is a GTP vertex, a column letter ``A``-``T`` without ``I`` and a row
number from the bottom (``D4``, ``pass``; either case). A position is the rows from the top
(``size`` down to 1), each ``size`` characters (``X`` black, ``O`` white, ``.`` empty),
joined by ``/``, a space and ``b`` or ``w`` for the side to move: the empty 5x5 board with
Black to move is ``...../...../...../...../..... b``. A position read from text has only
its own board in its history.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from ...capabilities import Drawing, Evaluation, GameRecord, MatchHooks, Playouts
from ...errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from ...game import Game, GameType
from ...spec import GameOption

EMPTY, BLACK, WHITE = 0, 1, 2
#: The column letters of GTP (no ``I``).
COLUMNS = "ABCDEFGHJKLMNOPQRST"
MIN_SIZE, MAX_SIZE = 5, 19
STONE_CHARS = ".XO"
PLAYER_NAMES = ("black", "white")


class GoState:
    """A Go position (see the module docstring). Equal boards, side to move, passes and
    histories make equal states; the group analysis and the legal moves are computed once,
    when first asked."""

    __slots__ = ("_area", "_groups", "_legal", "board", "hash", "history", "last", "moves",
                 "passes", "to_move")

    def __init__(self, board: bytes, to_move: int, passes: int, moves: int, hash_: int,
                 history: frozenset[int], last: int = -1) -> None:
        self.board = board
        #: the point of the stone played last (-1: a pass, or not known); not part of the
        #: state's identity, only the playouts' ``answer_last`` option reads it
        self.last = last
        self.to_move = to_move
        self.passes = passes
        self.moves = moves
        self.hash = hash_
        self.history = history
        self._groups: tuple[list[int], list[list[int]], list[int]] | None = None
        self._legal: tuple[int, ...] | None = None
        #: Black's and White's area when a compiled playout counted it at its end
        self._area: tuple[int, int] | None = None

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, GoState) and self.hash == other.hash
                and self.board == other.board and self.to_move == other.to_move
                and self.passes == other.passes and self.moves == other.moves
                and self.history == other.history)

    def __hash__(self) -> int:
        return hash((self.hash, self.to_move, self.passes, self.moves, len(self.history)))

    def __repr__(self) -> str:
        return f"GoState(moves={self.moves}, to_move={self.to_move}, passes={self.passes})"


def zobrist_keys(points: int) -> tuple[tuple[int, int, int], ...]:
    """``keys[point][colour]``: 64-bit random numbers (0 for an empty point), from a fixed
    seed, so hashes are the same in every process."""
    rng = random.Random(0x60_60)
    return tuple((0, rng.getrandbits(64), rng.getrandbits(64)) for _ in range(points))


def neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    """The orthogonal neighbours of each point."""
    out = []
    for p in range(size * size):
        r, c = divmod(p, size)
        out.append(tuple(q for q, ok in ((p - size, r > 0), (p + size, r < size - 1),
                                         (p - 1, c > 0), (p + 1, c < size - 1)) if ok))
    return tuple(out)


def handicap_points(size: int, stones: int) -> list[int]:
    """The fixed handicap placement of the GTP specification (section 4.1.1), as points:
    2-9 stones on odd boards from 9x9, 2-4 on even boards and on 7x7 and 8x8; none below."""
    if stones == 0:
        return []
    most = 0 if size < 7 else 9 if size % 2 and size >= 9 else 4
    if not 2 <= stones <= most:
        raise InvalidLimitError(
            f"go handicap={stones}: {size}x{size} takes " + (
                "no fixed handicap" if not most else f"2 to {most} handicap stones"))
    edge = 2 if size < 13 else 3
    low, high, mid = edge, size - 1 - edge, size // 2

    def pt(col: int, row: int) -> int:
        return row * size + col

    corners = [pt(low, low), pt(high, high), pt(low, high), pt(high, low)]
    sides = [pt(low, mid), pt(high, mid), pt(mid, low), pt(mid, high)]
    centre = pt(mid, mid)
    layout = {2: corners[:2], 3: corners[:3], 4: corners, 5: [*corners, centre],
              6: corners + sides[:2], 7: [*corners, *sides[:2], centre],
              8: corners + sides, 9: [*corners, *sides, centre]}
    return layout[stones]


#: The Go program: the library's MCTS with RAVE, the learned priors as 20 virtual AMAF
#: visits and no UCB exploration term (RAVE's and the priors' values explore; measured
#: against GNU Go in docs/results/go.md), on the game's default playouts. Add a
#: budget: ``f"{PROGRAM},time=2"``.
PROGRAM = "mcts:rave=1,prior_visits=20,c=0"


class Go(Game[GoState, int]):
    """Go (``go:size=9,komi=7.5``); see the module docstring."""

    name = "go"
    max_utility = 1.0
    options = (
        GameOption("size", int, 9, (MIN_SIZE, MAX_SIZE), "the board's side, 5 to 19"),
        GameOption("komi", float, 7.5, (-200.0, 200.0), "points added to White's area"),
        GameOption("handicap", int, 0, (0, 9), "Black's fixed handicap stones (0, 2-9)"),
        GameOption("suicide", bool, False, None,
                   "Tromp-Taylor: suicide is legal and removes the mover's group"),
        GameOption("max_moves", int, 0, (0, 10_000),
                   "end the game after this many moves, passes included (0: no cap)"),
        GameOption("playout", str, "patterns", ("patterns", "captures", "random"),
                   "MCTS playouts: MoGo's patterns, captures and ataris only, or random"),
        GameOption("priors", bool, True, None,
                   "MCTS priors from the learned pattern table (0: uniform)"),
        GameOption("no_self_atari", bool, True, None,
                   "playouts never put a group of 2+ stones in atari (unless capturing)"),
        GameOption("capture_any", bool, True, None,
                   "playouts capture any group in atari before a random move (MoGo)"),
        GameOption("uniform_random", bool, True, None,
                   "the playouts' random move uniform over the allowed points"),
        GameOption("answer_last", bool, True, None,
                   "playouts start from the tree's last move (its answers, its ko)"),
    )

    def __init__(self, size: int = 9, komi: float = 7.5, handicap: int = 0,
                 suicide: bool = False, max_moves: int = 0, playout: str = "patterns",
                 priors: bool = True, no_self_atari: bool = True,
                 capture_any: bool = True, uniform_random: bool = True,
                 answer_last: bool = True) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or not (
                MIN_SIZE <= size <= MAX_SIZE):
            raise InvalidLimitError(f"go size={size!r}: boards are {MIN_SIZE}x{MIN_SIZE} "
                                    f"to {MAX_SIZE}x{MAX_SIZE}")
        if isinstance(komi, bool) or not isinstance(komi, int | float) or komi != komi \
                or abs(komi) > 200 or (komi * 2) != int(komi * 2):
            raise InvalidLimitError(f"go komi={komi!r}: a multiple of 0.5 within ±200")
        if isinstance(handicap, bool) or not isinstance(handicap, int) or handicap == 1:
            raise InvalidLimitError(f"go handicap={handicap!r}: 0 or 2-9 stones")
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 0:
            raise InvalidLimitError(f"go max_moves={max_moves!r}: a whole number >= 0")
        if playout not in ("patterns", "captures", "random"):
            raise InvalidLimitError(f"go playout={playout!r}; allowed: patterns, captures, "
                                    "random")
        self.size = size
        self.playout = playout
        self.priors = bool(priors)
        #: the playout's refinements (:mod:`.fast`), each on by default (``=0``: the old
        #: playout, for the ablations)
        self.no_self_atari = bool(no_self_atari)
        self.capture_any = bool(capture_any)
        self.uniform_random = bool(uniform_random)
        self.answer_last = bool(answer_last)
        self.komi = float(komi)
        self.handicap = handicap
        self.suicide = bool(suicide)
        self.max_moves = max_moves
        self.points = size * size
        self.pass_action = self.points
        self.handicap_stones = handicap_points(size, handicap)
        self.neighbours = neighbour_table(size)
        self.zobrist = zobrist_keys(self.points)
        #: the legal moves' and a stone's functions (:meth:`_compiled`)
        self._compiled_rules: tuple[Callable[[GoState], list[int]], Callable[
            [GoState, int], tuple[bytes, int, bool] | None]] | None = None
        self.game_type = GameType(num_players=2, zero_sum=True, constant_sum=0.0,
                                  value_bounds=(-1.0, 1.0))
        self.description = (f"Go {size}x{size}, area scoring, komi {self.komi:g}, positional "
                            "superko; moves D4 or pass (GTP vertices)")
        self.state_notation = (
            "the rows from the top, X black, O white, . empty, joined by /, then b or w "
            "(the side to move), e.g. ...../...../...../...../..... b")

    def split_position_line(self, line: str) -> tuple[str, str]:
        words = line.split(None, 2)
        return " ".join(words[:2]), (words[2].strip() if len(words) > 2 else "")

    # ----- building positions ------------------------------------------------------------
    def position(self, stones: Iterable[tuple[int, int]], to_move: int,
                 history: Iterable[int] = ()) -> GoState:
        """A position with ``stones`` (``(point, BLACK or WHITE)``) and ``to_move`` (0 or
        1); its history is ``history`` plus its own board."""
        board = bytearray(self.points)
        h = 0
        for p, colour in stones:
            if board[p]:
                h ^= self.zobrist[p][board[p]]
            board[p] = colour
            h ^= self.zobrist[p][colour]
        return GoState(bytes(board), to_move, 0, 0, h, frozenset(history) | {h})

    def with_stones(self, state: GoState, points: Sequence[int], colour: int = BLACK
                    ) -> GoState:
        """``state`` with extra stones of ``colour`` (handicap stones placed by GTP's
        ``set_free_handicap``) and White to move; the board must be free there."""
        for p in points:
            if not 0 <= p < self.points or state.board[p]:
                raise IllegalMoveError(self.vertex(p) if 0 <= p < self.points else str(p),
                                       reason="a handicap stone needs an empty point")
        if len(set(points)) != len(points):
            raise IllegalMoveError(" ".join(self.vertex(p) for p in points),
                                   reason="the same point twice")
        stones = [(p, c) for p, c in enumerate(state.board) if c]
        return self.position([*stones, *((p, colour) for p in points)], 1, state.history)

    # ----- the textbook's six functions ----------------------------------------------------
    def initial_state(self) -> GoState:
        if self.handicap_stones:
            return self.position(((p, BLACK) for p in self.handicap_stones), 1)
        return self.position((), 0)

    def to_move(self, state: GoState) -> int:
        return state.to_move

    def groups(self, state: GoState) -> tuple[list[int], list[list[int]], list[int]]:
        """``(group_of, stones, liberties)``: the group index of each point (-1 empty), each
        group's stones and its number of liberties (cached on the state)."""
        g = state._groups
        if g is not None:
            return g
        board, nbrs = state.board, self.neighbours
        group_of = [-1] * self.points
        stones: list[list[int]] = []
        libs: list[int] = []
        for p in range(self.points):
            colour = board[p]
            if not colour or group_of[p] >= 0:
                continue
            gid = len(stones)
            members = [p]
            group_of[p] = gid
            liberties = set()
            i = 0
            while i < len(members):
                for q in nbrs[members[i]]:
                    c = board[q]
                    if c == colour:
                        if group_of[q] < 0:
                            group_of[q] = gid
                            members.append(q)
                    elif not c:
                        liberties.add(q)
                i += 1
            stones.append(members)
            libs.append(len(liberties))
        g = state._groups = (group_of, stones, libs)
        return g

    def _play(self, state: GoState, p: int) -> tuple[bytes, int, bool] | None:
        """The board and hash after the mover's stone on the empty point ``p``, and whether
        it was suicide (``None``: suicide while it is illegal)."""
        group_of, stones, libs = self.groups(state)
        board = state.board
        me = BLACK + state.to_move
        other = 3 - me
        nbrs = self.neighbours[p]
        captured: list[int] = []
        alive = False
        for q in nbrs:
            c = board[q]
            if not c:
                alive = True
            elif c == me:
                if libs[group_of[q]] > 1:
                    alive = True
            elif libs[group_of[q]] == 1 and group_of[q] not in captured:
                captured.append(group_of[q])
        zob = self.zobrist
        h = state.hash ^ zob[p][me]
        new = bytearray(board)
        new[p] = me
        for gid in captured:
            for s in stones[gid]:
                new[s] = EMPTY
                h ^= zob[s][other]
        suicide = not alive and not captured
        if suicide:
            if not self.suicide:
                return None
            own = {p}
            todo = [p]
            while todo:
                for q in self.neighbours[todo.pop()]:
                    if new[q] == me and q not in own:
                        own.add(q)
                        todo.append(q)
            for s in own:
                new[s] = EMPTY
                h ^= zob[s][me]
        return bytes(new), h, suicide

    def is_legal(self, state: GoState, action: int) -> bool:
        """``action`` is legal for the side to move (the pass always is, until the end)."""
        if action == self.pass_action:
            return True
        if not 0 <= action < self.points or state.board[action]:
            return False
        played = self._play(state, action)
        return played is not None and played[1] not in state.history

    def actions(self, state: GoState) -> list[int]:
        legal = state._legal
        if legal is None:
            legal = state._legal = tuple(self._legal_moves(state))
        return list(legal)

    def _compiled(self) -> tuple[Callable[[GoState], list[int]],
                                 Callable[[GoState, int], tuple[bytes, int, bool] | None]]:
        """The legal moves and a stone's play: compiled (:class:`.fast.GoKernels`'s
        ``legal_points`` and ``play``, tested against :meth:`_legal_points` and
        :meth:`_play`) when numba is installed and suicide is illegal, else the plain
        ones; chosen at the first call."""
        compiled = self._compiled_rules
        if compiled is None:
            from . import fast

            if fast.available() and not self.suicide:
                kernels = fast.kernels(self)
                compiled = (kernels.legal_points, kernels.play)
            else:
                compiled = (self._legal_points, self._play)
            self._compiled_rules = compiled
        return compiled

    def _legal_moves(self, state: GoState) -> list[int]:
        """The legal moves (:meth:`_compiled`'s)."""
        if self.is_terminal(state):
            return []
        return self._compiled()[0](state)

    def _legal_points(self, state: GoState) -> list[int]:
        """The legal moves (:meth:`actions`, computed once per state)."""
        if self.is_terminal(state):
            return []
        board = state.board
        group_of, _stones, libs = self.groups(state)
        me = BLACK + state.to_move
        nbrs, history = self.neighbours, state.history
        out = []
        for p in range(self.points):
            if board[p]:
                continue
            # the common case at once: an empty neighbour, and no capture to hash
            safe = False
            simple = True
            for q in nbrs[p]:
                c = board[q]
                if not c:
                    safe = True
                elif c == me:
                    if libs[group_of[q]] > 1:
                        safe = True
                elif libs[group_of[q]] == 1:
                    simple = False
            if safe and simple:
                if state.hash ^ self.zobrist[p][me] not in history:
                    out.append(p)
                continue
            played = self._play(state, p)
            if played is not None and played[1] not in history:
                out.append(p)
        out.append(self.pass_action)
        return out

    def result(self, state: GoState, action: int) -> GoState:
        moves = state.moves + 1
        if action == self.pass_action:
            return GoState(state.board, 1 - state.to_move, state.passes + 1, moves,
                           state.hash, state.history)
        played = self._compiled()[1](state, action)
        if played is None:
            raise IllegalMoveError(self.vertex(action), reason="suicide")
        board, h, _ = played
        return GoState(board, 1 - state.to_move, 0, moves, h, state.history | {h}, action)

    def is_terminal(self, state: GoState) -> bool:
        return state.passes >= 2 or (self.max_moves > 0 and state.moves >= self.max_moves)

    def area(self, board: bytes) -> tuple[int, int]:
        """Black's and White's area: stones plus the empty points that reach only their
        colour (Tromp-Taylor)."""
        black = board.count(BLACK)
        white = board.count(WHITE)
        seen = bytearray(self.points)
        nbrs = self.neighbours
        for p in range(self.points):
            if board[p] or seen[p]:
                continue
            region = [p]
            seen[p] = 1
            reach = 0
            i = 0
            while i < len(region):
                for q in nbrs[region[i]]:
                    c = board[q]
                    if c:
                        reach |= c
                    elif not seen[q]:
                        seen[q] = 1
                        region.append(q)
                i += 1
            if reach == BLACK:
                black += len(region)
            elif reach == WHITE:
                white += len(region)
        return black, white

    def score(self, state: GoState) -> float:
        """Black's area less White's, less the komi (positive: Black leads)."""
        area = state._area
        black, white = area if area is not None else self.area(state.board)
        return black - white - self.komi

    def returns(self, state: GoState) -> tuple[float, float]:
        s = self.score(state)
        u = 1.0 if s > 0 else -1.0 if s < 0 else 0.0
        return (u, -u)

    def utility(self, state: GoState, player: int) -> float:
        return self.returns(state)[player]

    def terminal_utility(self, state: GoState, player: int) -> float | None:
        if state.passes < 2 and not (self.max_moves > 0 and state.moves >= self.max_moves):
            return None
        return self.returns(state)[player]

    def key(self, state: GoState) -> tuple[int, int, int, int, frozenset[int]]:
        # the history is part of the position: positional superko's legal moves depend on
        # it (and the move count, under a move cap)
        return (state.hash, state.to_move, state.passes,
                state.moves if self.max_moves else 0, state.history)

    # ----- capabilities ----------------------------------------------------------------
    def evaluation(self, name: str | None = None) -> Evaluation[GoState] | None:
        """The area count so far, squashed into (-0.9, 0.9) (:meth:`evaluate`)."""
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def evaluate(self, state: GoState, player: int) -> float:
        """``0.9 * tanh``-like squash of the area score (:meth:`score`) for ``player``:
        ``0.9 * s / (|s| + 5)``; a crude estimate (MCTS's playouts are the real one)."""
        s = self.score(state)
        v = 0.9 * s / (abs(s) + 5.0)
        return v if player == 0 else -v

    def playouts(self) -> Playouts[GoState] | None:
        """Compiled playouts with captures, ataris and MoGo's 3x3 patterns, and priors
        from the shipped pattern table (:mod:`.fast`, :mod:`.patterns`), when numba is
        installed; the options ``playout_policy`` and ``priors`` of
        :func:`.fast.go_playouts` switch each part off."""
        from . import fast

        return fast.go_playouts(self) if fast.available() else None

    def drawing(self) -> Drawing[GoState]:
        """The board as SVG, empty points clickable, a pass button (see :mod:`.svg`)."""
        from .svg import render

        return Drawing(partial(render, self))

    def game_record(self) -> GameRecord[GoState, int] | None:
        """SGF records through ``sgfmill`` (:mod:`.sgf`; the ``go`` extra): ``None`` when
        it is not installed."""
        if importlib.util.find_spec("sgfmill") is None:
            return None
        from .sgf import read_sgf_line, write_sgf

        def write(start: GoState, actions: Sequence[int], names: Sequence[str]) -> bytes:
            return write_sgf(self, actions, start, *names[:2])

        return GameRecord("SGF", "sgf", write, partial(read_sgf_line, self))

    def match_hooks(self) -> MatchHooks:
        """The default opponent: the program (:data:`PROGRAM`), 2 s a move."""
        return MatchHooks(default_opponent=f"{PROGRAM},time=2")

    def gtp(self) -> Go:
        """Go speaks GTP: the game is its own :class:`~gamesearch.capabilities.GTPBoard`
        (``size``, ``komi``, ``vertex``, ``with_stones``, ``area`` are its own; the rest
        below)."""
        return self

    # ----- what GTP asks besides (GTPBoard) ------------------------------------------------
    min_size, max_size = MIN_SIZE, MAX_SIZE

    def stones(self, state: GoState) -> bytes:
        """The colour on each point (0 empty, 1 black, 2 white)."""
        return state.board

    def with_turn(self, state: GoState, player: int) -> GoState:
        """The position with ``player`` to move: ``state`` on its turn, else the same board
        handed over without a pass (GTP lets a colour play twice)."""
        if state.to_move == player:
            return state
        return GoState(state.board, player, 0, state.moves, state.hash, state.history)

    def reopened(self, state: GoState) -> GoState:
        """The position with its passes forgotten (a stone played after the game's end)."""
        return GoState(state.board, state.to_move, 0, state.moves, state.hash, state.history)

    def handicap_points(self, stones: int) -> list[int]:
        """The fixed handicap points of ``stones`` stones (GTP's ``fixed_handicap``)."""
        return handicap_points(self.size, stones)

    def read_record(self, data: bytes) -> tuple[int, float, list[GoState]]:
        """An SGF record's size, komi and main line's states, under this game's other rules
        (``sgfmill``: the ``go`` extra)."""
        from .sgf import read_sgf, rules_options

        record, states = read_sgf(data, **rules_options(self))
        return record.size, record.komi, states

    def owners(self, stones: bytes) -> list[int]:
        """Each point's owner under area scoring: its stone's colour, or the one colour an
        empty region reaches (0: neutral)."""
        from .svg import owners

        return owners(self, stones)

    # ----- notation --------------------------------------------------------------------
    def vertex(self, point: int) -> str:
        """The GTP vertex of a point (``pass`` for the pass)."""
        if point == self.pass_action:
            return "pass"
        r, c = divmod(point, self.size)
        return f"{COLUMNS[c]}{r + 1}"

    def parse_vertex(self, text: str) -> int:
        """A GTP vertex read as a point (the pass included); a malformed one or one off
        the board raises :class:`IllegalMoveError`."""
        word = text.strip().upper()
        if word == "PASS":
            return self.pass_action
        if len(word) < 2 or word[0] not in COLUMNS or not word[1:].isdigit() \
                or not word[1:].isascii() or len(word) > 3:
            raise IllegalMoveError(text, reason="a move is a vertex like D4 (columns A-T "
                                   "without I, rows from 1 at the bottom) or pass")
        c, r = COLUMNS.index(word[0]), int(word[1:]) - 1
        if c >= self.size or not 0 <= r < self.size:
            raise IllegalMoveError(text, reason=f"off the {self.size}x{self.size} board")
        return r * self.size + c

    def format_action(self, state: GoState, action: int) -> str:
        return self.vertex(action)

    def parse_action(self, state: GoState, text: str) -> int:
        point = self.parse_vertex(text)
        if self.is_terminal(state):
            raise IllegalMoveError(text, [], reason="the game is over")
        if point == self.pass_action:
            return point
        if state.board[point]:
            raise IllegalMoveError(text, reason="the point is occupied")
        played = self._play(state, point)
        if played is None:
            raise IllegalMoveError(text, reason="suicide")
        if played[1] in state.history:
            raise IllegalMoveError(text, reason="ko: the board would repeat (positional "
                                   "superko)")
        return point

    def legal_action_strings(self, state: GoState) -> list[str]:
        return [self.vertex(a) for a in self.actions(state)]

    def format_state(self, state: GoState) -> str:
        n = self.size
        rows = ["".join(STONE_CHARS[state.board[r * n + c]] for c in range(n))
                for r in range(n - 1, -1, -1)]
        return "/".join(rows) + " " + "bw"[state.to_move]

    def parse_state(self, text: str) -> GoState:
        shown = text.strip()[:80]
        words = text.split()
        if len(words) != 2 or words[1].lower() not in ("b", "w"):
            raise InvalidPositionError(f"go position {shown!r}: {self.state_notation}")
        rows = words[0].split("/")
        n = self.size
        if len(rows) != n or any(len(r) != n for r in rows):
            raise InvalidPositionError(f"go position {shown!r}: expected {n} rows of {n} "
                                       f"points for {n}x{n}")
        stones = []
        for i, row in enumerate(rows):
            for c, ch in enumerate(row.upper()):
                if ch not in ".XO-":
                    raise InvalidPositionError(f"go position {shown!r}: bad point {ch!r}; "
                                               "allowed: X, O, . (or -)")
                if ch in "XO":
                    stones.append(((n - 1 - i) * n + c, BLACK if ch == "X" else WHITE))
        state = self.position(stones, "bw".index(words[1].lower()))
        _, _, libs = self.groups(state)
        if any(lib == 0 for lib in libs):
            raise InvalidPositionError(f"go position {shown!r}: a group without a liberty")
        return state

    def describe_action(self, state: GoState, action: int) -> str:
        return ("B " if state.to_move == 0 else "W ") + self.vertex(action)

    def result_text(self, state: GoState) -> str:
        """The result as SGF and GTP write it: ``B+3.5``, ``W+0.5``, ``0`` (a tie)."""
        s = self.score(state)
        return "0" if s == 0 else f"B+{s:g}" if s > 0 else f"W+{-s:g}"

    def termination(self, state: GoState) -> str | None:
        if not self.is_terminal(state):
            return None
        black, white = self.area(state.board)
        why = "two passes" if state.passes >= 2 else f"the {self.max_moves}-move cap"
        return (f"{why}: black area {black}, white area {white} + komi {self.komi:g}: "
                f"{self.result_text(state)}")

    def render(self, state: GoState) -> str:
        n = self.size
        letters = "   " + " ".join(COLUMNS[:n])
        rows = [letters]
        for r in range(n - 1, -1, -1):
            cells = " ".join(STONE_CHARS[state.board[r * n + c]] for c in range(n))
            rows.append(f"{r + 1:2d} {cells} {r + 1:2d}")
        rows.append(letters)
        caps = f"moves {state.moves}"
        status = ("game over: " + self.result_text(state) if self.is_terminal(state)
                  else f"{PLAYER_NAMES[state.to_move]} to move")
        rows.append(f"{caps}, komi {self.komi:g}, {status}")
        return "\n".join(rows)
