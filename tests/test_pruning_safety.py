"""The safety steps of the engine's pruning rules (issue 20, item 2), each guarded by a test
that fails when the step is removed.

Every test names, in its docstring, the hand mutation of ``search/negamax.py`` it was seen to
catch (mutated once, run, restored). The oracles: where a rule is meant to be exact (PVS,
aspiration windows, the transposition table) the same search with the rule off, or plain
minimax at the same depth; where a rule may act only in some nodes (late-move reductions and
futility only in zero-window nodes, null moves not in pawn endings) a search in which no
such node occurs must equal the search with the rule off, node for node; for late-move
reductions, which change values on purpose, a tree built so that a reduced search fails high
wrongly; for mate scores, positions whose mate the engine must report at its exact distance.

Hand mutations no test here catches (each run against this file, the PV contract tests
and 48 WAC mates at depths 4 and 5, where they changed node counts but no value or move):
late-move reductions in check (``not checked`` dropped from ``lmr_node``: moves that give
check are never reduced, and the check extension keeps a node in check deep enough);
the null move's mate guards (``-threshold < beta < threshold`` dropped, or ``return v``
for ``return beta if v > threshold else v``) and futility's (``-threshold < alpha and
beta < threshold`` dropped): the mating moves are checks or captures, which are never
pruned, and a window at a mate score reaches the pruned depths only in mates longer than
these depths see. A position that needs them is the next thing to add.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamesearch import Limit, get_game, make_searcher
from gamesearch.capabilities import EngineSettings
from gamesearch.game import CHANCE
from gamesearch.games.chess import ChessGame
from gamesearch.games.trees import TreeGame, node

# ----- oracles ----------------------------------------------------------------------------


def plain_minimax(game: Any, s: Any, me: int, depth: int | None = None) -> float:
    """MINIMAX(s) from AIMA's definition (§6.2.1) with an optional cut-off (no discount)."""
    if game.is_terminal(s):
        return float(game.utility(s, me))
    if depth == 0:
        return float(game.evaluation().evaluate(s, me))
    nd = None if depth is None else depth - 1
    assert game.to_move(s) != CHANCE
    vals = [plain_minimax(game, game.result(s, a), me, nd) for a in game.actions(s)]
    return max(vals) if game.to_move(s) == me else min(vals)


def random_trees(count: int, *, players: str = "alternate", seed: int = 0) -> list[TreeGame]:
    """Seeded random trees with heuristics (ties and early leaves included)."""
    rng = random.Random(seed)
    return [
        TreeGame.random(rng.choice([(2, 5), (3, 6), 4]), rng.choice([4, 5]), rng.randrange(10**9),
                        values=rng.choice([range(-9, 10), range(-50, 51)]),
                        ties=rng.choice([0.0, 0.3]), early_leaf=rng.choice([0.0, 0.1]),
                        players=players, heuristics=True)
        for _ in range(count)
    ]


class MarginTree(TreeGame):
    """A tree game that asks for late-move reductions and futility margins that do trigger
    (its heuristics lie within +-50 of the leaves' scale)."""

    def engine_settings(self) -> EngineSettings:
        return EngineSettings(lmr=True, futility_margins=(0.0, 1.0, 3.0))


def smooth_tree(seed: int, depth: int, branching: tuple[int, int], delta: int) -> TreeGame:
    """A random tree whose values move at most ``delta`` per ply: each node's heuristic and
    each leaf lie within ``delta`` of the parent's heuristic (the root's is 0). So a node
    searched ``d`` plies deep is worth its heuristic within ``d * delta``: futility margins of
    ``d * delta`` never prune a move that matters (the assumption futility pruning rests on
    holds), and the search with futility must return the exact minimax value."""
    rng = random.Random(seed)
    names = iter(range(10**6))

    def build(d: int, h: int, player: int) -> Any:
        if d == 0 or (d < depth and rng.random() < 0.1):
            return h  # (already within delta of the parent's heuristic)
        kids = [(f"m{i}", build(d - 1, h + rng.randint(-delta, delta), 1 - player))
                for i in range(rng.randint(*branching))]
        return node(f"N{next(names)}", player, kids, heuristic=h)

    return SmoothTree(build(depth, 0, 0), name=f"smooth-{seed}")


class SmoothTree(TreeGame):
    """:func:`smooth_tree`'s game: futility margins that hold (``delta`` = 2)."""

    def engine_settings(self) -> EngineSettings:
        return EngineSettings(futility_margins=(0.0, 2.0, 4.0, 6.0))


