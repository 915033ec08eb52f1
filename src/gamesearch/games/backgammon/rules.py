"""The rules of backgammon (money play, no doubling cube), its notation and a pip-and-blot
evaluation.

Rules (the standard game, as gnubg and OpenSpiel play it):

* two sides of 15 checkers race round 24 points in opposite directions; each side counts
  the points from its own side: its 1-point is the last of its home board (points 1-6),
  its 24-point the first point of the opponent's home board. Start: two checkers on the
  24-point, five on the 13, three on the 8, five on the 6, for each side;
* the opening roll: each side throws one die, the higher starts and plays both dice (a tie
  is thrown again), so the first move is never a double. Later each side throws both dice
  at the start of its turn; a double is played four times;
* a checker moves the number of a die to a point that holds at most one checker of the
  opponent; a lone opponent's checker there (a blot) is hit and goes to the bar. A side with
  a checker on the bar must enter it first, on the opponent's home board (the bar counts as
  the 25-point: a 3 enters on the 22-point);
* bearing off: once all a side's checkers are in its home board, a die takes a checker off
  from the point of that number, or, when no checker stands on that point nor on any
  higher one, from the highest occupied point;
* both dice must be played when possible; if only one can be, the larger must be when it
  can; as many of a double as possible;
* the first side to bear off all 15 wins a single game (1 point), a gammon (2) when the
  loser has borne off none, a backgammon (3) when the loser has borne off none and still has
  a checker on the bar or in the winner's home board.

State: a tuple ``(on_roll, other, seat, die1, die2)``. ``on_roll`` and ``other`` are the
boards of the side whose turn it is (seat ``seat``, 0 or 1) and of its opponent, each a
25-tuple from its owner's point of view, as gnubg's ``TanBoard`` halves: index 0 is the
owner's 1-point ... 23 its 24-point, 24 its bar; borne-off checkers are ``15 - sum``.
``die1 >= die2`` are the dice rolled; ``die1 == 0``: the dice are not rolled yet (a chance
node: :meth:`Backgammon.chance_outcomes` lists the 21 rolls, 1/36 each for a double, 2/36
otherwise); ``die1 == -1``: the opening roll (30 ordered throws of one die each, not doubles,
1/30 each, written ``(starter, high, low)``). The game is over when the side that just
moved (``other``) has no checker left; the turn has then passed to the loser.

:func:`to_tanboard` and :func:`from_tanboard` convert a state to and from gnubg's
interchange board, a pair ``(side_not_on_roll, side_on_roll)``.

Actions: a move is a tuple of checker steps ``(from, to)`` in the mover's indices (24: the
bar, -1: off), in the order played; ``actions`` lists each distinct resulting position
once (the first step order that reaches it), and ``()`` when no die can be played (the
turn passes). Notation: gnubg's (``8/5 6/5``, ``bar/22``, ``6/off``, ``13/7*``,
``8/4(2)``, a checker's steps joined as ``24/13`` or ``24/18*/13`` when it hits on the way);
points are counted from the mover's side. ``parse_action`` takes any steps (joined or not,
in any order) that lead to a legal resulting position; ``pass`` or an empty line when no
move is possible.

Positions: ``POSITIONID:SEAT:DICE``: gnubg's 14-character position ID (the checkers, with
the side on roll's checkers as gnubg writes them), the seat on roll (0 or 1) and the dice:
two digits (``31``, high first) when rolled, ``--`` before the roll; gnubg keeps the side
on roll and the dice in its match ID, which this string replaces. ``opening`` stands for
the start before the opening roll: ``4HPwATDgc/ABMA:opening``. Example: after 31 played 8/5
6/5 by seat 0, seat 1 is to roll: ``4HPwATDgc/ABMA`` becomes the ID of that board from
seat 1's side (:meth:`Backgammon.format_state`).
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ...capabilities import Drawing, Evaluation, GnubgPlayer, MatchHooks
from ...errors import (
    IllegalMoveError,
    InvalidLimitError,
    InvalidPositionError,
    UnsupportedGameError,
)
from ...game import CHANCE, Game, GameType
from ...spec import GameOption

Board = tuple[int, ...]
#: ``(on_roll, other, seat, die1, die2)``, see the module docstring.
BGState = tuple[Board, Board, int, int, int]
Step = tuple[int, int]
#: A move's steps; at a chance node a roll ``(high, low)`` or an opening throw.
BGAction = tuple[Any, ...]
#: gnubg's interchange board: ``(side_not_on_roll, side_on_roll)``.
TanBoard = tuple[Board, Board]
#: An evaluator of a position before the roll: expected points for the side on roll
#: (``tanboard[1]``), strictly inside (-3, 3).
TanEvaluator = Callable[[TanBoard], float]

BAR = 24
OFF = -1
CHECKERS = 15
START_BOARD: Board = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
NOT_ROLLED = 0
OPENING = -1
PASS: BGAction = ()

#: The 21 distinct rolls (high die first) and their probabilities.
ROLLS: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((a, b), (1.0 if a == b else 2.0) / 36.0) for a in range(6, 0, -1) for b in range(a, 0, -1)
)
#: The opening throws: ``(starter seat, high, low)``, each 1/30.
OPENING_THROWS: tuple[tuple[tuple[int, int, int], float], ...] = tuple(
    ((seat, a, b), 1.0 / 30.0) for seat in (0, 1) for a in range(6, 0, -1)
    for b in range(a - 1, 0, -1)
)


# ----- the interchange board ---------------------------------------------------------------
def to_tanboard(state: BGState) -> TanBoard:
    """gnubg's ``TanBoard`` of a state: ``(side_not_on_roll, side_on_roll)``."""
    return (state[1], state[0])


