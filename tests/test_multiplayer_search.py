"""The multi-player searches of issue 21 against independent truths.

* Pruned max^n (``shallow``, ``lastbranch``, ``speculative``, each and combined) returns the
  plain max^n value, move and principal variation on random constant-sum trees with ties,
  uneven depth and double moves, 3 and 4 players, to the end and at depth cut-offs.
  Mutations checked by hand once, each caught by ``test_pruned_maxn_equals_plain_maxn``:
  the shallow test with ``>= total - 1`` (an unsafe bound); the last-branch test without
  "b's best so far is no better for a" (``bb[pa] <= ha``); speculative pruning that never
  searches the pruned children again (always ``NOT_PICKED``); the re-search run with b's
  final bound instead of the one it had when the child was first searched (a tie then
  goes to the wrong child); the deep test on a grandparent with the same mover
  (``pa == p`` allowed). The last-branch test without "b's best so far is no better for
  a" stays correct (the re-search repairs it) but re-searches: ``re_searches == 0`` for
  the options without ``speculative`` catches it. (A node's best updated from a
  deep-pruned child's partial vector is unsafe in theory, but 3,000 random trees did not
  show it: no test claims to catch it.)
* Paranoid equals two-player alpha-beta on a hand-built reduction of the same tree (the
  root player against the coalition), with and without the engine's table and ordering.
  Mutation: ``ParanoidGame.terminal_utility`` returning the root's utility for the
  coalition too (no negation) fails it.
* BRS and BRS+ on two-player games are alpha-beta: the same value, move, principal
  variation and node count on tic-tac-toe, Connect Four at small depth and random trees
  with double moves. On three and four players they equal their definitions written out
  without pruning, and BRS+'s principal variation replays in the real game to its value.
  Mutations, each failing ``test_brs_on_n_players_equals_its_definition``: BRS giving the
  turn to the next player instead of the root player; BRS+ skipping the ordered move at
  every deviation (the all-ordered line never searched); BRS+'s line without the ordered
  moves before the deviation (``prefix = []``: the PV no longer replays).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import InvalidLimitError, UnsupportedGameError
from gamesearch.games import get_game
from gamesearch.games.trees import Node, TreeGame, example, node, random_tree
from gamesearch.search import Limit, make_searcher, parse_spec, search
from referees.random_game import RandomGame, shares

PRUNINGS = [dict(zip(("shallow", "lastbranch", "speculative"), bits, strict=True))
            for bits in itertools.product([False, True], repeat=3) if any(bits)]


def random_constant_sum_tree(seed: int, players: int, depth: int, *, total: int = 6,
                             branching: tuple[int, int] = (1, 4)) -> TreeGame:
    """A random tree for ``players`` players whose leaf and heuristic vectors are whole
    numbers summing to ``total`` (many ties: small numbers, and repeated vectors), with
    early leaves and double moves (a player moving twice in a row)."""
    rng = random.Random(seed)
    names = itertools.count()
    last: list[tuple[int, ...]] = []

    def vec() -> tuple[int, ...]:
        if last and rng.random() < 0.3:
            return last[0]
        cuts = sorted(rng.randint(0, total) for _ in range(players - 1))
        v = tuple(b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True))
        last[:] = [v]
        return v

    def build(d: int, player: int) -> Node:
        name = f"N{next(names)}"
        kids: list[tuple[str, Any]] = []
        for j in range(rng.randint(*branching)):
            label = f"{name.lower()}m{j}"
            if d + 1 == depth or rng.random() < 0.15:
                kids.append((label, vec()))
            else:
                nxt = player if rng.random() < 0.15 else (player + 1) % players
                kids.append((label, build(d + 1, nxt)))
        return node(name, player, kids, heuristic=vec())

    return TreeGame(build(0, rng.randrange(players)), name="random-n")


def reduction(t: Any, root: int) -> Any:
    """The two-player tree of the paranoid reduction: ``root`` (player 0) against the
    coalition (player 1), leaves worth the root's utility."""
    if not isinstance(t, Node):
        return float(t[root])
    h = None if t.heuristic is None else float(t.heuristic[root])  # type: ignore[index]
    return node(t.name, 0 if t.player == root else 1,
                [(a, reduction(c, root)) for a, c in t.children], heuristic=h)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([3, 4]), st.integers(1, 6),
       st.sampled_from([None, 1, 2, 3, 4]), st.sampled_from([2, 3, 6]))
def test_pruned_maxn_equals_plain_maxn(seed: int, players: int, depth: int,
                                       limit: int | None, total: int) -> None:
    game = random_constant_sum_tree(seed, players, depth, total=total)
    assert game.game_type.constant_sum == total
    root = game.initial_state()
    lim = Limit(depth=limit)
    plain = make_searcher(game, "maxn").search(root, lim)
    for options in PRUNINGS:
        searcher = make_searcher(game, "maxn", **options)
        r = searcher.search(root, lim)
        assert (r.value, r.action, r.pv) == (plain.value, plain.action, plain.pv), options
        if not options["speculative"]:  # no re-search: never more nodes than plain
            assert r.nodes <= plain.nodes
            assert searcher.re_searches == 0  # type: ignore[attr-defined]