def test_futility_with_margins_that_hold_changes_no_value() -> None:
    """Where the margins hold (a tree whose values move at most 2 per ply), futility and
    reverse futility pruning keep the exact minimax value, table, PVS and aspiration
    windows included, while they do prune. Catches, with the rules working together,
    deleting the PVS re-search (kernel or root), the aspiration re-search, the table's
    depth rule (``if e[0] >= d:`` -> ``if True:``) or its bound rule (``flag == LOWER`` ->
    ``flag == UPPER``). Futility's own bound (``best = fut_value``) and first move are
    guarded by ``test_pv_contract.py::test_fail_soft_bounds_hold_for_every_window`` on the
    same trees."""
    pruned = 0
    for seed in range(60):
        game = smooth_tree(seed, 6, (2, 5), 2)
        root = game.initial_state()
        for depth in (3, 4, 5):
            truth = plain_minimax(game, root, 0, depth)
            for options in ({"aspiration": 1.0}, {}):
                s = make_searcher(game, "id", discount=False, futility=True, **options)
                r = s.search(root, Limit(depth=depth))
                assert r.value == truth, (seed, depth, options)
                pruned += s.futility_prunes + s.reverse_futility_prunes
    assert pruned > 100


# ----- late-move reductions ---------------------------------------------------------------


def lmr_trap() -> TreeGame:
    """A tree where the fourth reply of a zero-window node looks good to its mover at
    reduced depth (its grandchild's heuristic, 0) and is bad at full depth (the leaf, 10).

    Root (MAX): a1 is worth 5 (a leaf); a2 leads to B (MIN), searched by PVS with the zero
    window (5, 5+) at depth 3, whose moves b1-b3 are leaves worth 10 and b4 the trap C4 -> D
    -> 10, with D's heuristic 0. The depth-4 minimax value is 10 (a2)."""
    d = node("D", 1, [("d1", 10)], heuristic=0)
    c4 = node("C4", 0, [("c1", d)])
    b = node("B", 1, [("b1", 10), ("b2", 10), ("b3", 10), ("b4", c4)])
    return TreeGame(node("R", 0, [("a1", 5), ("a2", b)]), name="lmr-trap")


def test_lmr_re_searches_a_reduced_move_that_fails_high() -> None:
    """Catches deleting the full-depth re-search after a reduced search beats alpha
    (mutation: ``if v <= alpha:`` -> ``if True:`` in the reduced branch of ``negamax``,
    which keeps the reduced value; also with the re-search counter still counting,
    ``if v <= alpha or (re_searches := re_searches + 1) > 0:``, which no other test
    catches): B then cuts off on the reduced value of b4 and the root plays a1 for 5."""
    game = lmr_trap()
    root = game.initial_state()
    assert plain_minimax(game, root, 0, 4) == 10
    s = make_searcher(game, "negamax", discount=False, pvs=True, lmr=True)
    r = s.search(root, Limit(depth=4))
    assert (r.value, r.action) == (10, "a2")
    assert (s.reductions, s.re_searches) == (1, 1)  # the trap was reduced, then re-searched


@pytest.mark.parametrize("rule", ["lmr", "futility"])
def test_reductions_and_futility_act_only_in_zero_window_nodes(rule: str) -> None:
    """Without PVS, a table, aspiration or null moves no node has a zero window, so late-move
    reductions and futility pruning must change nothing, node for node. Catches dropping
    ``zero_window`` from ``lmr_node`` (lmr) or from the futility condition (futility): PV
    nodes would be reduced or pruned, and the search's exact value lost."""
    changed = 0
    for tree in random_trees(60, seed=11):
        game = MarginTree(tree.tree, name="margins")
        root = game.initial_state()
        for depth in (3, 4):
            off = make_searcher(game, "negamax", discount=False, lmr=False, futility=False)
            on = make_searcher(game, "negamax", discount=False, **{rule: True})
            a, b = off.search(root, Limit(depth=depth)), on.search(root, Limit(depth=depth))
            assert (b.value, b.action, b.nodes) == (a.value, a.action, a.nodes), (tree, depth)
            assert a.value == plain_minimax(game, root, 0, depth)
            # ... while with PVS's zero windows the rule does act (the test has teeth)
            pvs = make_searcher(game, "negamax", discount=False, pvs=True, **{rule: True})
            pvs.search(root, Limit(depth=depth))
            changed += (pvs.reductions if rule == "lmr" else
                        pvs.futility_prunes + pvs.reverse_futility_prunes) > 0
    assert changed > 10


