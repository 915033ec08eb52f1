"""RAVE/AMAF in the generic MCTS (Gelly & Silver 2007): the all-moves-as-first back-up on a
hand-made path, the priors as virtual visits, bad options, and searches that find the
right move (tic-tac-toe's win, Go's capture of a big group in atari)."""

from __future__ import annotations

import random

import pytest

from gamesearch.errors import InvalidLimitError
from gamesearch.games import get_game
from gamesearch.search import Limit, make_searcher, search
from gamesearch.search.mcts import MCTS, Node, amaf_update, traced_random_playout
from mcts_trees import node


def test_amaf_update_counts_later_moves_of_the_nodes_player() -> None:
    root = node(0, (1, 2, 3, 4))
    child = node(1, (2, 3, 4, 5))
    root.children[0] = child
    # the tree: player 0 played 1 at the root; the playout: 1 plays 3, 0 plays 4, 1 plays
    # 5, 0 plays 4 again (counted once), 0 plays 2
    trace = [(1, 3), (0, 4), (1, 5), (0, 4), (0, 2)]
    amaf_update([root, child], [0], trace, (1.0, -1.0), 2)
    assert root.amaf_n == [1, 1, 0, 1]  # 1 (the tree move), 2 and 4; never 3 (player 1's)
    assert root.amaf_w == [1.0, 1.0, 0.0, 1.0]
    assert child.amaf_n == [0, 1, 0, 1]  # player 1's moves after the child: 3 and 5
    assert child.amaf_w == [0.0, -1.0, 0.0, -1.0]


def test_traced_random_playout_reports_its_moves() -> None:
    g = get_game("tictactoe")
    end, moves = traced_random_playout(g, g.initial_state(), random.Random(2))
    s = g.initial_state()
    for player, a in moves:
        assert player == g.to_move(s) and a in g.actions(s)
        s = g.result(s, a)
    assert s == end and g.is_terminal(end)


def test_bad_rave_options() -> None:
    g = get_game("tictactoe")
    for options in ({"rave": True, "puct": True}, {"rave": True, "transpositions": True},
                    {"prior_visits": 5.0}, {"rave": True, "rave_k": -1.0}):
        with pytest.raises(InvalidLimitError):
            MCTS(g, **options)  # type: ignore[arg-type]
    with pytest.raises(InvalidLimitError):
        MCTS(get_game("pig"), rave=True)


def test_rave_finds_the_win_at_tictactoe() -> None:
    g = get_game("tictactoe")
    s = g.initial_state()
    for m in ("1", "4", "2", "5"):  # X to play 3 and win
        s = g.play(s, m)
    r = search(g, s, "mcts:iterations=300,rave=1,seed=3")
    assert g.format_action(s, r.action) == "3"


def test_rave_with_priors_captures_in_go() -> None:
    g = get_game("go:size=7")
    # a white group of four in atari, its liberty D2: Black captures it
    s = g.parse_state("......./......./..XXX../.XOOOX./..XOX../......./....... b")
    searcher = make_searcher(g, "mcts", rave=True, prior_visits=20, seed=1)
    r = searcher.search(s, Limit(nodes=400))
    assert g.vertex(r.action) == "D2"


def test_priors_start_the_amaf_statistics() -> None:
    g = get_game("go:size=7")
    searcher = MCTS(g, rave=True, prior_visits=10, seed=1)
    s = g.initial_state()
    root = searcher._new_node(s, 0)
    if root.pending is not None:  # (made unopened under RAVE)
        searcher._open(root)
    assert list(root.amaf_n) == [10.0] * len(root.actions)  # (arrays in the compact tree)
    playouts = g.playouts()
    assert playouts is not None and playouts.priors is not None
    priors = playouts.priors(s)
    best = max(range(len(priors)), key=priors.__getitem__)
    worst = min(range(len(priors)), key=priors.__getitem__)
    assert root.amaf_w is not None and root.amaf_w[best] > 0 > root.amaf_w[worst]


@pytest.mark.parametrize("spec", ["go:size=7", "tictactoe", "connect4"])
def test_lazy_opening_searches_as_the_eager_one(spec: str) -> None:
    """RAVE opens a leaf's actions only when a later iteration selects through it; the
    search must be the one that opens every node when made, seed for seed: the same visits
    of every root child, the same line, also after the tree is reused for a next move."""
    g = get_game(spec)
    prior_visits = 20 if spec.startswith("go") else 0
    runs = []
    for lazy in (False, True):
        searcher = MCTS(g, rave=True, prior_visits=prior_visits, c=0.1, seed=5)
        searcher._lazy = lazy
        s = g.initial_state()
        seen = []
        for _ in range(2):  # the second search reuses the subtree of the move played
            r = searcher.search(s, Limit(nodes=600))
            seen.append(([ch["visits"] for ch in r.extra["root_children"]], r.pv,
                         r.extra["reused_visits"]))
            s = g.result(s, r.action)
        runs.append(seen)
        opened = sum(1 for n in _nodes(searcher._root) if n.pending is None)
        if lazy:
            assert opened < r.extra["tree_size"]  # some leaves were never opened
    assert runs[0] == runs[1]
    assert runs[1][1][2] > 0  # the tree was reused


def _nodes(root: Node) -> list[Node]:
    out, todo = [], [root]
    while todo:
        node = todo.pop()
        out.append(node)
        todo.extend(ch for ch in node.children if ch is not None)
    return out