def test_pruning_prunes_and_options_off_change_nothing() -> None:
    fig = example("fig6.4")
    plain = search(fig, 0, "maxn")
    assert (plain.value, plain.nodes) == ((1, 2, 6), 15)  # the figure's 15 nodes
    totals = {name: 0 for name in ("plain", "shallow", "lastbranch", "speculative")}
    for seed in range(40):
        game = random_constant_sum_tree(seed, 3, 6, branching=(2, 4))
        totals["plain"] += search(game, 0, "maxn").nodes
        for name in ("shallow", "lastbranch", "speculative"):
            totals[name] += make_searcher(game, "maxn", **{name: True}).search(0).nodes
    assert totals["shallow"] < totals["plain"]
    assert totals["lastbranch"] < totals["plain"]
    assert totals["speculative"] < totals["plain"]


def test_pruning_needs_a_constant_sum_game() -> None:
    fig = example("fig6.4")  # its leaves sum to 9, 9, 8, ...: not constant-sum
    with pytest.raises(UnsupportedGameError, match="constant-sum") as err:
        search(fig, 0, "maxn:shallow=1")
    assert "\n" not in str(err.value)
    assert parse_spec("maxn:shallow=1,lastbranch=1,speculative=0")[1] == {
        "shallow": True, "lastbranch": True, "speculative": False}
    with pytest.raises(InvalidLimitError, match="shallow"):
        parse_spec("maxn:shallow=maybe")


def player0_minimax(game: TreeGame, s: int, depth: int | None) -> float:
    """Plain minimax value for player 0 of a two-player tree (no pruning)."""
    if game.is_terminal(s):
        return game.utility(s, 0)
    if depth == 0:
        return game.evaluate(s, 0)
    vals = [player0_minimax(game, game.result(s, a), None if depth is None else depth - 1)
            for a in game.actions(s)]
    return max(vals) if game.to_move(s) == 0 else min(vals)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([3, 4]), st.integers(1, 6),
       st.sampled_from([None, 1, 2, 3]))
def test_paranoid_equals_alphabeta_against_the_coalition(
        seed: int, players: int, depth: int, limit: int | None) -> None:
    game = random_constant_sum_tree(seed, players, depth)
    root_player = game.to_move(0)
    two = TreeGame(reduction(game.tree, root_player), name="reduction")
    lim = Limit(depth=limit)
    truth = make_searcher(two, "alphabeta", discount=False).search(0, lim)
    plain = make_searcher(game, "paranoid", discount=False).search(0, lim)
    assert (plain.value, plain.action, plain.nodes) == (truth.value, truth.action, truth.nodes)
    for options in ({"tt": 1024}, {"ordering": True}, {"tt": 1024, "ordering": True,
                                                        "pvs": True}):
        r = make_searcher(game, "paranoid", discount=False, **options).search(0, lim)
        assert r.value == truth.value, options
        # the move may differ from alpha-beta's only between equally good ones
        child = two.result(0, r.action)
        assert player0_minimax(two, child, None if limit is None else limit - 1) == r.value


def random_position(game: Any, plies: int, rng: random.Random) -> Any:
    s = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(s):
            break
        s = game.result(s, rng.choice(list(game.actions(s))))
    return s


@pytest.mark.parametrize("algorithm", ["brs", "brs+"])
def test_brs_on_two_players_is_alphabeta(algorithm: str) -> None:
    rng = random.Random(5)
    cases: list[tuple[Any, Any, int | None]] = []
    ttt = get_game("tictactoe")
    cases += [(ttt, random_position(ttt, k, rng), None) for k in (0, 1, 2, 3, 4)]
    c4 = get_game("connect4")
    cases += [(c4, random_position(c4, rng.randrange(12), rng), d) for d in (1, 2, 3, 4)]
    for seed in range(30):
        tree = TreeGame(random_tree((1, 4), 5, seed, players="random", heuristics=True,
                                    early_leaf=0.1, values=range(-3, 4)))
        cases.append((tree, 0, rng.choice([None, 1, 2, 3])))
    for game, s, depth in cases:
        if game.is_terminal(s):
            continue
        truth = search(game, s, "alphabeta", Limit(depth=depth))
        r = search(game, s, algorithm, Limit(depth=depth))
        assert (r.value, r.action, r.pv, r.nodes) == (
            truth.value, truth.action, truth.pv, truth.nodes), (game.name, s, depth)