# ----- PVS and aspiration windows: exact ----------------------------------------------------


@pytest.mark.parametrize("players", ["alternate", "random"])
def test_pvs_re_searches_a_zero_window_fail_high_inside_the_window(players: str) -> None:
    """PVS must return the minimax value at every depth. Catches deleting the full-window
    re-search ``if alpha < v < beta: v = ...`` in any of its three places: the kernel's
    opponent branch (alternate), its same-player branch (random movers: a player may move
    twice) and the root's ``_root_loop``."""
    for tree in random_trees(80, players=players, seed=3):
        root = tree.initial_state()
        for depth in (2, 3, 4):
            truth = plain_minimax(tree, root, 0, depth)
            r = make_searcher(tree, "negamax", discount=False, pvs=True).search(
                root, Limit(depth=depth))
            assert r.value == truth, (tree.description, depth)
            assert plain_minimax(tree, tree.result(root, r.action), 0, depth - 1) == truth


def test_aspiration_re_searches_when_the_value_falls_outside_the_window() -> None:
    """Iterative deepening with a narrow aspiration window must return the minimax value.
    Catches deleting the full-window re-search in ``Negamax.iteration`` (the value would
    then be only a bound)."""
    for tree in random_trees(80, seed=5):
        root = tree.initial_state()
        for depth in (3, 4):
            r = make_searcher(tree, "negamax", discount=False, iterate=True, pvs=True,
                              aspiration=1.0).search(root, Limit(depth=depth))
            assert r.value == plain_minimax(tree, root, 0, depth), (tree.description, depth)


# ----- the transposition table: exact ---------------------------------------------------------


def _connect4_positions(count: int, seed: int) -> list[Any]:
    game = get_game("connect4")
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(rng.randint(4, 24)):
            c = game.result(s, rng.choice(list(game.actions(s))))
            if game.is_terminal(c):
                break
            s = c
        out.append(s)
    return out


def test_the_table_changes_no_depth_limited_value() -> None:
    """The table with iterative deepening, ordering and PVS returns the plain search's
    depth-5 values in Connect Four (transpositions meet at the same depth there). Catches
    using an entry of a shallower search (mutation: ``if e[0] >= d:`` -> ``if True:``) and
    taking a stored bound for the other bound (``flag == LOWER`` -> ``flag == UPPER``)."""
    game = get_game("connect4")
    for s in _connect4_positions(25, seed=9):
        plain = make_searcher(game, "negamax", safe=False).search(s, Limit(depth=5))
        r = make_searcher(game, "id", safe=False).search(s, Limit(depth=5))
        assert r.value == plain.value, game.format_state(s)


def test_table_wins_are_stored_relative_to_the_node() -> None:
    """Wins in the table hold at any ply: a table filled by a search of one position gives
    the exact discounted values when the game has moved on (the next search's root is
    deeper in the same tree). Catches storing a win as seen from the old root (mutation:
    ``to_table(best, ply, ...)`` -> ``best`` in the kernel's store, or ``from_table(e[2],
    ...)`` -> ``e[2]`` in its probe)."""
    game = get_game("tictactoe")
    s = game.initial_state()
    kept = make_searcher(game, "id")
    kept.search(s)  # fills the table to the end of the game
    line = [4, 1, 0, 8]  # X takes the centre, O an edge: X wins (in 5 plies, then 3)
    for a in line:
        s = game.result(s, a)
        fresh = make_searcher(game, "id").search(s)
        again = kept.search(s)
        assert again.value == fresh.value, (a, again.value, fresh.value)
        assert again.tt_hits > 0
    assert fresh.value == 1 - 3 * (1 / 1000)  # X mates in three plies


# ----- null moves -----------------------------------------------------------------------------


PAWN_ENDINGS = [
    "8/8/1p6/1P2k3/8/4K3/8/8 w - - 0 1",  # a zugzwang fight of the kings
    "8/5p2/5k2/8/5K2/5P2/8/8 w - - 0 1",
    "8/8/8/2k5/8/2P5/2K5/8 w - - 0 1",
]


