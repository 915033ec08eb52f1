"""The checkers engine: the library's iterative-deepening alpha-beta (``id``) on checkers's
capabilities -- its evaluation, move ordering and captures as tactics -- and the
``endgame_database()`` hook it probes; play in the terminal and in the arena."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

from gamesearch.capabilities import EndgameValue
from gamesearch.errors import UnsupportedGameError
from gamesearch.games.checkers import Checkers, CheckersState
from gamesearch.search import Limit, search
from gamesearch.search.alphabeta import AlphaBeta

GAME = Checkers()


def mirrored(s: CheckersState) -> CheckersState:
    """The position turned round with the colours swapped (square i <-> 33 - i)."""
    def flip(b: int) -> int:
        return int(f"{b:032b}"[::-1], 2)

    from gamesearch.games.checkers.rules import make_state

    return make_state(flip(s.white), flip(s.black), flip(s.kings), s.side ^ 1)


def random_positions(n: int, seed: int) -> list[CheckersState]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = GAME.initial_state()
        for _ in range(rng.randrange(4, 70)):
            if GAME.is_terminal(s):
                break
            s = GAME.result(s, rng.choice(s.moves))
        if not GAME.is_terminal(s):
            out.append(s)
    return out


def test_evaluation_is_symmetric_and_inside_the_win_threshold() -> None:
    evaluate = GAME.evaluation().evaluate  # type: ignore[union-attr]
    for s in random_positions(60, 1):
        m = mirrored(s)
        assert set(GAME.legal_action_strings(m)) == {
            "-x"["x" in t].join(str(33 - int(q)) for q in t.replace("x", "-").split("-"))
            for t in GAME.legal_action_strings(s)}
        assert evaluate(s, 0) == -evaluate(m, 0) == evaluate(m, 1)
        assert abs(evaluate(s, 0)) < GAME.max_utility / 2


def test_engine_agrees_with_plain_alphabeta_at_fixed_depth() -> None:
    """Without quiescence and extensions the engine's value is the depth-3 minimax value."""
    for s in random_positions(12, 2):
        plain = AlphaBeta(GAME).search(s, Limit(depth=3))
        engine = search(GAME, s, "id:quiescence=0,check_extension=0", Limit(depth=3))
        assert engine.value == plain.value


class FakeDatabase:
    """A database that holds one position (a loss for its side to move, ``plies`` away) and
    counts its probes."""

    pieces = 4

    def __init__(self, held: CheckersState, plies: int) -> None:
        self.key = GAME.key(held)
        self.plies = plies
        self.probes = 0

    def probe(self, state: Any) -> EndgameValue | None:
        self.probes += 1
        return EndgameValue(-1, self.plies) if GAME.key(state) == self.key else None


def test_the_engine_probes_the_endgame_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child the database holds as lost for the opponent in 5 plies is a win in 6 at the
    root: the engine plays it, with the value of a win 6 plies away, even at depth 1."""
    root = GAME.from_fen("B:WK28,K32:BK1,K3")
    target = GAME.parse_action(root, "3-7")
    held = GAME.result(root, target)
    fake = FakeDatabase(held, 5)
    monkeypatch.setattr(Checkers, "endgame_database", lambda self: fake)
    result = search(GAME, root, "id", Limit(depth=1))
    step = GAME.max_utility / 1000
    assert result.action == target
    assert result.value == GAME.max_utility - 6 * step
    assert fake.probes >= len(root.moves)
    for spec in ("id:quiescence=0", "negamax", "id:quiescence=0,tt=0"):  # probed in negamax
        found = search(GAME, root, spec, Limit(depth=2))
        assert (found.action, found.value) == (target, GAME.max_utility - 6 * step), spec
    fake.probes = 0
    off = search(GAME, root, "id:endgame=0", Limit(depth=1))
    assert fake.probes == 0 and off.value < GAME.max_utility / 2


def test_asking_for_a_missing_database_is_a_clear_error() -> None:
    with pytest.raises(UnsupportedGameError, match="no endgame database"):
        search(GAME, GAME.initial_state(), "id:endgame=1", Limit(depth=1))


def test_engine_converts_three_kings_against_one_within_the_draw_rule() -> None:
    """Against the engine's own defence (the lone king in its double corner). Two kings
    against one, a win too, takes a manoeuvre deeper than the engine sees: the endgame
    database's work."""
    s = GAME.from_fen("B:WK32:BK14,K19,K10")
    for _ in range(GAME.draw_plies):
        if GAME.is_terminal(s):
            break
        s = GAME.result(s, search(GAME, s, "id", Limit(depth=5)).action)
    assert GAME.termination(s) == "White has no move"


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "gamesearch", *argv], input=stdin,
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_play_in_the_terminal_refuses_an_illegal_move() -> None:
    code, out, err = run("play", "checkers", "--second", "id", "--time", "0.1",
                         stdin="9-18\n11-15\nq\n")
    assert code == 0, err
    assert "illegal move '9-18': not a legal move here; legal moves: 9-13 9-14" in out
    assert "plays 11-15" in out and "bye" in out


@pytest.mark.parametrize("argv, needle", [
    (["perft", "checkers", "--position", "B:W21:B33"], "outside 1-32"),
    (["perft", "checkers", "--position", "nonsense"], "checkers FEN"),
])
def test_bad_positions_are_one_line_errors(argv: list[str], needle: str) -> None:
    code, _out, err = run(*argv, "--depth", "1")
    assert code == 2 and needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_tournament_of_checkers_agents(tmp_path: Any) -> None:
    code, out, err = run("tournament", "checkers", "--agents", "id:depth=2", "random:seed=1",
                         "--games-per-pair", "2", "--db", str(tmp_path / "t.sqlite"),
                         "--quiet")
    assert code == 0, err
    assert "2/2 games" in out and "id:depth=2" in out
