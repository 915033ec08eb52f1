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

The guards no chess position we tried needed (each mutation changed node counts, never a
value or a move, in the positions here, the PV contract tests and 48 WAC mates at depths 4
and 5: the mating moves are checks or captures, never pruned, and a window at a mate score
reaches the pruned depths only in mates longer than those depths see) have trees built for
them at the end of this file (a tree game with a pass, check and futility margins where
asked), in which removing the guard changes the value or the move against the same search
with the rule off and against plain minimax: late-move reductions in check, the null
move's two mate guards and futility's.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamesearch import Limit, get_game, make_searcher
from gamesearch.capabilities import EngineSettings, NullMove, Tactics
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
    a shallower table entry (``if e[0] >= d:`` -> ``if True:``). Static exchange pruning
    (chess's default since issue 38) is left out of both: it prunes the checks that give
    material away, so WAC.298's mate in 4 (7 plies) is found at depth 7, not 4 (a known
    cost, in docs/games/chess.md)."""
    game = get_game("chess")
    mate = game.max_utility
    step = mate / 1000
    for fen, best, plies, depths in MATES:
        s = game.search_start(game.parse_state(fen))
        for depth in depths:
            off = make_searcher(game, "id", null_move=False, futility=False, lmr=False,
                                see_pruning=False)
            on = make_searcher(game, "id", see_pruning=False)
            a, b = off.search(s, Limit(depth=depth)), on.search(s, Limit(depth=depth))
            assert a.value == mate - plies * step, (fen, depth)
            assert (b.value, b.action.uci()) == (a.value, best), (fen, depth)


# ----- the guards no chess position here needed: trees built for them -----------------------


#: a tree's win: leaves worth this are wins (discounted by distance); heuristics stay small
WIN = 1e9


class GuardTree(TreeGame):
    """A tree game for the guards: leaves of ``WIN`` are wins (``max_utility`` is ``WIN``),
    a child labelled ``pass`` is the position after its node's mover passes (the null move,
    allowed only there; it is no legal move), the nodes named in ``checks`` are in check
    (the game's ``tactics()``: no noisy moves), and ``settings`` are the engine settings."""

    def __init__(self, tree: Any, *, checks: frozenset[str] = frozenset(),
                 settings: EngineSettings | None = None) -> None:
        super().__init__(tree, name="guard-tree")
        self.max_utility = WIN
        self.checks = checks
        self.settings = settings
        self.passes: list[str] = []  # the nodes passed at, in order

    def _pass(self, state: int) -> int:
        self.passes.append(self.node_name(state))
        return self.result(state, "pass")

    def actions(self, state: int) -> Any:
        return tuple(a for a in super().actions(state) if a != "pass")

    def tactics(self) -> Tactics[int, str] | None:
        return Tactics(lambda s: (), in_check=lambda s: self.node_name(s) in self.checks)

    def null_move(self) -> NullMove[int] | None:
        return NullMove(self._pass,
                        lambda s: "pass" in super(GuardTree, self).actions(s))

    def engine_settings(self) -> EngineSettings | None:
        return self.settings


def mate_line(name: str, player: int, plies: int) -> Any:
    """A line of single moves from a node of ``player`` (``plies`` >= 1 below it) to a win
    for player 0."""
    if plies == 0:
        return WIN
    return node(name, player, [(f"{name}x", mate_line(f"{name}'", 1 - player, plies - 1))],
                heuristic=0)


def test_no_reductions_in_check() -> None:
    """Late-move reductions skip a node in check: there the mover has to answer the threat,
    and a quiet evasion's worth shows only at full depth. In chess the rule never changed a
    result we tried (moves that give check are never reduced, and the check extension
    keeps the node deep), so this tree isolates it: C (in check, extended to depth 3 in a
    zero-window node) has four moves, and only the fourth, c4 -> D -> E -> 10, keeps the
    game; reduced one ply it ends at E's heuristic, 0, and fails low for good. Catches
    dropping ``not checked`` from ``lmr_node`` (the root then plays a1 for 5)."""
    e = node("E", 0, [("e1", 10)], heuristic=0)
    c = node("C", 0, [("c1", 0), ("c2", 0), ("c3", 0), ("c4", node("D", 1, [("d1", e)]))])
    game = GuardTree(node("R", 0, [("a1", 5), ("a2", node("B", 1, [("b1", c)]))],
                          heuristic=0), checks=frozenset({"C"}))
    root = game.initial_state()
    assert plain_minimax(game, root, 0, 5) == 10  # depth 4, plus the ply in check
    for lmr in (False, True):
        s = make_searcher(game, "negamax", pvs=True, lmr=lmr, check_extension=True,
                          quiescence=False, null_move=False)
        r = s.search(root, Limit(depth=4))
        assert (r.value, r.action) == (10, "a2"), lmr
    # ... while out of check, at the same depth, C's c4 is reduced and lost (reductions
    # change fixed-depth values on purpose): the tree does test the rule
    game.checks = frozenset()
    s = make_searcher(game, "negamax", pvs=True, lmr=True, quiescence=False, null_move=False)
    r = s.search(root, Limit(depth=5))
    assert (r.value, r.action, s.reductions, s.re_searches) == (5, "a1", 1, 0)


def null_mate_tree() -> GuardTree:
    """Player 1's B is in zugzwang: its one move b1 lets player 0 mate at ply 3, but after a
    pass (a null move) player 0 has only a quiet move (heuristic 0). a1 mates at ply 5."""
    z = node("Z", 0, [("z1", node("Z1", 1, [("y", 0)], heuristic=0))], heuristic=0)
    b = node("B", 1, [("b1", mate_line("C", 0, 1)), ("pass", z)], heuristic=0)
    return GuardTree(node("R", 0, [("a1", mate_line("A", 1, 4)), ("a2", b)], heuristic=0))


def test_no_null_move_against_a_mate_score() -> None:
    """No null move where beta is a mate score: a pass cannot show that a position escapes
    a mate (zugzwang). After a1 (mate at ply 5), a2 is searched with the zero window "mates
    faster than ply 5?", so B's beta is a mate score; B's pass fails high, its only move
    is mated at ply 3. Catches dropping ``-threshold < beta < threshold`` from the
    null-move condition of ``negamax`` (B's null move cuts, and the root plays the slower
    mate a1)."""
    game = null_mate_tree()
    root = game.initial_state()
    step = WIN / 1000
    for null in (False, True):
        s = make_searcher(game, "negamax", pvs=True, null_move=null)
        r = s.search(root, Limit(depth=5))
        assert (r.value, r.action) == (WIN - 3 * step, "a2"), null
    assert game.passes == []  # (B's only chance of a pass had a mate score for beta)
    assert plain_minimax(game, root, 0, 5) == WIN


def null_mate_bound_tree() -> GuardTree:
    """G (player 0 to move, in zugzwang: its one move g1 is worth -5) is reached in a PV node
    P whose beta is a mate score and whose alpha is not: after G's pass, H must move into a
    mate (ply 6), faster than q1's mate (ply 8). The value is 4 (a2, p1)."""
    h = node("H", 1, [("h1", WIN)], heuristic=0)
    g = node("G", 0, [("g1", -5), ("pass", h)], heuristic=0)
    p = node("P", 0, [("p1", 4), ("p2", node("C", 1, [("c1", g)]))], heuristic=0)
    q = node("Q", 1, [("q1", mate_line("K", 0, 6)), ("q2", p)], heuristic=0)
    return GuardTree(node("R", 0, [("a1", 3), ("a2", q)], heuristic=0))


def test_a_null_move_mate_is_only_a_bound_at_beta() -> None:
    """A null move that fails high on a mate score (here: a pass leaves the opponent to
    move into a mate) returns beta, not the mate: the mate was found after an illegal pass.
    The path: at the root a2 fails high over a1 (3) and is searched again; there q2's
    zero-window search beats q1's mate, so Q searches it again and P is a PV node with the
    window (3, mate at ply 8); its
    p1 gives 4 and p2 is searched with the zero window (4, 4+), where G passes and fails
    high. Returning beta (4+) lies inside P's window, so PVS searches p2 again with the full
    window, in which no null move is tried: G is worth -5, the value 4. Catches
    ``return beta if v > threshold else v`` -> ``return v`` in ``null_move_cutoff``: P then
    cuts off on the mate at ply 6 above its beta, Q keeps q1, and the root reports a mate
    at ply 8 that does not exist. Also catches dropping ``-threshold < beta < threshold``
    (Q's zero-window search of q2 has beta at that mate: G's pass then cuts there)."""
    game = null_mate_bound_tree()
    root = game.initial_state()
    assert plain_minimax(game, root, 0, 8) == 4
    for null in (False, True):
        s = make_searcher(game, "negamax", pvs=True, null_move=null)
        r = s.search(root, Limit(depth=8))
        assert (r.value, r.action, r.pv) == (4, "a2", ["a2", "q2", "p1"]), null
    assert game.passes == ["G"]  # G passed (in P's zero-window search of p2) and cut


def futility_mate_tree(margins: int) -> GuardTree:
    """a1 mates at ply 5; a2 mates faster through B, a node of player 1 that every move
    loses, and N, a node of player 0 whose second move (quiet: the tree has no noisy moves)
    mates. With ``margins`` futility margins (depths below that are pruned) either B
    (5 margins: depth 4) or only N (4 margins: depth 3) is near enough to the horizon."""
    n = node("N", 0, [("n1", 0), ("n2", mate_line("K", 1, 1))], heuristic=0)
    b = node("B", 1, [("b1", n)], heuristic=0)
    return GuardTree(node("R", 0, [("a1", mate_line("A", 1, 4)), ("a2", b)], heuristic=0),
                     settings=EngineSettings(futility_margins=(0.0, 1, 2, 3, 4)[:margins]))


@pytest.mark.parametrize("margins", [5, 4])
def test_no_futility_against_a_mate_score(margins: int) -> None:
    """No futility pruning in a window at a mate score: a static value and a margin say
    nothing about mates. After a1 (mate at ply 5) a2 is searched with the zero window
    "mates faster?": B's window is a mate against it (alpha a mate score for its mover,
    player 1), and so are K's, while N's is a mate for its mover (beta a mate score).
    Catches, in either tree, dropping ``-threshold < alpha`` from the futility condition of
    ``negamax`` (reverse futility ends B, or K: a static value minus the margin clears a
    beta that is a mate against the mover) or ``beta < threshold`` (N's static value plus
    the margin stays below alpha, and futility prunes n2, the mate at ply 4): either way
    the root plays the slower mate a1."""
    game = futility_mate_tree(margins)
    root = game.initial_state()
    step = WIN / 1000
    for futility in (False, True):
        s = make_searcher(game, "negamax", pvs=True, futility=futility)
        r = s.search(root, Limit(depth=5))
        assert (r.value, r.action) == (WIN - 4 * step, "a2"), futility
        assert s.futility_prunes + s.reverse_futility_prunes == 0
    assert plain_minimax(game, root, 0, 5) == WIN
