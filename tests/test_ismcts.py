"""SO-ISMCTS (search/ismcts.py) and OpenSpiel's ISMCTSBot at our table."""

from __future__ import annotations

import random

import pytest

from gamesearch.agents import make_agent, play_game
from gamesearch.errors import UnsupportedGameError
from gamesearch.game import Game, GameType
from gamesearch.games import get_game
from gamesearch.games.road import Road
from gamesearch.search.ismcts import ismcts
from gamesearch.search.pimc import pimc


def test_ismcts_takes_the_safe_road_where_pimc_errs():
    """One tree over the information set: at the fork both worlds share a node, so road B
    backs up about (10 - 100) / 2, below road A's 1; PIMC's clairvoyant worlds say 10."""
    game = Road()
    view = game.observation().observe(game.result(game.initial_state(), "right"), 0)
    r = ismcts(game, view, 0, iterations=2000, rng=random.Random(1))
    assert r.action == "A"
    assert r.means["B"] < 0 < r.means["A"]
    assert pimc(game, view, 0, worlds=10, rng=random.Random(1)).action == "B"


def test_ismcts_refuses_perfect_information_and_plays_ohhell_from_views():
    with pytest.raises(UnsupportedGameError, match="hidden information"):
        make_agent(get_game("tictactoe"), "ismcts")
    game = get_game("ohhell")
    agents = [make_agent(game, "ismcts:iterations=50,seed=1"),
              make_agent(game, "random:seed=2"), make_agent(game, "ismcts:iterations=30")]
    final, moves = play_game(game, agents, rng=random.Random(3))
    assert game.is_terminal(final) and len(moves) == 23


def test_openspiel_ismcts_bot_at_our_table():
    pytest.importorskip("pyspiel", reason="open_spiel (the dev extra) is the opponent")
    from referees.openspiel_ohhell import OpenSpielIsmcts

    game = get_game("ohhell")
    for seed in range(3):
        agents = [OpenSpielIsmcts(50, seed=seed), make_agent(game, "random:seed=1"),
                  OpenSpielIsmcts(30, seed=seed + 7)]
        final, _ = play_game(game, agents, rng=random.Random(seed))
        assert game.is_terminal(final)
    with pytest.raises(UnsupportedGameError, match="seat's view"):
        OpenSpielIsmcts(10).choose(game, final)


# ----- SO-ISMCTS on mcts.py's parts (Node, select_determinized, backpropagate) -----------
def reference_ismcts(game, view, seat, iterations, c, rng):
    """The separate-tree SO-ISMCTS that search/ismcts.py was before it moved onto mcts.py
    (commit f7cf1c1, kept verbatim in substance as the oracle): visits and mean rewards of
    the root's moves."""
    import math

    from gamesearch.game import random_playout

    class Ref:
        def __init__(self, mover):
            self.mover, self.visits, self.available, self.total = mover, 0, 0, 0.0
            self.children = {}

    observation = game.observation()
    world = observation.world
    sampler = observation.sampler(view)[0]
    scale = 1.0 / game.max_utility
    root = Ref(-1)
    for _ in range(iterations):
        state = observation.sample(view, rng, sampler)
        node, path = root, [root]
        while not world.is_terminal(state):
            legal = world.actions(state)
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                if a in node.children:
                    node.children[a].available += 1
            if untried:
                a = untried[int(rng.random() * len(untried))]
                child = Ref(world.to_move(state))
                child.available = 1
                node.children[a] = child
                state = world.result(state, a)
                path.append(child)
                break
            best_a, best_u = legal[0], -math.inf
            for a in legal:
                ch = node.children[a]
                u = ch.total / ch.visits + c * math.sqrt(math.log(ch.available) / ch.visits)
                if u > best_u:
                    best_a, best_u = a, u
            node = node.children[best_a]
            state = world.result(state, best_a)
            path.append(node)
        rewards = world.returns(random_playout(world, state, rng))
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.total += rewards[n.mover] * scale
    return ({a: ch.visits for a, ch in root.children.items()},
            {a: ch.total / ch.visits / scale for a, ch in root.children.items()})


def ohhell_views(deals: int):
    from gamesearch.games.ohhell import random_deal

    game = get_game("ohhell")
    observation = game.observation()
    for d in range(deals):
        rng = random.Random(100 + d)
        state = random_deal(rng)
        for _ in range(rng.randrange(0, 9)):  # somewhere in the bidding or the play
            state = game.result(state, rng.choice(game.actions(state)))
        seat = game.to_move(state)
        yield game, observation.observe(state, seat), seat


def test_ismcts_on_mcts_parts_searches_as_the_separate_tree_did():
    """Same seed, same determinizations: the visits and means of every root move equal the
    old separate tree's, on Oh Hell views (bids and cards, voids revealed) and the road."""
    cases = list(ohhell_views(6))
    road = Road()
    cases.append((road, road.observation().observe(
        road.result(road.initial_state(), "left"), 0), 0))
    for game, view, seat in cases:
        for c in (0.7, 2.0):
            visits, means = reference_ismcts(game, view, seat, 300, c, random.Random(5))
            r = ismcts(game, view, seat, iterations=300, c=c, rng=random.Random(5))
            assert {a: v for a, v in r.visits.items() if v} == visits
            assert {a: r.means[a] for a in visits} == means
            assert sum(visits.values()) == 300


class Pledges(Game):
    """A 3-player test game: each seat in turn pledges 0, 1 or 2; seat p's reward is
    10 p + its own pledge, so the reward backed up into a node reached by seat p's pledge
    x is 10 p + x whatever happens below it, and differs from every other seat's."""

    name = "pledges"
    num_players = 3
    game_type = GameType(num_players=3, perfect_information=False, zero_sum=False)
    max_utility = 30.0

    def initial_state(self):
        return ()

    def to_move(self, state):
        return len(state)

    def is_terminal(self, state):
        return len(state) == 3

    def actions(self, state):
        return [0, 1, 2]

    def result(self, state, action):
        return (*state, action)

    def returns(self, state):
        return [10.0 * p + x for p, x in enumerate(state)]

    def observation(self):
        return self

    @property
    def world(self):
        return self

    def sampler(self, view):
        return None, None

    def sample(self, view, rng, sampler=None):
        return view


def test_ismcts_backs_up_each_node_the_reward_of_the_seat_that_moved_into_it(monkeypatch):
    """Per-player back-up (max^n, Sturtevant 2008): in a 3-player game each node's total
    is the reward of the seat whose move made it -- not the searching seat's."""
    import importlib

    module = importlib.import_module("gamesearch.search.ismcts")

    roots = []

    def capture(owner):
        node = information_set_node(owner)
        roots.append(node)
        return node

    from gamesearch.search.mcts import information_set_node

    monkeypatch.setattr(module, "information_set_node", capture)
    game = Pledges()
    r = ismcts(game, (), 0, iterations=400, c=0.7, rng=random.Random(3))
    assert r.means == pytest.approx({0: 0.0, 1: 1.0, 2: 2.0}) and r.action == 2
    checked = 0
    todo = [(roots[0], 0)]
    while todo:
        node, depth = todo.pop()
        for a, ch in zip(node.actions, node.children, strict=True):
            assert ch.owner == depth
            assert ch.w * game.max_utility == pytest.approx(ch.n * (10 * depth + a))
            checked += 1
            todo.append((ch, depth + 1))
    assert checked == 3 + 9 + 27