def brs_definition(game: RandomGame, s: Any, me: int, layers: int, plus: bool) -> float:
    """BRS (``plus``: BRS+) written out from the papers, without pruning."""
    if game.is_terminal(s):
        return game.utility(s, me)
    if layers == 0:
        return game.evaluate(s, me)
    if game.to_move(s) == me:
        return max(brs_definition(game, game.result(s, a), me, layers - 1, plus)
                   for a in game.actions(s))
    children = []
    if not plus:  # every opponent's every move, the others passing; then the root moves
        for o in range(game.num_players):
            if o == me:
                continue
            so = game.give_turn(s, o)
            for a in game.actions(so):
                c = game.result(so, a)
                children.append(c if game.is_terminal(c) else game.give_turn(c, me))
    else:  # one opponent deviates; the others play their first move, in turn order
        line, t = [], s
        while not game.is_terminal(t) and game.to_move(t) != me:
            line.append(t)
            t = game.result(t, game.actions(t)[0])
        for base in line:
            for a in game.actions(base):
                c = game.result(base, a)
                while not game.is_terminal(c) and game.to_move(c) != me:
                    c = game.result(c, game.actions(c)[0])
                children.append(c)
    return min(brs_definition(game, c, me, layers - 1, plus) for c in children)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([3, 4]), st.integers(1, 4),
       st.integers(0, 5), st.booleans())
def test_brs_on_n_players_equals_its_definition(seed: int, players: int, depth: int,
                                                plies: int, plus: bool) -> None:
    game = RandomGame(players, (1, 4), length=7, seed=seed)
    s = random_position(game, plies, random.Random(seed))
    if game.is_terminal(s):
        return
    s = game.give_turn(s, seed % players)
    me = game.to_move(s)
    r = search(game, s, "brs+" if plus else "brs", Limit(depth=depth))
    truth = brs_definition(game, s, me, depth, plus)
    assert r.value == truth
    assert brs_definition(game, game.result(s, r.action), me, depth - 1, plus) == truth
    if plus:  # BRS+'s line is one of the real game: replayed, it ends where its value is
        t = s
        for a in r.pv:
            assert a in game.actions(t)
            t = game.result(t, a)
        assert (game.utility(t, me) if game.is_terminal(t) else game.evaluate(t, me)) == truth


def test_every_search_runs_under_the_limits_with_iterative_deepening() -> None:
    game = RandomGame(3, (6, 9), length=30, seed=3)
    s = game.initial_state()
    for spec in ("maxn", "maxn:shallow=1,lastbranch=1,speculative=1", "paranoid",
                 "paranoid:tt=64k,ordering=1", "brs", "brs+"):
        r = search(game, s, spec, Limit(nodes=3000))
        assert r.action in game.actions(s), spec
        assert r.depth >= 2 and len(r.nodes_per_depth) >= 2, spec
        assert r.nodes <= 3000 + 64, spec
        assert r.pv and r.pv[0] == r.action, spec
        fixed = search(game, s, spec, Limit(depth=2))
        assert fixed.depth == 2 and fixed.completed, spec
    assert search(game, s, "maxn:shallow=1,speculative=1", Limit(depth=3)).cutoffs > 0
    assert search(game, s, "brs", Limit(depth=3)).cutoffs > 0


def test_two_player_searches_refuse_three_players_in_one_line() -> None:
    fig = example("fig6.4")
    for algorithm in ("minimax", "alphabeta", "negamax", "pvs", "id"):
        with pytest.raises(UnsupportedGameError, match="two-player") as err:
            search(fig, 0, algorithm)
        assert "\n" not in str(err.value) and "brs" in str(err.value)
    with pytest.raises(UnsupportedGameError, match="brs\\+") as err:
        search(fig, 0, "brs")  # a tree cannot let a player move out of turn
    assert "\n" not in str(err.value)
    with pytest.raises(InvalidLimitError, match="paranoid"):
        search(fig, 0, "paranoid:lmr=1")


def test_random_game_shares_are_constant_sum() -> None:
    assert shares([0, 0, 0]) == (4, 4, 4)
    assert shares([1, 1, 0]) == (6, 6, 0)
    assert shares([2, 1, 1, 0]) == (6, 3, 3, 0)
    game = RandomGame(4, (2, 5), length=6, seed=1)
    rng = random.Random(0)
    for _ in range(50):
        s = random_position(game, rng.randrange(7), rng)
        assert sum(game.evaluate(s, p) for p in range(4)) == 12


def test_pruned_maxn_on_a_fixed_sweep_of_trees() -> None:
    """The same comparison on 1,000 fixed trees (3 and 4 players, sums 2, 3 and 6,
    depths 3-6, to the end and cut off): a sweep that a rare unsafe test cannot slip
    through by luck (the deep test on a grandparent with the same mover fails here, at
    seed 575, where 400 random draws above may miss it)."""
    for seed in range(1000):
        players, total, depth = 3 + seed % 2, [2, 3, 6][seed % 3], 3 + seed % 4
        game = random_constant_sum_tree(seed, players, depth, total=total)
        lim = Limit(depth=[None, 2, 3][seed % 3 if seed % 5 else 0])
        plain = make_searcher(game, "maxn").search(0, lim)
        for options in PRUNINGS:
            r = make_searcher(game, "maxn", **options).search(0, lim)
            assert (r.value, r.action, r.pv) == (plain.value, plain.action, plain.pv), (
                seed, options)
