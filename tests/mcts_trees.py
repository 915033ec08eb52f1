"""Hand-made MCTS nodes for the tests of the all-moves-as-first back-up."""

from __future__ import annotations

from gamesearch.search.mcts import Node


def node(player: int, actions: tuple[int, ...]) -> Node:
    """A bare tree node of ``player`` with ``actions`` and empty AMAF statistics."""
    n = Node(None, player, 1 - player, None, actions, None, None, -1.0, 1.0)
    n.index = {a: i for i, a in enumerate(actions)}
    n.amaf_n = [0.0] * len(actions)
    n.amaf_w = [0.0] * len(actions)
    return n
