"""Pig, the dice race: the library's smallest game with chance nodes (AIMA 4e §6.5).

Two players race to bank ``goal`` points (20 by default). On your turn you choose:

* ``roll`` -- the die is thrown (a chance node). A 1 ("pig") loses the turn total and passes
  the turn; 2-6 adds the face to the turn total and you choose again;
* ``hold`` -- bank the turn total and pass the turn. Reaching ``goal`` wins at once.

Holding is allowed with a turn total of 0 (the turn simply passes), as in OpenSpiel's Pig.
Nothing bounds the length of a game (one can roll or pass forever), so search it with a
depth limit.

State: a tuple ``(score0, score1, turn_total, player, rolling)`` of ints. ``player`` (0 or 1)
owns the turn; ``rolling`` is 1 at the chance node after ``roll`` (``to_move`` is then
:data:`~gamesearch.game.CHANCE`) and 0 otherwise. After the winning ``hold`` the turn passes
as after any hold, so a finished game has turn total 0 and the loser as ``player``.

Actions: ``"roll"`` and ``"hold"`` at a decision node; at a chance node ``actions`` lists the
die faces 1-6 (ints), the outcomes of :meth:`Pig.chance_outcomes`, each of probability 1/6.

Notation: ``score0-score1-turntotal-player``, with a trailing ``r`` at a chance node (the die
is rolling): ``0-0-0-0`` is the start, ``12-7-5-1`` seat 1 (the second player, "player 2"
in every picture and message: people count players from 1) to choose with 5 on the turn,
``12-7-5-1r`` the same player's die in the air.

Utilities are +1 for the winner and -1 for the loser; :meth:`Pig.evaluate` compares the
points each player still needs (counting the turn total as banked), strictly inside (-1, 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from ..argtypes import ascii_digits
from ..capabilities import Drawing, Evaluation
from ..errors import IllegalMoveError, InvalidLimitError, InvalidPositionError, echo
from ..game import CHANCE, Game, GameType
from ..spec import GameOption

#: ``(score0, score1, turn_total, player, rolling)``
PigState = tuple[int, int, int, int, int]
PigAction = str | int

ROLL = "roll"
HOLD = "hold"
DECISIONS: tuple[str, str] = (ROLL, HOLD)
NO_ACTIONS: tuple[PigAction, ...] = ()


class Pig(Game[PigState, PigAction]):
    name = "pig"
    description = "Pig: roll a die to build a turn total or hold to bank it; first to the goal"
    num_players = 2
    game_type = GameType(num_players=2, chance=True)
    max_utility = 1.0
    state_notation = (
        "score0-score1-turntotal-player, with a trailing r while the die is rolling "
        "(e.g. 0-0-0-0, 12-7-5-1, 12-7-5-1r)"
    )
    options = (GameOption("goal", int, 20, (1, 1000), "the score that wins"),
               GameOption("sides", int, 6, (2, 100), "the faces of the die"))

    def __init__(self, goal: int = 20, sides: int = 6) -> None:
        if not isinstance(goal, int) or isinstance(goal, bool) or goal < 1:
            raise InvalidLimitError(f"pig goal {goal!r}: must be a whole number >= 1")
        if not isinstance(sides, int) or isinstance(sides, bool) or sides < 2:
            raise InvalidLimitError(f"pig sides {sides!r}: the die needs at least 2 faces")
        self.goal = goal
        self.sides = sides
        self._faces: tuple[int, ...] = tuple(range(1, sides + 1))
        self._outcomes = tuple((face, 1.0 / sides) for face in self._faces)
        if goal != 20 or sides != 6:
            self.description = f"Pig to {goal} with a {sides}-sided die"

    # ----- the textbook's six functions -----------------------------------------------
    def initial_state(self) -> PigState:
        return (0, 0, 0, 0, 0)

    def to_move(self, state: PigState) -> int:
        return CHANCE if state[4] else state[3]

    def actions(self, state: PigState) -> Sequence[PigAction]:
        if state[0] >= self.goal or state[1] >= self.goal:
            return NO_ACTIONS
        return self._faces if state[4] else DECISIONS

    def result(self, state: PigState, action: PigAction) -> PigState:
        s0, s1, total, player, rolling = state
        if rolling:
            if action == 1:  # pig: the turn total is lost and the turn passes
                return (s0, s1, 0, 1 - player, 0)
            if isinstance(action, int) and 1 < action <= self.sides:
                return (s0, s1, total + action, player, 0)
        elif action == ROLL:
            return (s0, s1, total, player, 1)
        elif action == HOLD:
            if player:
                return (s0, s1 + total, 0, 0, 0)
            return (s0 + total, s1, 0, 1, 0)
        raise IllegalMoveError(action, [str(a) for a in self.actions(state)])

    def is_terminal(self, state: PigState) -> bool:
        return state[0] >= self.goal or state[1] >= self.goal

    def utility(self, state: PigState, player: int) -> float:
        if state[0] >= self.goal:
            return -1.0 if player else 1.0
        if state[1] >= self.goal:
            return 1.0 if player else -1.0
        return 0.0

    def terminal_utility(self, state: PigState, player: int) -> float | None:
        if state[0] >= self.goal:
            return -1.0 if player else 1.0
        if state[1] >= self.goal:
            return 1.0 if player else -1.0
        return None

    def returns(self, state: PigState) -> tuple[float, float]:
        u = self.utility(state, 0)
        return (u, -u)

    # ----- chance --------------------------------------------------------------------
    def chance_outcomes(self, state: PigState) -> Sequence[tuple[PigAction, float]]:
        """The die faces, each with probability ``1 / sides``, at a chance node."""
        if not state[4]:
            raise IllegalMoveError(
                "chance", reason="not a chance node: the player chooses roll or hold"
            )
        return self._outcomes

    # ----- capabilities --------------------------------------------------------------
    def evaluation(self, name: str | None = None) -> Evaluation[PigState] | None:
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def evaluate(self, state: PigState, player: int) -> float:
        """Who is nearer the goal: ``(need_opp - need_own) / (need_opp + need_own + 1)``.

        ``need`` is what a player still lacks, counting the turn total of the player whose
        turn it is as if it were banked. The value lies strictly inside (-1, 1).
        """
        goal = self.goal
        own = state[player] + (state[2] if state[3] == player else 0)
        opp = state[1 - player] + (state[2] if state[3] != player else 0)
        need_own = goal - own if own < goal else 0
        need_opp = goal - opp if opp < goal else 0
        return (need_opp - need_own) / (need_opp + need_own + 1)

    # ----- notation ------------------------------------------------------------------
    def describe_action(self, state: PigState, action: PigAction) -> str:
        """``roll``, ``hold``, and the die: ``rolled 4``, or ``rolled 1: turn over`` (a 1
        loses the turn total and passes the turn)."""
        if not state[4]:
            return str(action)
        return "rolled 1: turn over" if action == 1 else f"rolled {action}"

    def parse_action(self, state: PigState, text: str) -> PigAction:
        """``roll``/``r`` or ``hold``/``h`` at a decision node, a face ``1``-``6`` when rolling."""
        word = text.strip().lower()
        legal = self.legal_action_strings(state)
        if not legal:
            raise IllegalMoveError(text, legal, reason="the game is over")
        if state[4]:
            if ascii_digits(word) and 1 <= int(word) <= self.sides:
                return int(word)
            raise IllegalMoveError(text, legal, reason="the die is rolling: give a face")
        if word in ("roll", "r"):
            return ROLL
        if word in ("hold", "h"):
            return HOLD
        raise IllegalMoveError(text, legal)

    def format_state(self, state: PigState) -> str:
        s0, s1, total, player, rolling = state
        return f"{s0}-{s1}-{total}-{player}{'r' if rolling else ''}"

    def parse_state(self, text: str) -> PigState:
        raw = text
        text = text.strip().lower()
        rolling = text.endswith("r")
        fields = (text[:-1] if rolling else text).split("-")
        where = f"pig position {echo(raw)}"
        # (at most 9 digits a field: int() refuses 4,300 digits or more with a ValueError,
        # and no score of a game to at most goal points needs more)
        if len(fields) != 4 or not all(ascii_digits(f) and len(f) <= 9 for f in fields):
            raise InvalidPositionError(
                f"{where}: expected four whole numbers >= 0, {self.state_notation}"
            )
        s0, s1, total, player = (int(f) for f in fields)
        if player not in (0, 1):
            raise InvalidPositionError(f"{where}: the player field must be 0 or 1 (seat 0 is "
                                       f"player 1, seat 1 player 2), not {player}")
        if total == 1:
            raise InvalidPositionError(
                f"{where}: a turn total of 1 cannot happen (rolling a 1 ends the turn)"
            )
        for p, score in enumerate((s0, s1)):
            if score == 1:
                raise InvalidPositionError(
                    f"{where}: player {p + 1} cannot have banked 1 point (turn totals are 0 "
                    "or >= 2)"
                )
        goal = self.goal
        if s0 >= goal and s1 >= goal:
            raise InvalidPositionError(f"{where}: both players have reached the goal {goal}")
        if s0 >= goal or s1 >= goal:
            winner = 0 if s0 >= goal else 1
            if total or rolling or player == winner:
                raise InvalidPositionError(
                    f"{where}: player {winner + 1} has reached the goal {goal}, so the game is "
                    "over "
                    f"and the turn has passed: write {s0}-{s1}-0-{1 - winner}"
                )
        return (s0, s1, total, player, int(rolling))

    def drawing(self) -> Drawing[PigState]:
        """The position as SVG, legal moves clickable (see :mod:`.pig_svg`)."""
        from .pig_svg import render

        return Drawing(partial(render, self))

    def render(self, state: PigState) -> str:
        s0, s1, total, player, rolling = state
        lines = [f"Pig to {self.goal}"]
        over = self.is_terminal(state)
        for p, score in enumerate((s0, s1)):
            line = f"  player {p + 1}: {score:>3}"
            if over and score >= self.goal:
                line += "  wins"
            elif not over and p == player:
                line += f"  to move, turn total {total}"
                if rolling:
                    line += " (rolling...)"
            lines.append(line)
        return "\n".join(lines)
