"""Nim: the plain, readable game to copy when you add a game of your own.

Rules (normal play): a few heaps of counters; a player takes one or more counters from one
heap; whoever takes the last counter wins. Bouton (1901) solved it: the player to move
loses exactly when the XOR of the heap sizes (the *nim-sum*) is 0, which gives the tests
an independent truth to check every search against.

This module is written to be read, not to be fast (for a fast game see
:mod:`gamesearch.games.tictactoe`: a compact int state and precomputed tables). Every
hook the library uses is here, each with a comment on what it is for:

* the textbook's six functions (AIMA 4e §6.1): ``initial_state``, ``to_move``,
  ``actions``, ``result``, ``is_terminal``, ``returns`` — enough for minimax, alpha-beta,
  max^n, MCTS and the exact solver;
* ``evaluate`` (with ``has_evaluate``): a heuristic for depth-limited search;
* ``key``: what the transposition table stores a position under (here the sorted heaps:
  positions that differ only in the order of the heaps are one position);
* ``order_actions`` (with ``has_order_actions``): the moves most likely best first, so
  alpha-beta prunes more;
* the notation: ``format_action``/``parse_action`` and ``format_state``/``parse_state``,
  with clear errors for bad input (the command line and the web app rely on them).

What the command line, the agents and the arena may also ask a game (a default opponent,
an opening book and its builder, a compiled solver, arena openings, PGN notation: the
second list of hooks in :mod:`gamesearch.game`) Nim does not need; Connect Four
(:mod:`gamesearch.games.connect4`) supplies most of them.

Its parameter, the start's heaps, is an option of its spec (``nim:heaps=1-3-5-7``): the
``options`` tuple declares it, typed and ranged, and the game keeps its value in the attribute
of the same name so that ``game.spec`` writes the spec back. Its positions hold spaces
(``3 4 5``), so it says that a positions-file line is one position (``split_position_line``).

Copy it, rename it, change the rules, and register it in :data:`gamesearch.games.GAMES` (or,
outside the library, name it ``py:MODULE:Nim`` or give it a ``gamesearch.games`` entry point).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import xor
from typing import Any

from ..errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from ..game import Game, GameType
from ..spec import GameOption

#: Largest heap and number of heaps a position string may have (keeps searches finite).
MAX_HEAP = 99
MAX_HEAPS = 8


def _read_heaps(key: str, text: str) -> tuple[int, ...]:
    """Heap sizes of a spec option: ``3-4-5`` (or ``3 4 5``)."""
    words = text.replace("-", " ").split()
    if not 1 <= len(words) <= MAX_HEAPS or not all(
            w.isascii() and w.isdigit() and int(w) <= MAX_HEAP for w in words):
        raise InvalidLimitError(f"option {key}={text[:60]!r}: expected 1 to {MAX_HEAPS} heap "
                                f"sizes of 0 to {MAX_HEAP}, like 3-4-5")
    return tuple(int(w) for w in words)


@dataclass(frozen=True)
class NimState:
    """A position: the heap sizes and the player to move (0 or 1). Frozen, so it is
    hashable and search can never change it by accident."""

    heaps: tuple[int, ...]
    player: int = 0


#: An action: take ``count`` counters from heap ``heap`` (both 0-based / at least 1).
NimAction = tuple[int, int]


class Nim(Game[NimState, NimAction]):
    name = "nim"
    description = "Nim, normal play (last counter wins): the readable example game"
    num_players = 2
    # Two players take turns and nothing is left to chance: the search may read the side
    # to move from the ply's parity instead of calling to_move.
    game_type = GameType(num_players=2, alternating=True)
    # Utilities are +1 (win) and -1 (loss); search discounts wins by distance.
    max_utility = 1.0
    state_notation = "heap sizes separated by spaces or commas, e.g. '3 4 5' (player 1 to move)"

    # The options a spec may give (``nim:heaps=1-3-5-7``); each is kept in the attribute of
    # its name, which is how ``game.spec`` writes the game back.
    options = (GameOption("heaps", tuple, (3, 4, 5),
                          f"1 to {MAX_HEAPS} sizes of 0 to {MAX_HEAP}, like 1-3-5-7",
                          "the heap sizes at the start",
                          read=lambda key, text: _read_heaps(key, text),
                          write=lambda heaps: "-".join(map(str, heaps))),)

    def __init__(self, heaps: Sequence[int] = (3, 4, 5)) -> None:
        self.start = self._checked_heaps(tuple(heaps), str(tuple(heaps)))
        self.heaps = self.start

    def split_position_line(self, line: str) -> tuple[str, str]:
        # Heap sizes are separated by spaces: a positions-file line is one position.
        return line.strip(), ""

    # ----- the textbook's six functions ---------------------------------------------
    def initial_state(self) -> NimState:
        return NimState(self.start, 0)

    def to_move(self, state: NimState) -> int:
        return state.player

    def actions(self, state: NimState) -> list[NimAction]:
        # A stable order (heap by heap, small takes first): search breaks ties in favour
        # of the first action, so results are reproducible.
        return [(h, n) for h, size in enumerate(state.heaps) for n in range(1, size + 1)]

    def result(self, state: NimState, action: NimAction) -> NimState:
        # A new state every time: the old one stays valid (search relies on this).
        heap, count = action
        heaps = list(state.heaps)
        heaps[heap] -= count
        return NimState(tuple(heaps), 1 - state.player)

    def is_terminal(self, state: NimState) -> bool:
        return not any(state.heaps)

    def returns(self, state: NimState) -> list[float]:
        # At the end the player to move faces empty heaps: the other took the last one.
        winner = 1 - state.player
        return [1.0 if p == winner else -1.0 for p in range(2)]

    # ----- optional hooks -------------------------------------------------------------
    has_evaluate = True

    def evaluate(self, state: NimState, player: int) -> float:
        # A heuristic strictly inside (-1, 1), so that a real win always counts more.
        # Bouton's rule makes it exact in sign: a non-zero nim-sum wins for the mover.
        mover_wins = reduce(xor, state.heaps, 0) != 0
        value = 0.5 if mover_wins else -0.5
        return value if player == state.player else -value

    def key(self, state: NimState) -> Hashable:
        # Heaps in any order are the same position for the table.
        return (tuple(sorted(state.heaps)), state.player)

    has_order_actions = True

    def order_actions(self, state: NimState, actions: Sequence[NimAction]) -> list[NimAction]:
        # Moves that leave a nim-sum of 0 (the winning ones) first, then big takes.
        total = reduce(xor, state.heaps, 0)

        def rank(action: NimAction) -> tuple[int, int]:
            heap, count = action
            after = total ^ state.heaps[heap] ^ (state.heaps[heap] - count)
            return (after != 0, -count)

        return sorted(actions, key=rank)

    # ----- notation -------------------------------------------------------------------
    def format_action(self, state: NimState, action: NimAction) -> str:
        heap, count = action
        return f"{heap + 1}-{count}"  # heap 1-based, then how many: "2-3"

    def parse_action(self, state: NimState, text: str) -> NimAction:
        heap_text, dash, count_text = text.strip().partition("-")
        legal = self.legal_action_strings(state)
        if not dash or not heap_text.isdigit() or not count_text.isdigit() \
                or not heap_text.isascii() or not count_text.isascii():
            raise IllegalMoveError(text, legal, reason="write HEAP-COUNT, e.g. 2-3")
        action = (int(heap_text) - 1, int(count_text))
        if action not in self.actions(state):
            raise IllegalMoveError(text, legal)
        return action

    def format_state(self, state: NimState) -> str:
        heaps = " ".join(str(h) for h in state.heaps)
        return heaps if state.player == 0 else f"{heaps} /2"

    def parse_state(self, text: str) -> NimState:
        body, slash, who = text.strip().partition("/")
        player = 0
        if slash:
            if who.strip() not in ("1", "2"):
                raise InvalidPositionError(f"nim position {text[:60]!r}: after '/' give the "
                                           "player to move, 1 or 2")
            player = int(who.strip()) - 1
        words = body.replace(",", " ").split()
        if not words or not all(w.isascii() and w.isdigit() and len(w) <= 9 for w in words):
            raise InvalidPositionError(f"nim position {text[:60]!r}: expected "
                                       f"{self.state_notation}")
        return NimState(self._checked_heaps(tuple(int(w) for w in words), text), player)

    def render_svg(self, state: NimState, **options: Any) -> str:
        # The picture for the web app: every legal move is a clickable counter.
        from .nim_svg import render

        return render(self, state, **options)

    @staticmethod
    def _checked_heaps(heaps: tuple[int, ...], text: str) -> tuple[int, ...]:
        if not 1 <= len(heaps) <= MAX_HEAPS or not all(0 <= h <= MAX_HEAP for h in heaps):
            raise InvalidPositionError(f"nim position {text[:60]!r}: 1 to {MAX_HEAPS} heaps "
                                       f"of 0 to {MAX_HEAP} counters")
        return heaps