def from_tanboard(board: Sequence[Sequence[int]], seat: int = 0,
                  dice: tuple[int, int] | None = None) -> BGState:
    """The state of gnubg's board ``(side_not_on_roll, side_on_roll)`` with seat ``seat`` on
    roll and ``dice`` (``None``: not rolled yet); checked like a parsed position."""
    if len(board) != 2 or any(len(side) != 25 for side in board):
        raise InvalidPositionError(f"backgammon board: expected two sides of 25 counts, got "
                                   f"{[len(s) for s in board]}")
    other = tuple(int(n) for n in board[0])
    on_roll = tuple(int(n) for n in board[1])
    d1, d2 = (NOT_ROLLED, NOT_ROLLED) if dice is None else check_dice(dice)
    if seat not in (0, 1):
        raise InvalidPositionError(f"backgammon seat {seat!r}: must be 0 or 1")
    state = (on_roll, other, seat, d1, d2)
    check_board(state)
    return state


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Two dice 1-6, high first; one-line error otherwise."""
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise InvalidPositionError(f"backgammon dice {tuple(dice)!r}: expected two dice 1-6")
    return (max(dice), min(dice))


def check_board(state: BGState) -> None:
    """Raise :class:`InvalidPositionError` unless both sides hold 0-15 checkers, no count is
    negative and no point holds checkers of both sides."""
    on_roll, other = state[0], state[1]
    for name, side in (("on roll", on_roll), ("not on roll", other)):
        if any(n < 0 for n in side):
            raise InvalidPositionError(f"backgammon board: negative checker count for the "
                                       f"side {name}")
        if sum(side) > CHECKERS:
            raise InvalidPositionError(f"backgammon board: the side {name} has {sum(side)} "
                                       f"checkers, at most {CHECKERS}")
    for i in range(24):
        if on_roll[i] and other[23 - i]:
            raise InvalidPositionError(f"backgammon board: both sides have checkers on the "
                                       f"on-roll side's {i + 1}-point")
    if sum(on_roll) == 0 and sum(other) == 0:
        raise InvalidPositionError("backgammon board: both sides have borne off every checker")
    if sum(other) == 0 and state[3] != NOT_ROLLED:
        raise InvalidPositionError("backgammon board: the side not on roll has borne off every "
                                   "checker, so the game is over: no dice (--)")
    if sum(on_roll) == 0:
        raise InvalidPositionError("backgammon board: the side on roll has borne off every "
                                   "checker, so the game ended before its turn")


# ----- gnubg position IDs ------------------------------------------------------------------
def position_id(board: TanBoard) -> str:
    """gnubg's position ID of a ``TanBoard``: for each side (not on roll first), for each of
    its 25 places (1-point .. 24-point, bar), as many 1 bits as checkers then a 0 bit,
    packed little-endian into 10 bytes, in base64 without the padding (14 characters)."""
    bits: list[int] = []
    for side in board:
        for n in side:
            bits.extend([1] * n)
            bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    data = bytearray(10)
    for i, bit in enumerate(bits):
        if bit:
            data[i >> 3] |= 1 << (i & 7)
    return base64.b64encode(bytes(data)).decode("ascii")[:14]


def board_from_position_id(text: str) -> TanBoard:
    """The ``TanBoard`` of a gnubg position ID; :class:`InvalidPositionError` if bad."""
    where = f"backgammon position ID {text!r}"
    if len(text) != 14 or not re.fullmatch(r"[A-Za-z0-9+/]{14}", text):
        raise InvalidPositionError(f"{where}: expected 14 base64 characters (A-Z a-z 0-9 + /)"
                                   ", e.g. 4HPwATDgc/ABMA")
    data = base64.b64decode(text + "==")
    sides: list[list[int]] = [[], []]
    side, count = 0, 0
    for i in range(80):
        if side == 2:
            if data[i >> 3] >> (i & 7) & 1:
                raise InvalidPositionError(f"{where}: bits left after both sides' 25 places")
            continue
        if data[i >> 3] >> (i & 7) & 1:
            count += 1
            continue
        sides[side].append(count)
        count = 0
        if len(sides[side]) == 25:
            side += 1
    if side != 2:
        raise InvalidPositionError(f"{where}: it does not describe both sides' 25 places")
    for s in sides:
        if sum(s) > CHECKERS:
            raise InvalidPositionError(f"{where}: a side has {sum(s)} checkers, at most 15")
    return (tuple(sides[0]), tuple(sides[1]))


# ----- move generation -----------------------------------------------------------------------
def _step(own: list[int], opp: list[int], src: int, die: int) -> int | None:
    """Where a checker of ``own`` on ``src`` lands with ``die`` (``OFF``: borne off), or
    ``None`` when it cannot move; bar first and bearing off are checked here."""
    if own[BAR] and src != BAR:
        return None
    dst = src - die
    if dst >= 0:
        return None if opp[23 - dst] > 1 else dst
    # bearing off: every checker home
    for i in range(6, 25):
        if own[i]:
            return None
    if dst == -1:
        return OFF
    for i in range(src + 1, 6):  # a higher die only from the highest occupied point
        if own[i]:
            return None
    return OFF


def _play(own: list[int], opp: list[int], src: int, dst: int) -> bool:
    """Move a checker in place; return whether it hit."""
    own[src] -= 1
    if dst == OFF:
        return False
    own[dst] += 1
    j = 23 - dst
    if opp[j] == 1:
        opp[j] = 0
        opp[BAR] += 1
        return True
    return False


def legal_moves(own: Board, opp: Board, d1: int, d2: int) -> dict[tuple[Board, Board], BGAction]:
    """Every distinct position reachable with the dice ``d1, d2``, as ``{(own, opp) after the
    move: the first steps found that reach it}``, in generation order (sources from the bar
    and the 24-point down, the higher die first); ``{(own, opp): ()}`` when no die can be
    played. As many dice as possible are played; when only one of two can be, the larger
    if it can."""
    found: dict[tuple[Board, Board], BGAction] = {}
    best_len = 0

    def walk(o: list[int], p: list[int], dice: tuple[int, ...], steps: list[Step]) -> None:
        nonlocal best_len
        moved = False
        if dice:
            die = dice[0]
            for src in ((BAR,) if o[BAR] else range(23, -1, -1)):
                if not o[src]:
                    continue
                dst = _step(o, p, src, die)
                if dst is None:
                    continue
                moved = True
                o2, p2 = o[:], p[:]
                _play(o2, p2, src, dst)
                steps.append((src, dst))
                walk(o2, p2, dice[1:], steps)
                steps.pop()
        if moved or not steps:
            return
        n = len(steps)
        if n < best_len:
            return
        if n > best_len:
            best_len = n
            found.clear()
        key = (tuple(o), tuple(p))
        if key not in found:
            found[key] = tuple(steps)

    if d1 == d2:
        walk(list(own), list(opp), (d1,) * 4, [])
    else:
        hi, lo = max(d1, d2), min(d1, d2)
        walk(list(own), list(opp), (hi, lo), [])
        walk(list(own), list(opp), (lo, hi), [])
        if best_len == 1:  # only one die can be played: the larger when it can
            with_larger = set()
            for src in ((BAR,) if own[BAR] else range(23, -1, -1)):
                if own[src] and _step(list(own), list(opp), src, hi) is not None:
                    o2, p2 = list(own), list(opp)
                    _play(o2, p2, src, _step(o2, p2, src, hi))  # type: ignore[arg-type]
                    with_larger.add((tuple(o2), tuple(p2)))
            if with_larger:
                found = {k: v for k, v in found.items() if k in with_larger}
    if not found:
        return {(tuple(own), tuple(opp)): PASS}
    return found


def pip_count(side: Board) -> int:
    """The pips a side needs to bear off (the bar counts 25)."""
    return sum((i + 1) * n for i, n in enumerate(side))


def exposed_blots(side: Board, other: Board) -> int:
    """The blots (single checkers on points) of ``side`` that a checker of ``other`` could
    still hit: beyond ``other``'s rearmost checker (``other`` moves towards ``side``'s
    24-point; a checker on its bar is behind everything)."""
    if other[BAR]:
        rearmost = -1
    else:
        rearmost = min((23 - j for j in range(24) if other[j]), default=24)
    return sum(1 for i in range(rearmost + 1, 24) if side[i] == 1)


def pip_evaluator(board: TanBoard) -> float:
    """A crude estimate of the expected points for the side on roll (``board[1]``): its pip
    lead, plus a roll's worth of tempo (8 pips), plus 12 pips per exposed blot of the side
    not on roll (which the roll may hit) and less 4 per exposed blot of its own, through
    ``tanh(x / 40)``: strictly inside (-1, 1). (Without the blots, an agent that counts
    pips alone hits at every turn and leaves blots everywhere, and two such agents can
    trade hits for thousands of plies.)"""
    other, own = board[0], board[1]
    lead = (pip_count(other) - pip_count(own) + 8 + 12 * exposed_blots(other, own)
            - 4 * exposed_blots(own, other))
    return math.tanh(lead / 40.0)


#: The named evaluators of a ``TanBoard`` (name -> a function that returns the evaluator,
#: called when a game is built with it, so that a costly one loads only when asked). The
#: evaluation modules add theirs here (``pubeval``, ``td``).
EVALUATORS: dict[str, Callable[[], TanEvaluator]] = {"pips": lambda: pip_evaluator}


def _pubeval() -> TanEvaluator:
    """Tesauro's pubeval (``pubeval.py``). Its score ranks positions but is no equity and
    has no bound, so it is mapped into (-1, 1) by ``tanh(score / 10)``: a monotone map, so
    pubeval's 0-ply moves are unchanged, and the game's value bounds, which Star1 and Star2
    prune with, hold."""
    from . import pubeval

    return lambda board: math.tanh(pubeval.evaluate(board) / 10.0)


def _td(name: str | None = None) -> TanEvaluator:
    """A TD(lambda) net shipped with the package (``td.py``; the strongest, ``td80``, unless
    named): money equity of the side on roll."""
    from . import td

    net = td.shipped_net(name) if name else td.default_net()
    return lambda board: td.evaluate_compiled(board, net)


#: the evaluators built for a search's ``evaluation=`` option, by name (one a process)
_BOARD_EVALUATORS: dict[str, TanEvaluator] = {}

EVALUATORS["pubeval"] = _pubeval
EVALUATORS["td"] = _td
EVALUATORS["td40"] = lambda: _td("td40")


class Backgammon(Game[BGState, BGAction]):
    name = "backgammon"
    description = "backgammon, money play without the cube; gnubg notation and position IDs"
    num_players = 2
    game_type = GameType(num_players=2, chance=True, value_bounds=(-3.0, 3.0))
    max_utility = 3.0
    state_notation = ("POSITIONID:SEAT:DICE: gnubg's position ID, the seat on roll (0/1) and "
                      "the dice (31, or -- before the roll), e.g. 4HPwATDgc/ABMA:0:31; "
                      "4HPwATDgc/ABMA:opening for the start")
    options = (GameOption("evaluator", str, "pips", None,
                          "the evaluation: pips, pubeval, td (the strongest TD(lambda) "
                          "net, td80) or td40 (the earlier raw-input net)"),)

    def __init__(self, evaluator: str = "pips",
                 board_evaluator: TanEvaluator | None = None) -> None:
        """``evaluator``: the name of an evaluator in :data:`EVALUATORS` (the spec's
        ``backgammon:evaluator=NAME``); ``board_evaluator``: a function of a ``TanBoard``
        used instead, under that name (for programs and tests)."""
        if board_evaluator is None:
            factory = EVALUATORS.get(evaluator)
            if factory is None:
                raise InvalidLimitError(f"backgammon evaluator {evaluator!r}: known "
                                        f"evaluators: {', '.join(EVALUATORS)}")
            board_evaluator = factory()
        self.evaluator = evaluator
        self.evaluator_name = evaluator
        self.board_evaluator: TanEvaluator = board_evaluator
        self._moves_cache: dict[BGState, dict[tuple[Board, Board], BGAction]] = {}
        if evaluator != "pips":
            self.description = f"{self.description} (evaluator {evaluator})"

    # ----- the textbook's six functions -------------------------------------------------
    def initial_state(self) -> BGState:
        return (START_BOARD, START_BOARD, 0, OPENING, OPENING)

    def to_move(self, state: BGState) -> int:
        return CHANCE if state[3] <= 0 else state[2]

    def _moves(self, state: BGState) -> dict[tuple[Board, Board], BGAction]:
        """The legal moves of a decision node (cached: the search asks each node twice)."""
        cache = self._moves_cache
        moves = cache.get(state)
        if moves is None:
            if len(cache) > 100_000:
                cache.clear()
            moves = legal_moves(state[0], state[1], state[3], state[4])
            cache[state] = moves
        return moves

    def actions(self, state: BGState) -> Sequence[BGAction]:
        if state[3] <= 0:
            if state[3] == OPENING:
                return [o for o, _ in OPENING_THROWS]
            return [r for r, _ in ROLLS]
        return list(self._moves(state).values())

    def result(self, state: BGState, action: BGAction) -> BGState:
        on_roll, other, seat, d1, _ = state
        if d1 == OPENING:
            starter, hi, lo = action
            return (on_roll, other, starter, hi, lo) if starter == seat else \
                (other, on_roll, starter, hi, lo)
        if d1 == NOT_ROLLED:
            hi, lo = action
            return (on_roll, other, seat, hi, lo)
        own, opp = list(on_roll), list(other)
        try:
            for src, dst in action:
                if not own[src]:
                    raise ValueError
                _play(own, opp, src, dst)
        except (ValueError, IndexError, TypeError):
            raise IllegalMoveError(repr(action), self.legal_action_strings(state)) from None
        key = (tuple(own), tuple(opp))
        if key not in self._moves(state):
            raise IllegalMoveError(self._format_steps(on_roll, other, action),
                                   self.legal_action_strings(state))
        return (key[1], key[0], 1 - seat, NOT_ROLLED, NOT_ROLLED)

    def is_terminal(self, state: BGState) -> bool:
        return sum(state[1]) == 0

    def points(self, state: BGState) -> int:
        """The points the winner of a finished game wins: 1, 2 (gammon) or 3 (backgammon);
        0 while the game goes on. The winner is the side that just moved (``other``)."""
        if sum(state[1]):
            return 0
        loser = state[0]
        if sum(loser) < CHECKERS:
            return 1
        if loser[BAR] or any(loser[18:24]):
            return 3
        return 2

    def utility(self, state: BGState, player: int) -> float:
        k = self.points(state)
        return float(k if player != state[2] else -k)

    def terminal_utility(self, state: BGState, player: int) -> float | None:
        if sum(state[1]):
            return None
        return self.utility(state, player)

    def returns(self, state: BGState) -> tuple[float, float]:
        return (self.utility(state, 0), self.utility(state, 1))

    def chance_outcomes(self, state: BGState) -> Sequence[tuple[BGAction, float]]:
        """The 21 rolls (high die first), 1/36 for a double and 2/36 otherwise; at the
        opening the 30 throws ``(starter, high, low)``, 1/30 each."""
        if state[3] == OPENING:
            return OPENING_THROWS
        if state[3] == NOT_ROLLED:
            return ROLLS
        raise IllegalMoveError("roll", reason="not a chance node: the dice are rolled")

    def key(self, state: BGState) -> BGState:
        return state

    # ----- capabilities --------------------------------------------------------------
    def evaluation(self, name: str | None = None) -> Evaluation[BGState] | None:
        """The evaluation through an evaluator of a ``TanBoard``: ``name`` one of
        :data:`EVALUATORS` (a search's ``evaluation=`` option: each seat chooses its own),
        ``None`` the game's (``evaluator=``; default :func:`pip_evaluator`, pips and exposed
        blots); it scores chance nodes (before the roll), as gnubg's 0-ply evaluation
        does."""
        if name is None or name == self.evaluator_name:
            return Evaluation(self.evaluate, name=self.evaluator_name, at_chance=True)
        factory = EVALUATORS.get(name)
        if factory is None:
            raise UnsupportedGameError(f"backgammon has no evaluation {name!r}; it has "
                                       f"{', '.join(EVALUATORS)}")
        board_evaluator = _BOARD_EVALUATORS.get(name)
        if board_evaluator is None:  # (built once a process: td loads its net)
            board_evaluator = _BOARD_EVALUATORS[name] = factory()

        def evaluate(state: BGState, player: int) -> float:
            v = board_evaluator((state[1], state[0]))
            return v if player == state[2] else -v

        return Evaluation(evaluate, name=name, at_chance=True)

    def evaluate(self, state: BGState, player: int) -> float:
        """The evaluator's expected points for ``player``, the position taken before the
        roll of the side on roll (a decision node's dice are ignored)."""
        v = self.board_evaluator((state[1], state[0]))
        return v if player == state[2] else -v

    def match_hooks(self) -> MatchHooks:
        """Expectiminimax at depth 2 (gnubg's 1-ply) as the default opponent (it knows every
        root move's equity, which the web app shows; ``star2:depth=2`` plays the same moves
        with fewer nodes); results are points (single 1, gammon 2, backgammon 3), reported
        per game by the arena."""
        return MatchHooks(default_opponent="expectiminimax:depth=2", points=True)

    def gnubg_player(self) -> GnubgPlayer[BGState]:
        """GNU Backgammon's external player: its FIBS board lines read (:mod:`.fibs`); the
        moves answered in this game's notation, which is gnubg's."""
        from .fibs import parse_fibs_board

        return GnubgPlayer(lambda line: parse_fibs_board(line).state)

    def drawing(self) -> Drawing[BGState]:
        """The board as SVG, the legal moves as buttons (see :mod:`.svg`)."""
        from .svg import render

        return Drawing(partial(render, self))

    # ----- notation ------------------------------------------------------------------
    def format_action(self, state: BGState, action: BGAction) -> str:
        if state[3] == OPENING:
            starter, hi, lo = action
            return f"seat{starter}:{hi}{lo}"
        if state[3] == NOT_ROLLED:
            return f"{action[0]}{action[1]}"
        return self._format_steps(state[0], state[1], action)

    @staticmethod
    def _format_steps(on_roll: Board, other: Board, action: BGAction) -> str:
        """gnubg's writing of a move: each checker's steps joined (``24/13``, or
        ``24/18*/13`` when it hits on the way), sources highest first, equal moves counted
        (``8/4(2)``), hits starred, ``bar`` and ``off``."""
        if not action:
            return "pass"
        own, opp = list(on_roll), list(other)
        singles: list[list[tuple[int, bool]]] = []  # each: [(point, hit), ...] from the start
        for src, dst in action:
            hit = _play(own, opp, src, dst)
            for chain in singles:  # continue a checker that stopped on src
                if chain[-1][0] == src and src != BAR:
                    chain.append((dst, hit))
                    break
            else:
                singles.append([(src, False), (dst, hit)])

        def name(i: int) -> str:
            return "bar" if i == BAR else "off" if i == OFF else str(i + 1)

        parts = []
        for chain in singles:
            words = [name(chain[0][0])]
            for k, (pt, hit) in enumerate(chain[1:], 1):
                if hit or k == len(chain) - 1:
                    words.append(name(pt) + ("*" if hit else ""))
            parts.append("/".join(words))
        parts.sort(key=lambda p: _sort_key(p), reverse=True)
        out: list[str] = []
        for p in parts:
            if out and out[-1].split("(")[0] == p:
                head, _, count = out[-1].partition("(")
                n = int(count[:-1]) if count else 1
                out[-1] = f"{head}({n + 1})"
            else:
                out.append(p)
        return " ".join(out)

    def parse_action(self, state: BGState, text: str) -> BGAction:
        """A move in gnubg notation (any order of its parts; ``bar``/``25``, ``off``/``0``,
        ``*`` optional, ``(n)`` repeats, joined steps), a roll (``31``) at a chance node,
        ``pass`` (or nothing) when no die can be played."""
        raw = text
        text = text.strip().lower()
        legal = self.legal_action_strings(state)
        if self.is_terminal(state):
            raise IllegalMoveError(raw, [], reason="the game is over")
        if state[3] <= 0:
            for a in self.actions(state):
                if self.format_action(state, a) == text or (
                        state[3] == NOT_ROLLED and text.replace("-", "") == f"{a[0]}{a[1]}"):
                    return a
            raise IllegalMoveError(raw, legal, reason="the dice are to be rolled: give a roll"
                                   " like 31")
        moves = self._moves(state)
        if text in ("", "pass"):
            if PASS in moves.values():
                return PASS
            raise IllegalMoveError(raw, legal, reason="a move is possible")
        steps = _parse_steps(raw, text, legal)
        own, opp = list(state[0]), list(state[1])
        for src, dst in steps:
            if (src != BAR and not 0 <= src < 24) or own[src] == 0:
                raise IllegalMoveError(raw, legal, reason=f"no checker of yours on "
                                       f"{'the bar' if src == BAR else src + 1}")
            _play(own, opp, src, dst)
        key = (tuple(own), tuple(opp))
        if key not in moves:
            raise IllegalMoveError(raw, legal)
        return moves[key]

    def format_state(self, state: BGState) -> str:
        pid = position_id((state[1], state[0]))
        if state[3] == OPENING:
            return f"{pid}:opening"
        dice = "--" if state[3] == NOT_ROLLED else f"{state[3]}{state[4]}"
        return f"{pid}:{state[2]}:{dice}"

    def parse_state(self, text: str) -> BGState:
        raw = text
        text = text.strip()
        where = f"backgammon position {raw!r}"
        fields = text.split(":")
        if fields == ["opening"] or fields == ["start"]:
            return self.initial_state()
        if len(fields) == 2 and fields[1].lower() == "opening":
            board = board_from_position_id(fields[0])
            if board != (START_BOARD, START_BOARD):
                raise InvalidPositionError(f"{where}: the opening roll needs the starting "
                                           "position 4HPwATDgc/ABMA")
            return self.initial_state()
        if len(fields) != 3:
            raise InvalidPositionError(f"{where}: expected {self.state_notation}")
        board = board_from_position_id(fields[0])
        if fields[1] not in ("0", "1"):
            raise InvalidPositionError(f"{where}: the seat on roll must be 0 or 1, not "
                                       f"{fields[1]!r}")
        dice_text = fields[2]
        if dice_text == "--":
            dice = None
        elif re.fullmatch(r"[1-6][1-6]", dice_text):
            dice = (int(dice_text[0]), int(dice_text[1]))
        else:
            raise InvalidPositionError(f"{where}: dice {dice_text!r}: expected two digits 1-6 "
                                       "(31) or -- before the roll")
        return from_tanboard(board, int(fields[1]), dice)

    def render(self, state: BGState) -> str:
        """The board as gnubg's text board shows it, from seat 0's side (X is seat 0, moving
        from 24 down to 1; O is seat 1), with the bar, the borne-off counts and the dice."""
        x, o = (state[0], state[1]) if state[2] == 0 else (state[1], state[0])
        # point p (1..24, seat 0's numbering): X count x[p-1], O count o[24-p]
        def cell(p: int, row: int) -> str:
            for mark, n in (("X", x[p - 1]), ("O", o[24 - p])):
                if n > row:  # the fifth row shows the count when more than five
                    return f"{n if row == 4 and n > 5 else mark:>2} "
            return "   "

        def rows(points: list[int], top: bool) -> list[str]:
            lines = []
            for r in range(5):
                row = r if top else 4 - r
                left = "".join(cell(p, row) for p in points[:6])
                right = "".join(cell(p, row) for p in points[6:])
                lines.append(f" |{left}|   |{right}|")
            return lines

        def edge(points: list[int]) -> str:
            left = "".join(f"{p:>2}-" for p in points[:6])
            right = "".join(f"{p:>2}-" for p in points[6:])
            return f" +{left}+---+{right}+"

        top = list(range(13, 25))
        bottom = list(range(12, 0, -1))
        lines = [edge(top) + "  O home"]
        lines += rows(top, True)
        lines.append(f" |{' ' * 18}|BAR|{' ' * 18}|  bar X {x[BAR]} O {o[BAR]}")
        lines += rows(bottom, False)
        lines.append(edge(bottom) + "  X home")
        lines.append(f" off: X {CHECKERS - sum(x)}  O {CHECKERS - sum(o)};  pips: X "
                     f"{pip_count(x)}  O {pip_count(o)}")
        mark = "X" if state[2] == 0 else "O"
        if self.is_terminal(state):
            winner = "O" if state[2] == 0 else "X"
            kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}[self.points(state)]
            k = self.points(state)
            lines.append(f" {winner} wins {kind} ({k} point{'' if k == 1 else 's'})")
        elif state[3] == OPENING:
            lines.append(" the opening roll")
        elif state[3] == NOT_ROLLED:
            lines.append(f" {mark} (player {state[2] + 1}) to roll")
        else:
            lines.append(f" {mark} (player {state[2] + 1}) to move, dice {state[3]}{state[4]}")
        lines.append(f" position {self.format_state(state)}")
        return "\n".join(lines)

    def describe_action(self, state: BGState, action: BGAction) -> str:
        if state[3] == OPENING:
            starter, hi, lo = action
            return f"opening roll {hi}{lo}: player {starter + 1} starts"
        if state[3] == NOT_ROLLED:
            return f"rolled {action[0]}{action[1]}"
        return self.format_action(state, action)

    def termination(self, state: BGState) -> str | None:
        k = self.points(state)
        return {1: "single game", 2: "gammon", 3: "backgammon"}.get(k)