def test_no_null_move_in_a_pawn_ending() -> None:
    """Zugzwang is common when a side has only pawns, so the game forbids the null move
    there, and the engine must then search exactly as without null moves. Catches dropping
    ``null_allowed(s)`` from the null-move condition of ``negamax``."""
    game = get_game("chess")
    for fen in PAWN_ENDINGS:
        s = game.parse_state(fen)
        on = make_searcher(game, "id", null_move=True).search(s, Limit(depth=6))
        off = make_searcher(game, "id", null_move=False).search(s, Limit(depth=6))
        assert (on.value, on.nodes) == (off.value, off.nodes), fen


class PassAnywhereChess(ChessGame):
    """Chess whose null-move hook allows a pass even in check (the engine's own conditions
    must then keep it out), and whose passes are recorded: ``(from, in check)``."""

    def __init__(self) -> None:
        super().__init__()
        self.passes: list[tuple[Any, bool]] = []
        self.passed: set[int] = set()  # ids of positions reached by a pass ...
        self.kept: list[Any] = []  # ... kept alive, so that no id is reused

    def null_move_allowed(self, state: Any) -> bool:
        return True

    def null_result(self, state: Any) -> Any:
        self.passes.append((state, self.in_check(state)))
        c = super().null_result(state)
        self.passed.add(id(c))
        self.kept.append(c)
        return c


def test_no_null_move_in_check_or_after_a_null_move() -> None:
    """The engine's own null-move conditions, with a game hook that would allow any pass:
    never in check, never right after a pass (two passes in a row would search the same
    position shallower and call it a cut-off). Catches dropping ``not checked`` (the chess
    hook also refuses a pass in check, which hid it) or ``not nulled[ply]`` from the
    null-move condition of ``negamax``."""
    game = PassAnywhereChess()
    # a rook up (passes fail high); rooks with checks on both sides; depth 8 lets a pass
    # follow a pass (a pass at depth d searches d - 1 - 3 below it, and passes need d >= 3)
    for fen, depth in (("6k1/8/8/8/8/8/5PPP/3R2K1 w - - 0 1", 8),
                       ("4r1k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 6),
                       ("2r3k1/5p1p/6p1/8/8/6P1/5P1P/1R4K1 b - - 0 1", 6)):
        game.passes.clear()
        game.passed.clear()
        game.kept.clear()
        s = game.parse_state(fen)
        passes: list[tuple[Any, bool]] = game.passes
        make_searcher(game, "id", lmr=False, futility=False).search(s, Limit(depth=depth))
        assert passes, fen
        assert not any(checked for _, checked in passes), fen
        assert not any(id(state) in game.passed for state, _ in passes), fen


# ----- mates: every rule keeps the exact distance ------------------------------------------


#: positions with a forced mate: (FEN, the mating move, plies to the mate, search depths);
#: the WAC ones (Win at Chess, tests/data/chess/wac.epd) are found at depth 4 by the check
#: extensions
MATES = [
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1, (2, 3)),
    ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "g3g6", 3, (4, 5)),  # 001
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6", 3, (4, 5)),
    ("k5r1/p4b2/2P5/5p2/3P1P2/4QBrq/P5P1/4R1K1 w - - 0 1", "e3e8", 7, (4,)),  # WAC.253
    ("3Q4/p3b1k1/2p2rPp/2q5/4B3/P2P4/7P/6RK w - - 0 1", "d8h8", 7, (4,)),  # WAC.298
    ("6k1/2pb1r1p/3p1PpQ/p1nPp3/1q2P3/2N2P2/PrB5/2K3RR w - - 0 1", "h6g6", 7, (4,)),  # 103
]


def test_pruning_keeps_the_exact_mate_distance() -> None:
    """With every pruning rule on (null moves, futility and reverse futility, late-move
    reductions) the engine reports each mate at its exact distance, as with all of them
    off. Catches futility pruning in check (mutation: ``not checked`` dropped from the
    futility condition: the WAC positions lose their mate), reducing or pruning moves that
    give check (``not (check_hook and in_check(c))`` dropped from ``reducible``) and using
    a shallower table entry (``if e[0] >= d:`` -> ``if True:``)."""
    game = get_game("chess")
    mate = game.max_utility
    step = mate / 1000
    for fen, best, plies, depths in MATES:
        s = game.search_start(game.parse_state(fen))
        for depth in depths:
            off = make_searcher(game, "id", null_move=False, futility=False, lmr=False)
            on = make_searcher(game, "id")
            a, b = off.search(s, Limit(depth=depth)), on.search(s, Limit(depth=depth))
            assert a.value == mate - plies * step, (fen, depth)
            assert (b.value, b.action.uci()) == (a.value, best), (fen, depth)
