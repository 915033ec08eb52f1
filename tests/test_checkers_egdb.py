"""Checkers endgame databases: the index, the kernels against the plain build, verification,
the file format's one-line errors, and the move generator against pydraughts."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gamesearch.capabilities import EndgameValue
from gamesearch.games import get_game
from gamesearch.games.checkers import Checkers
from gamesearch.games.checkers import compiled as K
from gamesearch.games.checkers import egdb as E
from gamesearch.games.checkers.rules import EVAL_LIMIT, UNDECIDED_WIN, make_state
from gamesearch.search import Limit, search
from gamesearch.search.common import win_threshold
from gamesearch.search.retrograde import dependency_order, solve_plain
from gamesearch.tablefiles import TableFileError

#: Chinook's published position counts per piece count (Schaeffer et al.; the seed's
#: "443,748,401,247 positions" is their sum up to 8 pieces).
CHINOOK = {1: 120, 2: 6_972, 3: 261_224, 4: 7_092_774, 5: 148_688_232,
           6: 2_503_611_964, 7: 34_779_531_480, 8: 406_309_208_481}


def build(directory: Path, pieces: int) -> E.CheckersEndgameDatabase:
    db = E.CheckersEndgameDatabase(directory)
    keys = db.slices(pieces)
    for key in dependency_order(keys, {k: db.dependencies(k) for k in keys}):
        db.build_slice(key)
    db.mark_complete(pieces)
    return db


@pytest.fixture(scope="module")
def db3(tmp_path_factory: pytest.TempPathFactory) -> E.CheckersEndgameDatabase:
    return build(tmp_path_factory.mktemp("egdb3"), 3)


def test_counts_are_chinooks() -> None:
    counts = E.count_positions(8)
    assert counts == CHINOOK
    assert sum(counts.values()) == 443_748_401_247


def test_the_index_is_perfect() -> None:
    """The slices' sizes add up to the counts (no holes, no overlaps), and rank/unrank are
    inverse on samples of every 3-piece slice and some larger ones."""
    db = E.CheckersEndgameDatabase("/nonexistent")
    for pieces in (1, 2, 3, 4):
        assert sum(db.half_size(k) for k in E.all_keys(pieces)) == CHINOOK[pieces]
    rng = random.Random(1)
    keys = E.all_keys(3) + rng.sample(E.all_keys(5), 40)
    for key in keys:
        n = db.half_size(key)
        offsets = db.offsets(key)
        for i in rng.sample(range(n), min(n, 30)) if n else []:
            bm, bk, wm, wk = K.unrank(i, *key[:4], key[4], key[5], offsets)
            assert K.position_key(bm, bk, wm, wk) == key
            assert len({bm, bk, wm, wk} - {0}) == len([x for x in (bm, bk, wm, wk) if x])
            assert (bm | bk | wm | wk) == bm + bk + wm + wk  # disjoint
            assert K.rank(bm, bk, wm, wk, key[1], key[3], key[4], key[5], offsets) == i


# ----- the move generator against pydraughts ---------------------------------------------------


def _fen(bm: int, bk: int, wm: int, wk: int, stm: int) -> str:
    def side(men: int, kings: int) -> str:
        squares = [(s + 1, "") for s in range(32) if men >> s & 1]
        squares += [(s + 1, "K") for s in range(32) if kings >> s & 1]
        return ",".join(f"{k}{s}" for s, k in sorted(squares))

    return f"{'BW'[stm]}:W{side(wm, wk)}:B{side(bm, bk)}"


def _parse(fen: str) -> tuple[int, int, int, int]:
    boards = {"B": [0, 0], "W": [0, 0]}
    for part in fen.split(":")[1:]:
        colour, squares = part[0], part[1:]
        for item in filter(None, squares.split(",")):
            king = item.startswith("K")
            boards[colour][king] |= 1 << (int(item.lstrip("K")) - 1)
    return boards["B"][0], boards["B"][1], boards["W"][0], boards["W"][1]


def test_successors_agree_with_pydraughts() -> None:
    draughts = pytest.importorskip("draughts", reason="pydraughts (dev extra) checks moves")
    rng = random.Random(7)
    out = np.empty((K.MAX_MOVES, 4), dtype=np.int64)
    keys = [k for p in (2, 3, 4, 5) for k in E.all_keys(p)]
    db = E.CheckersEndgameDatabase("/nonexistent")
    checked = captures = 0
    while checked < 400:
        key = rng.choice(keys)
        n = db.half_size(key)
        if not n:
            continue
        position = K.unrank(rng.randrange(n), *key, db.offsets(key))
        stm = rng.randrange(2)
        k, capture = K.successors(*position, stm, out)
        mine = sorted(tuple(int(x) for x in row) for row in out[:k])
        board = draughts.Board(variant="english", fen=_fen(*position, stm))
        theirs = []
        for move in board.legal_moves():
            board.push(move)
            theirs.append(_parse(board.fen))
            board.pop()
        assert mine == sorted(theirs), _fen(*position, stm)
        checked += 1
        captures += capture
    assert captures > 20  # the sample holds captures, not only quiet moves


def test_perft_from_the_start_is_the_published_one() -> None:
    out = np.empty((K.MAX_MOVES, 4), dtype=np.int64)

    def perft(p: tuple[int, ...], stm: int, depth: int) -> int:
        n, _ = K.successors(*p, stm, out)
        if depth == 1:
            return n
        rows = [tuple(int(x) for x in r) for r in out[:n]]
        return sum(perft(r, 1 - stm, depth - 1) for r in rows)

    start = ((1 << 12) - 1, 0, ((1 << 12) - 1) << 20, 0)
    assert [perft(start, 0, d) for d in range(1, 6)] == [7, 49, 302, 1469, 7361]


# ----- the kernels against the plain build -----------------------------------------------------


def test_numba_build_equals_the_plain_build(db3: E.CheckersEndgameDatabase) -> None:
    """Every position of up to 2 pieces and of two 3-piece materials (a man, or a king,
    against two kings): the generic plain retrograde analysis (forward, by levels, one
    material at a time, no index) against the compiled counting kernel (slices, mirror
    images, the index), code for code."""
    materials = [m for p in (1, 2) for m in
                 {k[:4] for k in E.all_keys(p)}] + [(0, 1, 0, 2), (1, 0, 0, 2)]
    materials.sort(key=lambda m: (sum(m), m[0] + m[2]))  # crowned and captured first
    plain: dict[E.Position, int] = {}
    for material in materials:
        def known(q: E.Position, material: E.Material = material) -> int | None:
            m = tuple(K.popcount(x) for x in q[:4])
            return None if m == material else plain[q]

        plain.update(solve_plain(list(E.material_positions(material)), E.plain_successors,
                                 known))
    assert len(plain) > 20_000
    wrong = [p for p, code in plain.items() if db3.probe_code(*p) != code]
    assert wrong == []
    values = {E.decode(c).value for c in plain.values()}
    assert values == {1, -1, 0}


def test_a_known_value(db3: E.CheckersEndgameDatabase) -> None:
    # a lone king against a lone king draws
    assert db3.probe((0, 1 << 0, 0, 1 << 31, 0)) == EndgameValue(0, None)
    # White to move with no piece: lost at once; Black to move wins in one ply.
    assert db3.probe((0, 1, 0, 0, 1)) == EndgameValue(-1, 0)
    assert db3.probe((0, 1, 0, 0, 0)) == EndgameValue(1, 1)
    # two kings against one (Black to move) win
    result = db3.probe((0, 0b11, 0, 1 << 31, 0))
    assert result is not None and result.value == 1 and result.plies and result.plies > 5
    assert db3.probe((0, 0b111, 0, 1 << 31, 0)) is None  # 4 pieces: not in a 3-piece db


def test_value_counts_from_the_files(db3: E.CheckersEndgameDatabase) -> None:
    """The per-slice counts read from the packed value files (what ``benchmarks/
    checkers_egdb.py --sections table`` prints) equal those of the decoded codes, slice by
    slice, and the sums of docs/results/checkers-egdb.md's table (from the builds' reports) for two
    materials."""
    by_material: dict[str, list[int]] = {}
    for key in db3.slices(3):
        counts = db3.slice_value_counts(key)
        assert counts == E.value_counts(db3.load_codes(key)), key
        assert sum(counts.values()) == db3.positions(key)
        row = by_material.setdefault(E.slice_name(key).split("-")[0], [0, 0, 0])
        for i, word in enumerate(("wins", "losses", "draws")):
            row[i] += counts[word]
    assert by_material["b01w01"] == [460, 216, 1_308]
    assert by_material["b02w01"] == [15_258, 13_018, 1_484]
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 4, 5, 1001):  # (lengths that leave padding in the last byte)
        codes = rng.integers(0, 6, n).astype(np.uint16)
        assert E.packed_value_counts(E.pack_wld(codes), n) == E.value_counts(codes)


# ----- verification and damaged folders --------------------------------------------------------


def test_verify_passes_and_catches_a_wrong_value(tmp_path: Path) -> None:
    db = build(tmp_path, 2)
    keys = db.slices(2)
    assert all(db.verify_slice(k)[1] == 0 for k in keys)
    key = (0, 1, 0, 1, -1, -1)
    codes = db.load_codes(key).copy()
    i = int(np.flatnonzero(codes)[5])
    codes[i] += 2  # a distance two plies off: the checksum is fine, the values are not
    db.write_slice(key, codes)
    assert db.verify_slice(key)[1] >= 1
    codes[i] = 0  # a win or loss turned into a draw
    db.write_slice(key, codes)
    assert db.verify_slice(key)[1] >= 1


def test_damaged_partial_missing_and_foreign_files(tmp_path: Path) -> None:
    db = build(tmp_path / "a", 2)
    key = (0, 1, 0, 1, -1, -1)
    position = (0, 1, 0, 1 << 31, 0)
    assert db.probe(position) is not None
    wld = db.path(key, "wld")
    data = bytearray(wld.read_bytes())
    data[-1] ^= 0xFF
    wld.write_bytes(bytes(data))
    with pytest.raises(TableFileError, match="checksum mismatch"):
        E.CheckersEndgameDatabase(tmp_path / "a").probe(position)
    wld.write_bytes(bytes(data[:-3]))
    with pytest.raises(TableFileError, match="partial"):
        E.CheckersEndgameDatabase(tmp_path / "a").probe(position)
    wld.unlink()
    with pytest.raises(TableFileError, match="missing"):
        E.CheckersEndgameDatabase(tmp_path / "a").probe(position)
    with pytest.raises(TableFileError, match="no checkers endgame database"):
        E.CheckersEndgameDatabase(tmp_path / "empty").probe(position)
    marker = db.directory / "egdb.json"
    marker.write_text(marker.read_text().replace('"index_version": 1', '"index_version": 0'))
    with pytest.raises(TableFileError, match="index version 0"):
        E.CheckersEndgameDatabase(tmp_path / "a").probe(position)
    assert not E.CheckersEndgameDatabase(tmp_path / "a").is_built(key)


# ----- independent forward search, and the engine against the database's defence ------------


def test_the_exact_solver_agrees_on_short_wins(db3: E.CheckersEndgameDatabase) -> None:
    """The library's exact solver (search/solve.py, on the rules alone, no database) gives
    the database's value and distance on random won and lost positions of up to 3 pieces
    whose end is at most 5 plies away (benchmarks/checkers_egdb.py: 1,000 of up to 4)."""
    from gamesearch.games import get_game
    from gamesearch.search.solve import Solver

    game = get_game("checkers")
    solver = Solver(game, tt=1 << 16)
    step = solver.engine.win_step
    rng = random.Random(5)
    keys = [k for p in (2, 3) for k in E.all_keys(p) if db3.half_size(k)]
    seen: dict[int, int] = {}
    while sum(seen.values()) < 40:
        key = rng.choice(keys)
        position = (*K.unrank(rng.randrange(db3.half_size(key)), *key, db3.offsets(key)),
                    rng.randrange(2))
        value = db3.probe(position)
        if value is None or value.plies is None or not 0 < value.plies <= 5:
            continue
        result = solver.solve(game.parse_state(_fen(*position)), best_moves=False, within=5)
        assert result.value == value.value * (game.max_utility - step * value.plies)
        seen[value.plies] = seen.get(value.plies, 0) + 1
    assert len(seen) >= 4  # wins and losses at several distances


def test_a_value_found_under_a_repetition_is_not_reused_without_it() -> None:
    """The graph history interaction: a reused solver gave wrong values once its table held
    values found where the repetition rule had ended the game. Black to move in
    ``B:WK2,K18:BK11`` loses in 6 plies (the database). After 11-16 18-15, with a history
    where each position Black can reach occurred twice, every Black move repeats one a
    third time: a draw. Solving that first, then the first position without the history,
    must still give the loss in 6: the key holds what the draw rules read (Checkers.key),
    so the draw stored for 11-16 18-15 with that history is not read where it has none
    (with the pieces alone as the key, the reused solver finds no loss within 9 plies)."""
    from gamesearch.games import get_game
    from gamesearch.games.checkers.rules import make_state, position_key
    from gamesearch.search.solve import Solver

    game = get_game("checkers")
    plain = game.parse_state("B:WK2,K18:BK11")
    after = game.result(plain, game.parse_action(plain, "11-16"))
    after = game.result(after, game.parse_action(after, "18-15"))
    history = tuple(position_key(c.black, c.white, c.kings, c.side)
                    for c in (game.result(after, move) for move in game.actions(after))
                    for _ in range(2))
    held = make_state(after.black, after.white, after.kings, after.side, len(history),
                      history)
    assert all(game.termination(game.result(held, move)) == "threefold repetition"
               for move in game.actions(held))
    solver = Solver(game, tt=1 << 16)
    assert solver.solve(held, best_moves=False).value == 0  # every move draws
    assert solver.solve(held, best_moves=False, within=9).value is None
    loss = -(game.max_utility - 6 * solver.engine.win_step)
    # the same solver, reused (a proof within 9 plies: the full solve takes millions of
    # nodes without transpositions across histories)
    assert solver.solve(plain, best_moves=False, within=9).value == loss
    assert Solver(game, tt=1 << 16).solve(plain, best_moves=False, within=9).value == loss


#: "First Position" (Sturges; Lasker, "Chess and Checkers: the Way to Mastership", diagram
#: 93): White kings on 19 and 23, Black king on 28 and man on 12, White to move and win;
#: with Black to move, a draw.
FIRST_POSITION = "W:WK19,K23:BK28,12"


def build_closure(directory: Path, materials: set[tuple[int, int, int, int]],
                  pieces: int) -> E.CheckersEndgameDatabase:
    """The slices of ``materials`` (with ``pieces`` pieces) and every slice a game from
    them reaches (the dependencies' closure), built in ``directory`` and marked complete up
    to ``pieces`` (every slice a game from there reaches is built)."""
    db = E.CheckersEndgameDatabase(directory)
    wanted = {k for k in E.all_keys(pieces) if k[:4] in materials and K.is_canonical(*k)}
    todo = set(wanted)
    while todo:
        todo = {d for k in todo for d in db.dependencies(k)} - wanted
        wanted |= todo
    keys = sorted(k for k in wanted if db.half_size(k))
    for key in dependency_order(keys, {k: db.dependencies(k) for k in keys}):
        db.build_slice(key)
    db.mark_complete(pieces)
    return db


@pytest.fixture(scope="module")
def first_db(tmp_path_factory: pytest.TempPathFactory) -> E.CheckersEndgameDatabase:
    """The slices First Position (Black man and king, White two kings) reaches."""
    return build_closure(tmp_path_factory.mktemp("first"), {(1, 1, 0, 2)}, 4)


def convert(game: Any, state: Any, depth: int = 2) -> tuple[Any, int]:
    """The engine (``id`` at ``depth``, probing the game's database) against the database's
    best defence (the slowest loss, by the database's own values), to the end of the game
    under the game's rules: (the final state, plies played)."""
    database = game.endgame_database()
    engine = game.to_move(state)

    def slowness(move: Any) -> int:  # the defender's choice: no win for the engine, or
        found = database.value(game.result(state, move))  # the slowest one
        return 10**6 if found is None or found.value <= 0 else int(found.plies)

    plies = 0
    while not game.is_terminal(state):
        if game.to_move(state) == engine:
            move = search(game, state, "id", Limit(depth=depth)).action
        else:
            move = max(game.actions(state), key=slowness)
        state = game.result(state, move)
        plies += 1
    return state, plies


def test_first_position_is_won_and_the_engine_wins_it(first_db: E.CheckersEndgameDatabase) -> None:
    db = first_db
    game = get_game("checkers", egdb=str(db.root))
    state = game.parse_state(FIRST_POSITION)
    start = db.probe(state)
    assert start is not None and start.value == 1 and start.plies is not None
    assert start.plies == 61  # a long manoeuvre, beyond the engine's own horizon
    # "If Black has the move the ending is a draw" (Lasker)
    assert db.probe(game.parse_state("B" + FIRST_POSITION[1:])) == EndgameValue(0, None)
    state, plies = convert(game, state)
    assert game.termination(state) == "Black has no move"
    assert plies == start.plies  # the fastest win against the slowest defence


def test_a_win_longer_than_the_plies_the_draw_rule_leaves_is_undecided(
        first_db: E.CheckersEndgameDatabase) -> None:
    """First Position is a win in 61 plies: under a move limit that leaves fewer, the
    engine's probe leaves it undecided and the search does not score it as won (it may
    still prefer it: the evaluation weighs such a win above any heuristic value); with
    enough plies left it is a win. The database's own value does not change."""
    folder = str(first_db.root)
    for draw_plies, quiet, certain in ((80, 0, True), (80, 18, True), (80, 19, False),
                                       (62, 0, True), (61, 0, False), (40, 0, False)):
        game = get_game("checkers", egdb=folder, draw_plies=draw_plies)
        fen = game.parse_state(FIRST_POSITION)
        state = make_state(fen.black, fen.white, fen.kings, fen.side, quiet=quiet,
                           draw_plies=draw_plies)
        database = game.endgame_database()
        assert database.value(state) == EndgameValue(1, 61)
        assert database.probe(state) == (EndgameValue(1, 61) if certain else None), \
            (draw_plies, quiet)
        # a draw is a draw under any limit
        drawn = game.parse_state("B" + FIRST_POSITION[1:])
        assert database.probe(drawn) == EndgameValue(0, None)
    threshold = win_threshold(Checkers.max_utility)
    for draw_plies, won in ((80, True), (60, False)):
        game = get_game("checkers", egdb=folder, draw_plies=draw_plies)
        value = search(game, game.parse_state(FIRST_POSITION), "id", Limit(depth=2)).value
        assert (value > threshold) is won, (draw_plies, value)
        if not won:  # undecided, but above every heuristic value (the database's hint)
            assert EVAL_LIMIT < value <= UNDECIDED_WIN


def test_conversion_within_openspiel_draw_rule(first_db: E.CheckersEndgameDatabase) -> None:
    """Under OpenSpiel's rule (40 plies without a capture: ``draw_plies=40,
    draw_count=captures``) First Position's win in 61 plies is undecided at the start, yet
    the engine converts it in exactly 61 plies: its first capture comes at ply 35, within
    the limit, and from there the database's wins are certain."""
    game = get_game("checkers", egdb=str(first_db.root), draw_plies=40, draw_count="captures")
    state = game.parse_state(FIRST_POSITION)
    assert game.endgame_database().probe(state) is None
    state, plies = convert(game, state)
    assert game.termination(state) == "Black has no move"
    assert plies == 61


#: "Second Position" (Lasker, "Chess and Checkers: the Way to Mastership", 1918, the second
#: of "the five fundamental positions", diagram 95, "White to Move and Win"; Project
#: Gutenberg ebook 4913): White men on 27 and 30 and a king on 22, Black men on 20 and 21
#: and a king on 9. With Black to move it is a draw ("if it were Red to play the position
#: would be drawn", Wyllie's draughts site, "Second Position").
SECOND_POSITION = "W:W27,30,K22:B20,21,K9"
#: The folder of a database built up to 6 pieces (Second Position needs 6-piece slices;
#: building them takes far longer than a test may).
EGDB6 = os.environ.get("GAMESEARCH_EGDB6", "")


@pytest.mark.skipif(not EGDB6, reason="SECOND POSITION NOT TESTED: it needs the 6-piece "
                    "database; set GAMESEARCH_EGDB6 to the folder of one (gamesearch egdb "
                    "build checkers --pieces 6 --dir DIR)")
def test_second_position_is_won_and_the_engine_wins_it() -> None:
    """The database says White wins (in 93 plies) and that Black to move draws; the engine
    (``id`` at depth 2, probing the database) wins it against the database's slowest
    defence under the game's move limit (80 plies without a capture or a man's move: the
    win is longer than that, so the engine's probe leaves it undecided until the men's
    moves and the captures on the way make it certain)."""
    game = get_game("checkers", egdb=EGDB6)
    database = game.endgame_database()
    assert database.pieces >= 6
    state = game.parse_state(SECOND_POSITION)
    assert database.value(state) == EndgameValue(1, 93)
    assert database.probe(state) is None  # 93 plies: more than the 80 the rule leaves
    assert database.value(game.parse_state("B" + SECOND_POSITION[1:])) == EndgameValue(0, None)
    state, plies = convert(game, state)
    assert game.termination(state) == "Black has no move"
    assert 93 <= plies <= 100, plies  # (the fastest win is 93 plies)


def test_the_exact_solver_agrees_with_the_5_piece_database_sample() -> None:
    """The exact solver (rules only, a proof within 7 plies) on a seeded sample of the
    5-piece database (tests/data/checkers/solver_sample.txt: 40 positions won or lost within
    7 plies, 10 drawn; benchmarks/checkers_egdb.py runs 1,000): the same win or loss and
    distance, and no decision within 7 plies for the draws."""
    from gamesearch.games import get_game
    from gamesearch.search.solve import Solver

    game = get_game("checkers")
    solver = Solver(game, tt=1 << 18)
    step = solver.engine.win_step
    lines = (Path(__file__).parent / "data" / "checkers" / "solver_sample.txt").read_text()
    rows = [line.split() for line in lines.splitlines() if not line.startswith("#")]
    assert len(rows) == 50
    for fen, value, plies in rows:
        result = solver.solve(game.parse_state(fen), best_moves=False, within=7)
        want = None if value == "0" else int(value) * (game.max_utility - step * int(plies))
        assert result.value == want, fen
