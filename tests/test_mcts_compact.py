"""RAVE's compact tree (per-node arrays of the children's statistics, compiled selection
and all-moves-as-first back-up) searches as the plain Python tree: seed for seed the same
root visits, on Go (from the empty board and from a position of a stored game against GNU
Go), tic-tac-toe, Connect Four and Othello, also after tree reuse.

``tests/data/mcts/rave_root_visits.json`` was recorded from the plain tree before the
compact one was written (``python tests/mcts_rave_cases.py --record``)."""

from __future__ import annotations

import json
import random

import pytest

from gamesearch.search import rave_kernels
from gamesearch.search.mcts import Node, amaf_update, compact_backup, compact_index, rave_index
from mcts_rave_cases import CASES, GOLDEN, run_case
from mcts_trees import node

pytestmark = pytest.mark.skipif(not rave_kernels.available(),
                                reason="numba is not installed: no compact tree to test")

RECORDED = json.loads(GOLDEN.read_text())["cases"]


@pytest.mark.parametrize("name", list(CASES))
def test_rave_search_gives_the_recorded_root_visits(name: str) -> None:
    assert run_case(name) == RECORDED[name]


@pytest.mark.parametrize("name", ["go9-midgame", "go7-no-priors", "go9-refined", "tictactoe",
                                  "connect4"])
def test_compact_tree_searches_as_the_plain_tree(name: str) -> None:
    assert run_case(name) == run_case(name, _compact=False)


def _random_node(rng: random.Random, width: int) -> Node:
    """A node of ``width`` actions with random children's and AMAF statistics (some
    children unvisited, some actions never played), in both trees' forms."""
    actions = tuple(rng.sample(range(3 * width), width))
    parent = node(0, actions)
    parent.n = rng.randrange(1, 500)
    for i in range(width):
        if rng.random() < 0.7:
            child = node(1, ())
            child.n = rng.choice((0, 1, 2, rng.randrange(1, 200)))
            child.q = rng.uniform(-1, 1) if child.n else 0.0
            parent.children[i] = child
        if rng.random() < 0.8:
            parent.amaf_n[i] = float(rng.randrange(1, 300))  # type: ignore[index]
            parent.amaf_w[i] = rng.uniform(-1, 1) * parent.amaf_n[i]  # type: ignore[index]
    if width > 1 and rng.random() < 0.3:  # ties: two children alike
        parent.children[1] = parent.children[0]
        parent.amaf_n[1], parent.amaf_w[1] = parent.amaf_n[0], parent.amaf_w[0]  # type: ignore[index]
    return parent


def _compact(plain: Node, width: int) -> Node:
    """The compact form of a node made by :func:`_random_node`."""
    np = rave_kernels.np
    out = node(plain.player, plain.actions)
    out.n = plain.n
    out.children = plain.children
    out.stats = np.array([[0.0 if ch is None else float(ch.n) for ch in plain.children],
                          [0.0 if ch is None else ch.q for ch in plain.children],
                          plain.amaf_n, plain.amaf_w]).reshape(4, width)
    out.amaf_n, out.amaf_w = out.stats[2], out.stats[3]
    out.slot = rave_kernels.slot_table(list(plain.actions), 3 * width)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_compiled_selection_picks_as_rave_index(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        width = rng.randrange(1, 90)
        plain = _random_node(rng, width)
        c_span, k, fpu = rng.choice((0.0, 0.1, 0.5)), rng.choice((10.0, 1000.0)), 1.0
        assert compact_index(_compact(plain, width), c_span, k, fpu) == rave_index(
            plain, c_span, k, fpu)


def test_compiled_amaf_backup_counts_as_amaf_update() -> None:
    rng = random.Random(4)
    np = rave_kernels.np
    for _ in range(200):
        width = rng.randrange(2, 30)
        depth = rng.randrange(1, 6)
        plain = [_random_node(rng, width) for _ in range(depth)]
        for j, nd in enumerate(plain):
            nd.player = j % 2
        compact = [_compact(nd, width) for nd in plain]
        chosen = [rng.randrange(width) for _ in range(depth - 1)]
        untraced = frozenset(rng.sample(range(3 * width), 2))  # (never in a trace)
        trace = [(rng.randrange(2), a) for a in rng.choices(range(3 * width + 5), k=40)
                 if a not in untraced]
        r = (rng.choice((-1.0, 1.0)),) * 2
        r = (r[0], -r[0])
        amaf_update(plain, chosen, trace, r, 2, untraced)
        arrays = (np.array([q for q, _ in trace], dtype=np.int64),
                  np.array([a for _, a in trace], dtype=np.int64))
        compact_backup(compact, chosen, arrays, r, lambda a: a, untraced)
        for p, c in zip(plain, compact, strict=True):
            assert list(c.amaf_n) == p.amaf_n and list(c.amaf_w) == p.amaf_w
