"""Chinese Checkers (issue 21): the board, the moves and the end against OpenSpiel's
``chinese_checkers`` (its source's tables, and the ``open_spiel`` wheel itself when it
imports), the notation and its errors, the returns, the capabilities, and every n-player
search on it. Each test's docstring names the mutation of the rules it was seen to catch."""

from __future__ import annotations

import pytest

from gamesearch import Limit, get_game, make_searcher, search
from gamesearch.errors import GameError, IllegalMoveError, InvalidLimitError, InvalidPositionError
from gamesearch.games.chinese_checkers import PASS, CCState, ChineseCheckers
from gamesearch.games.chinese_checkers import board as B
from gamesearch.games.chinese_checkers.rules import piece_moves

try:
    import pyspiel  # noqa: F401

    HAVE_OPENSPIEL = True
except ImportError:
    HAVE_OPENSPIEL = False
needs_openspiel = pytest.mark.skipif(
    not HAVE_OPENSPIEL, reason="OPEN_SPIEL IS NOT INSTALLED (pip install open_spiel, the dev "
    "extra): the comparison with OpenSpiel's chinese_checkers is SKIPPED")

# OpenSpiel's kTriangleCells (open_spiel/games/chinese_checkers/chinese_checkers.cc).
OPENSPIEL_TRIANGLES = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (19, 20, 21, 22, 32, 33, 34, 44, 45, 55),
    (74, 84, 85, 95, 96, 97, 107, 108, 109, 110),
    (111, 112, 113, 114, 115, 116, 117, 118, 119, 120),
    (65, 75, 76, 86, 87, 88, 98, 99, 100, 101),
    (10, 11, 12, 13, 23, 24, 25, 35, 36, 46),
)


def hole(r: int, c: int) -> int:
    return B.INDEX[(r, c)]


def mask(*holes: int) -> int:
    return sum(1 << h for h in holes)


def test_the_board_is_openspiels() -> None:
    """121 holes in OpenSpiel's order, its triangles, its neighbours of a few holes
    (kNeighbor rows 0, 4, 64, 120). Mutation caught: north-east and north-west swapped in
    ``_triangle_of`` (``1 if c > 12 else 5`` -> ``5 if ...``)."""
    assert B.HOLES == 121 and B.TRIANGLES == OPENSPIEL_TRIANGLES
    assert B.NEIGHBOUR[0] == (-1, -1, -1, -1, 1, 2)
    assert B.NEIGHBOUR[4] == (1, 2, 3, 5, 7, 8)
    assert B.NEIGHBOUR[64] == (54, 55, 63, -1, 73, 74)
    assert B.NEIGHBOUR[120] == (118, 119, -1, -1, -1, -1)
    assert B.JUMP[3] == (-1, 0, -1, 5, 14, 16)  # kHopDest[3]
    assert [B.NAMES[h] for h in (0, 10, 22, 60, 120)] == ["a1", "e1", "e13", "i5", "q1"]
    assert all(B.BY_NAME[B.NAMES[h]] == h for h in range(121))


@pytest.mark.parametrize(("players", "homes"), [
    (2, (0, 3)), (3, (0, 2, 4)), (4, (0, 1, 3, 4)), (6, (0, 1, 2, 3, 4, 5))])
def test_start_and_targets(players: int, homes: tuple[int, ...]) -> None:
    """Each player's ten pieces in OpenSpiel's home triangle, aiming at the opposite one;
    everyone 120 from the goal. Mutation caught: ``target`` returning ``(home + 2) % 6``."""
    game = ChineseCheckers(players)
    s = game.initial_state()
    assert s.pieces == tuple(mask(*OPENSPIEL_TRIANGLES[t]) for t in homes)
    assert game.goal_masks == tuple(mask(*OPENSPIEL_TRIANGLES[(t + 3) % 6]) for t in homes)
    assert game.distances(s) == (120,) * players and not game.is_terminal(s)


