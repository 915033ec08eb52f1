"""The independent move generators our rules are checked against (tests and
``benchmarks/backgammon_rules.py``): gnubg's, through the PyPI package ``gnubg-nn``
(``moves(board, d1, d2)``), and OpenSpiel's ``backgammon``. Each gives, for a position and a
roll, the set of resulting boards as gnubg ``TanBoard`` pairs from the mover's side
(``(opponent, mover)``, the move not yet handed over), which is what
:func:`gamesearch.games.backgammon.rules.legal_moves` gives as ``(mover, opponent)``.

Both are optional imports: the functions raise :class:`ImportError` when the package is not
installed (the tests then skip with the reason).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from gamesearch.game import CHANCE, sample_outcome
from gamesearch.games.backgammon.rules import (
    Backgammon,
    BGState,
    Board,
    TanBoard,
    legal_moves,
    to_tanboard,
)


def random_decisions(count: int, rng: random.Random, keep: float = 1.0) -> list[BGState]:
    """``count`` decision nodes of random games (uniformly random moves, the dice by their
    odds): the positions the referees are compared on. With ``keep`` below 1 each node is
    kept with that probability (positions spread over the whole game)."""
    game = Backgammon()
    out: list[BGState] = []
    while len(out) < count:
        s = game.initial_state()
        while not game.is_terminal(s) and len(out) < count:
            if game.to_move(s) == CHANCE:
                s = game.result(s, sample_outcome(game, s, rng))
                continue
            if keep >= 1.0 or rng.random() < keep:  # (keep 1: no draw, the same stream)
                out.append(s)
            moves = game.actions(s)
            s = game.result(s, moves[int(rng.random() * len(moves))])
    return out


def our_results(state: BGState) -> set[TanBoard]:
    """Our resulting boards of a decision node, as ``(opponent, mover)`` pairs."""
    return {(opp, own) for own, opp in legal_moves(state[0], state[1], state[3], state[4])}


def gnubg_results(state: BGState) -> set[TanBoard]:
    """gnubg's resulting boards (``gnubg_nn.moves``) of a decision node; the position itself
    when no die can be played (gnubg lists no move then)."""
    import gnubg_nn

    tb = to_tanboard(state)
    keys = gnubg_nn.moves([list(tb[0]), list(tb[1])], state[3], state[4])
    found = {_pair(gnubg_nn.boardfromkey(k)) for k in keys}
    return found or {tb}


def _pair(board: Any) -> TanBoard:
    return (tuple(board[0]), tuple(board[1]))


# ----- OpenSpiel ---------------------------------------------------------------------------
def _side(ostate: Any, player: int, text: str) -> Board:
    """One side's board from its own point of view (OpenSpiel counts points 0-23 from the
    x side's start: x (player 0) moves up, o (player 1) down)."""
    counts = [ostate.board(player, i) for i in range(24)]
    own = counts[::-1] if player == 0 else counts
    bar = re.search(r"^Bar:(.*)$", text, re.M)
    on_bar = (bar.group(1) if bar else "").count("xo"[player])
    return (*own, on_bar)


def openspiel_board(ostate: Any) -> TanBoard:
    """The board of an OpenSpiel state as ``(opponent, player to move)``."""
    text = str(ostate)
    me = ostate.current_player()
    return (_side(ostate, 1 - me, text), _side(ostate, me, text))


def _dice(ostate: Any) -> tuple[int, int]:
    m = re.search(r"^Dice: (\d)(\d)", str(ostate), re.M)
    if not m:
        raise ValueError("no dice in the OpenSpiel state")
    a, b = int(m.group(1)), int(m.group(2))
    return (max(a, b), min(a, b))


def openspiel_results(ostate: Any) -> set[TanBoard]:
    """OpenSpiel's resulting boards of a decision node (a double is two OpenSpiel turns of
    two dice: both are followed), as ``(opponent, mover)``."""
    me = ostate.current_player()
    out: set[TanBoard] = set()

    def follow(s: Any, depth: int) -> None:
        for a in s.legal_actions():
            child = s.child(a)
            if depth == 0 and not child.is_chance_node() and not child.is_terminal() and \
                    child.current_player() == me:
                follow(child, 1)  # the second half of a double
                continue
            text = str(child)
            out.add((_side(child, 1 - me, text), _side(child, me, text)))

    follow(ostate, 0)
    return out


def openspiel_positions(games: int, seed: int) -> Iterator[tuple[BGState, set[TanBoard]]]:
    """Decision nodes of ``games`` random OpenSpiel games (each at the start of a turn, not
    inside a double's second half) as our state with OpenSpiel's resulting boards."""
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    for _ in range(games):
        s = game.new_initial_state()
        second_half = False
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choices([o for o, _ in outcomes],
                                           [p for _, p in outcomes])[0])
                second_half = False
                continue
            me = s.current_player()
            if not second_half:
                board = openspiel_board(s)
                d1, d2 = _dice(s)
                state: BGState = (board[1], board[0], me, d1, d2)
                yield state, openspiel_results(s)
            s.apply_action(rng.choice(s.legal_actions()))
            second_half = not s.is_chance_node() and not s.is_terminal() and \
                s.current_player() == me