def _sort_key(part: str) -> tuple[int, int]:
    words = part.split("(")[0].replace("*", "").split("/")

    def num(w: str) -> int:
        return 25 if w == "bar" else 0 if w == "off" else int(w)

    return (num(words[0]), -num(words[-1]))


_PART = re.compile(r"^(bar|\d{1,2})((?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$")


def _parse_steps(raw: str, text: str, legal: list[str]) -> list[Step]:
    """The checker steps a move's text names, in the mover's indices; each ``a/b`` part is
    one step of one checker (the dice it takes are checked by the caller's position
    look-up)."""
    steps: list[Step] = []

    def index(word: str, is_source: bool) -> int:
        if word == "bar" or word == "25":
            if not is_source:
                raise IllegalMoveError(raw, legal, reason="a checker cannot move to the bar")
            return BAR
        if word == "off" or word == "0":
            if is_source:
                raise IllegalMoveError(raw, legal, reason="a move cannot start off the board")
            return OFF
        n = int(word)
        if not 1 <= n <= 24:
            raise IllegalMoveError(raw, legal, reason=f"no point {n} (points 1-24, bar, off)")
        return n - 1

    for part in text.replace(",", " ").split():
        m = _PART.match(part)
        if not m:
            raise IllegalMoveError(raw, legal, reason=f"{part!r} is not a move like 8/5, "
                                   "bar/22, 6/off, 13/7*, 8/4(2)")
        points = [m.group(1)] + [w.rstrip("*") for w in m.group(2).split("/")[1:]]
        repeat = int(m.group(3) or 1)
        if not 1 <= repeat <= 4:
            raise IllegalMoveError(raw, legal, reason=f"{part!r}: at most four checkers move")
        idx = [index(points[0], True)] + [index(w, False) for w in points[1:]]
        for k in range(len(idx) - 1):
            if idx[k] == OFF:
                raise IllegalMoveError(raw, legal, reason=f"{part!r}: nothing moves after off")
            if idx[k + 1] != OFF and idx[k + 1] >= idx[k]:
                raise IllegalMoveError(raw, legal, reason=f"{part!r}: checkers move to lower "
                                       "points")
        for _ in range(repeat):
            steps.extend((idx[k], idx[k + 1]) for k in range(len(idx) - 1))
    if len(steps) > 8:
        raise IllegalMoveError(raw, legal, reason="too many steps")
    return steps