def test_the_first_moves_are_openspiels() -> None:
    """Player 1's 14 moves at the start, OpenSpiel's ``3=>14 ... 9->18`` as hole names
    (the same for every player count). Mutation caught: the jump test reading the landing's
    own bit for the jumped piece (``occ & land_bit``) instead of the neighbour's."""
    game = get_game("chinese_checkers:players=3")
    openspiel = ["3=>14", "3=>16", "4=>15", "4=>17", "5=>16", "5=>18", "6->14", "6->15",
                 "7->15", "7->16", "8->16", "8->17", "9->17", "9->18"]
    expected = sorted(f"{B.NAMES[int(a)]}-{B.NAMES[int(b[1:])]}"
                      for a, b in (m.split("=") if "=" in m else m.split("-")
                                   for m in openspiel))
    assert sorted(game.legal_action_strings(game.initial_state())) == expected


def test_a_chain_never_returns_to_its_start_and_every_end_is_one_move() -> None:
    """Three pieces around the triangle A (i5) -> B -> C -> A: the chain reaches B and C
    (each by two chains, listed once) and never A again; four steps besides. Mutation
    caught: the chain's reached set started without the start (``blocked = occ``):
    ``i5-i5`` appeared."""
    a, b, c = hole(8, 12), hole(8, 16), hole(6, 14)
    others = mask(hole(8, 14), hole(7, 15), hole(7, 13))
    moves = piece_moves(1 << a, (1 << a) | others)
    ends = sorted(m % 121 for m in moves)
    steps = sorted(hole(8 + dr, 12 + dc) for dr, dc in ((0, -2), (-1, -1), (1, -1), (1, 1)))
    assert ends == sorted([b, c, *steps]) and len(moves) == len(set(moves))


def test_a_chain_stops_wherever_the_player_chooses() -> None:
    """A line of three pieces with gaps: jumps to each of the three landings are three
    moves (and the piece's own hole does not block the chain). Mutation caught: the chain
    stopped after its first jump (the landing never pushed on the stack)."""
    start = hole(8, 4)
    line = [hole(8, 6), hole(8, 10), hole(8, 14)]
    landings = [hole(8, 8), hole(8, 12), hole(8, 16)]
    moves = piece_moves(1 << start, (1 << start) | mask(*line))
    assert {start * 121 + h for h in landings} <= set(moves)
    assert start * 121 + hole(8, 18) not in moves  # over nothing


def test_moves_and_the_turn() -> None:
    """A move moves one piece, passes the turn on and counts one turn. Mutation caught:
    ``result`` not advancing the player after the last one (``nxt = players``)."""
    game = ChineseCheckers(3)
    s = game.initial_state()
    for k in range(6):
        s = game.result(s, game.actions(s)[0])
        assert s.player == (k + 1) % 3 and s.moves == k + 1
    assert [m.bit_count() for m in s.pieces] == [10, 10, 10]


BLOCKED = ("1/11/111/1111/....22222..../...222223.../.........../........../........./"
           "3........./33........./333........./333........../..../.../../. 1 0")


def test_a_player_without_a_move_passes() -> None:
    """Player 1 at home, walled in by player 2 (the five holes of row e below) and the six
    jump landings of row f (player 2 and 3): the only move is the pass. Mutation caught:
    ``actions`` returning an empty list instead of ``[PASS]``."""
    game = ChineseCheckers(3)
    s = game.parse_state(BLOCKED)
    assert game.actions(s) == [PASS] and game.legal_action_strings(s) == ["pass"]
    after = game.play(s, "pass")
    assert after.pieces == s.pieces and after.player == 1 and after.moves == 1
    with pytest.raises(IllegalMoveError, match="only without"):
        game.parse_action(game.initial_state(), "pass")
    assert 'data-move="pass"' in (game.render_svg(s) or "")


def test_the_end_and_the_returns() -> None:
    """Filling the opposite triangle ends the game with that player first; the move limit
    ends it with everyone ranked by distance left, ties sharing their places; the returns
    sum to 0. Mutations caught: tied players not sharing (``share = place_value[k]``), and
    the move limit not ending the game (``>`` for ``>=``)."""
    game = ChineseCheckers(3, max_moves=50)
    start = game.initial_state()
    done = CCState((game.goal_masks[0], start.pieces[1], start.pieces[2]), 1, 7)
    assert game.is_terminal(done) and game.winner(done) == 0
    assert game.returns(done) == [1.0, -0.5, -0.5]
    assert game.termination(done) == "player 1 filled the opposite triangle"
    limit = start._replace(moves=50)
    assert game.is_terminal(limit) and game.winner(limit) is None
    assert game.returns(limit) == [0.0, 0.0, 0.0]
    assert not game.is_terminal(start._replace(moves=49))
    s = start
    for _ in range(3):  # player 1 steps forward, the others too
        s = game.result(s, game.order_actions(s, game.actions(s))[0])
    s = game.result(s, game.order_actions(s, game.actions(s))[0])  # player 1 again
    over = s._replace(moves=50)
    r = game.returns(over)
    assert r[0] == 1.0 and r[1] == r[2] == -0.5 and abs(sum(r)) < 1e-12
    four = ChineseCheckers(4, max_moves=1)
    r4 = four.returns(four.result(four.initial_state(), four.actions(four.initial_state())[0]))
    assert r4 == [1.0, -1 / 3, -1 / 3, -1 / 3]


def test_the_evaluation_is_inside_the_utilities_and_favours_progress() -> None:
    """Strictly inside (-1, 1), summing to 0, higher for the player who moved forward.
    Mutation caught: the sign flipped (``x - mean``)."""
    game = ChineseCheckers(4)
    ev = game.evaluation()
    assert ev is not None
    s = game.initial_state()
    assert [ev.evaluate(s, p) for p in range(4)] == [0.0] * 4
    s = game.result(s, game.order_actions(s, game.actions(s))[0])
    values = [ev.evaluate(s, p) for p in range(4)]
    assert values[0] > 0 > values[1] and abs(sum(values)) < 1e-12
    assert all(-1 < v < 1 for v in values)
    far = CCState((0, 0, 0, mask(*range(111, 121))), 0, 0)  # an extreme, not a real game
    assert all(-1 < ev.evaluate(far, p) < 1 for p in range(4))


def test_forward_moves_come_first() -> None:
    """The ordering puts the most forward move first and a backward one last. Mutation
    caught: sorting by ``dist[src] - dist[dst]`` (backward moves first)."""
    game = ChineseCheckers(2)
    ordering = game.move_ordering()
    assert ordering is not None
    s = game.initial_state()
    s = game.result(s, game.parse_action(s, "d1-e5"))
    s = game.result(s, game.parse_action(s, "n1-m5"))
    ordered = list(ordering.order_actions(s, game.actions(s)))
    dist = game.goal_distance[0]
    gains = [dist[a // 121] - dist[a % 121] for a in ordered]
    assert gains == sorted(gains, reverse=True) and gains[0] == 4 and gains[-1] < 0
    assert game.format_action(s, ordered[-1]) == "e5-d1"


def test_notation_round_trips() -> None:
    """Every position of a short game is read back as itself; every legal move too.
    Mutation caught: ``format_state`` writing the player to move 0-based."""
    game = ChineseCheckers(6)
    s = game.initial_state()
    for _ in range(12):
        assert game.parse_state(game.format_state(s)) == s
        for a in game.actions(s):
            assert game.parse_action(s, game.format_action(s, a)) == a
        s = game.result(s, game.actions(s)[-1])
    assert game.parse_state(game.format_state(s)) == s
    assert game.split_position_line(game.format_state(s) + " comment") == (
        game.format_state(s), "comment")
    assert game.key(s) == game.key(game.parse_state(game.format_state(s)))
    assert game.key(s) != game.key(s._replace(player=(s.player + 1) % 6))


START2 = ChineseCheckers(2).format_state(ChineseCheckers(2).initial_state())


@pytest.mark.parametrize(("text", "message"), [
    ("", "expected 17 rows"),
    ("1/11/111", "expected 17 rows"),
    (START2.replace("1111/", "111/", 1), "row d has 4 holes"),
    (START2.replace("1/11/", "x/11/", 1), "neither '.' nor a player"),
    (START2.replace("1/11/", "3/11/", 1), "neither '.' nor a player 1-2"),
    (START2.replace("1/11/", "./11/", 1), "player 1 has 9 pieces"),
    (START2.replace(" 1 0", " 3 0"), "player to move must be 1-2"),
    (START2.replace(" 1 0", " 1 1001"), "turns played must be 0-1000"),
    (START2 + " 4", "expected"),
])
def test_bad_positions_are_refused_with_a_reason(text: str, message: str) -> None:
    """Mutation caught: the row-length check removed (a short row then shifts the holes)."""
    with pytest.raises(InvalidPositionError, match=message) as info:
        ChineseCheckers(2).parse_state(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("move", "reason"), [
    ("d1e5", "write START-END"),
    ("z1-e5", "no hole 'z1'"),
    ("d1-e99", "no hole 'e99'"),
    ("d1-", "no hole ''"),
    ("e5-e6", "no piece on e5"),
    ("n1-m5", "player 2's"),
    ("d1-e9", "cannot be reached from d1"),
])
def test_illegal_moves_name_the_reason(move: str, reason: str) -> None:
    """Mutation caught: ``parse_action`` accepting any start-end pair of hole names."""
    game = ChineseCheckers(2)
    with pytest.raises(IllegalMoveError, match=reason) as info:
        game.parse_action(game.initial_state(), move)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("spec", ["chinese_checkers:players=5", "chinese_checkers:players=1",
                                  "chinese_checkers:players=7", "chinese_checkers:players=x",
                                  "chinese_checkers:max_moves=0", "chinese_checkers:seats=3"])
def test_unsupported_options_are_one_line_errors(spec: str) -> None:
    """Mutation caught: the constructor's check loosened to ``players < 2`` (then
    ``ChineseCheckers(5)`` fails with a KeyError, not a GameError)."""
    with pytest.raises(InvalidLimitError) as info:
        get_game(spec)
    assert "\n" not in str(info.value)
    with pytest.raises(GameError):
        ChineseCheckers(5)


def test_specs() -> None:
    game = get_game("chinese_checkers:players=4,max_moves=300")
    assert (game.num_players, game.max_moves, game.spec) == (
        4, 300, "chinese_checkers:players=4,max_moves=300")
    assert get_game("chinese_checkers").spec == "chinese_checkers"


PERFT = {2: (14, 196, 4760), 3: (14, 196, 2744), 4: (14, 199, 2786), 6: (14, 199, 2828)}


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_perft_pinned(players: int) -> None:
    """Whole-move perft from the start at depths 1-3, the counts OpenSpiel's whole moves give
    (``perft_whole_moves``, checked live below). Mutation caught: a jump allowed over an
    empty hole (``if occ & over`` dropped)."""
    game = ChineseCheckers(players)
    perft = game.perft()
    assert perft is not None
    assert tuple(perft.count(game.initial_state(), d, None) for d in (1, 2, 3)) == PERFT[players]


@needs_openspiel
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_perft_against_openspiel(players: int) -> None:
    from referees.chinese_checkers_openspiel import load, perft_whole_moves

    os_state = load(players).new_initial_state()
    assert tuple(perft_whole_moves(os_state, d) for d in (1, 2, 3)) == PERFT[players]


@needs_openspiel
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_whole_moves_agree_with_openspiel_quick(players: int) -> None:
    """30 random games a player count (half forward games that end with a winner, half
    uniform games cut at 150 turns): at every turn the same whole moves and the same board,
    at the end the same turn and winner. ``benchmarks/chinese_checkers_openspiel.py`` runs
    1,000 games a count. Mutation caught: ``to_actions`` never adding the pass 726 (the
    next move then continues OpenSpiel's chain: boards differ)."""
    from referees.chinese_checkers_openspiel import compare_games

    stats = compare_games(players, 30, seed=players, max_moves=150)
    assert stats["games"] == 30 and stats["wins"] + stats["limit"] == 30
    assert stats["chains"] > 0


def test_the_drawing_marks_every_hole_for_two_clicks() -> None:
    """121 ``data-square`` holes, 20 pieces, the start's movable pieces ringed. Mutation
    caught: the holes drawn without their names."""
    game = ChineseCheckers(2)
    svg = game.render_svg(game.initial_state()) or ""
    assert svg.count("data-square=") == 121 and svg.count('class="piece') == 20
    assert 'data-square="e5"' in svg and 'data-square="q1"' in svg
    assert svg.count('stroke="#ffe066"') == 7  # c1-c3 and d1-d4 can move
    assert "data-square" not in (game.render_svg(game.initial_state(), interactive=False)
                                 or "x")
    assert "player 1 to move" in game.render(game.initial_state())


@pytest.mark.parametrize(("algorithm", "options"), [
    ("maxn", {"depth": 2}), ("paranoid", {"depth": 3}),
    ("mcts", {"iterations": 200, "playout_depth": 8})])
@pytest.mark.parametrize("players", [3, 4])
def test_every_n_player_search_plays_it(algorithm: str, options: dict[str, int],
                                        players: int) -> None:
    """Each search returns a legal move from the start and after a few moves (MCTS with
    playouts cut after 8 plies and scored by the evaluation); max^n at depth 1 picks the
    most forward move (the evaluation's argmax). Mutation caught: the evaluation's cache
    keyed on nothing (every player got the first player's value)."""
    game = ChineseCheckers(players)
    s = game.initial_state()
    for _ in range(players + 1):
        r = make_searcher(game, algorithm, seed=1, **options).search(s) \
            if algorithm == "mcts" else search(game, s, algorithm, Limit(depth=options["depth"]))
        assert r.action in game.actions(s)
        s = game.result(s, r.action)
    one = search(game, s, "maxn", Limit(depth=1))
    ordering = game.order_actions(s, game.actions(s))
    dist = game.goal_distance[s.player]
    best_gain = dist[ordering[0] // 121] - dist[ordering[0] % 121]
    assert dist[one.action // 121] - dist[one.action % 121] == best_gain


def test_maxn_pruning_and_brs_on_chinese_checkers_agree_with_their_definitions() -> None:
    """Chinese Checkers promises constant-sum values within +-1 (``GameType.constant_sum``,
    ``value_bounds``) and offers ``turn_passing``: max^n's pruning rules then return plain
    max^n's value and move on mid-game positions, and ``brs`` runs on three players.
    (A ``value_bounds`` narrowed to +-0.05 was NOT caught at this depth; the Rolit twin of
    this test, at depth 3, catches narrowed bounds.)"""
    import random as _random

    from gamesearch.games import get_game as _get_game
    from gamesearch.search import Limit, make_searcher

    game = _get_game("chinese_checkers:players=3")
    rng = _random.Random(3)
    for _ in range(4):
        s = game.initial_state()
        for _ in range(rng.randrange(10, 40)):
            s = game.result(s, rng.choice(list(game.actions(s))))
        plain = make_searcher(game, "maxn").search(s, Limit(depth=2))
        for opts in ({"shallow": True}, {"speculative": True},
                     {"shallow": True, "lastbranch": True, "speculative": True}):
            pruned = make_searcher(game, "maxn", **opts).search(s, Limit(depth=2))
            assert (pruned.action, pruned.value) == (plain.action, plain.value), opts
            assert pruned.nodes <= plain.nodes
        brs = make_searcher(game, "brs").search(s, Limit(depth=2))
        assert brs.action in game.actions(s)
