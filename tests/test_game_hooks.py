"""The capabilities the interfaces ask (``gamesearch.capabilities``): what a game without
them gets, and that the command line, the agents and the arena use them for any game that
has them.

The second part registers tic-tac-toe with every interface capability supplied by the test
(a one-position book, a recording "fast" solver, a builder, arena openings, a default
opponent): nothing in the generic code may know the game by name.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gamesearch.agents import SolverAgent, make_agent
from gamesearch.arena import Opening, default_openings
from gamesearch.capabilities import MatchHooks
from gamesearch.errors import UnsupportedGameError
from gamesearch.game import BookEntry
from gamesearch.games import GAMES, get_game, register
from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.tictactoe import TicTacToe
from gamesearch.interfaces.cli import main
from gamesearch.search.solve import solve

NAME = "tictactoe-hooks"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


# ----- a game without the hooks ----------------------------------------------------------
def test_the_defaults_say_absent() -> None:
    game = TicTacToe()
    assert game.match_hooks() is None
    assert game.opening_book(None) is None and game.opening_book("off") is None
    with pytest.raises(UnsupportedGameError, match="tictactoe has no opening book"):
        game.opening_book("on")
    with pytest.raises(UnsupportedGameError, match="no opening book"):
        game.opening_book("some/book.bin")
    assert game.book_builder() is None
    assert game.fast_solver() is None
    assert default_openings(game) == []


def test_the_commands_refuse_what_a_game_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("book", "tictactoe")[0] == 2
    assert "tictactoe has no opening book builder" in capsys.readouterr().err
    assert run("book", "tictactoe", "--info", "--out", "-")[0] == 2
    assert "no opening book" in capsys.readouterr().err
    assert run("solve", "tictactoe", "--position", "x...o....", "--book")[0] == 2
    assert "no opening book" in capsys.readouterr().err
    assert run("play", "tictactoe", "--first", "solver:book=x.bin", "--second", "random")[0] == 2
    assert "no opening book" in capsys.readouterr().err
    code, out = run("analyze", "tictactoe", "--position", "x...o....")  # no book: a search
    assert code == 0 and "opening book" not in out


def test_connect4_supplies_them() -> None:
    from gamesearch.games.connect4 import book, compiled

    game = ConnectFour()
    assert game.match_hooks() == MatchHooks(default_opponent="solver")
    assert game.opening_book(None) is book.default_book()
    assert game.opening_book("off") is None
    assert game.book_builder() is book.build_book
    assert game.fast_solver() is (compiled.SOLVER if compiled.available() else None)
    # the compiled solver lists and probes best moves in the natural order only
    assert ConnectFour(order="center").fast_solver() is None
    assert default_openings(game) == []


# ----- a game with all of them, supplied by the test ---------------------------------------
class OneEntryBook:
    """The initial position, answered with the centre (square 5)."""

    def __init__(self, game: TicTacToe) -> None:
        self.start = game.initial_state()
        self.meta: dict[str, Any] = {"game": NAME}

    def lookup(self, state: Any) -> BookEntry | None:
        return BookEntry(0, 4, True) if state == self.start else None

    def __len__(self) -> int:
        return 1


class RecordingSolver:
    """A "fast" solver: the Python solver, recording the positions it was asked (in every
    instance: each command builds its own game)."""

    asked: ClassVar[list[Any]] = []

    def __init__(self, game: TicTacToe) -> None:
        self.game = game

    def solve(self, state: Any, *, weak: bool = False, best_moves: bool = False,
              keep_table: bool = False, max_nodes: int | None = None) -> dict[str, Any]:
        self.asked.append(state)
        r = solve(self.game, state, weak=weak, best_moves=best_moves)
        return {"value": r.value, "move": r.action, "moves": r.best_actions,
                "nodes": r.nodes, "seconds": r.seconds}


class HookedTicTacToe(TicTacToe):
    name = NAME
    built: ClassVar[list[tuple[int, str]]] = []

    def __init__(self) -> None:
        super().__init__()
        self.solver = RecordingSolver(self)

    def opening_book(self, spec: str | None = None) -> OneEntryBook | None:
        return None if spec == "off" else OneEntryBook(self)

    def book_builder(self) -> Any:
        def build(plies: int, out: str, **options: Any) -> OneEntryBook:
            HookedTicTacToe.built.append((plies, out))
            return OneEntryBook(self)
        return build

    def fast_solver(self) -> RecordingSolver:
        return self.solver

    def match_hooks(self) -> MatchHooks:
        return MatchHooks(default_opponent="random:seed=3", arena_openings=self.openings)

    def openings(self) -> Sequence[str]:
        return ["# two openings", "5 1", "", "1"]


@pytest.fixture
def hooked() -> Iterator[None]:
    # registered from outside the library, as a user's program would (tests/ is on the path)
    register(NAME, f"{__name__}:HookedTicTacToe", "test only")
    try:
        yield
    finally:
        GAMES.pop(NAME, None)


@pytest.mark.usefixtures("hooked")
def test_the_commands_ask_the_game(tmp_path: Path) -> None:
    code, out = run("analyze", NAME)
    assert code == 0 and "best move 5" in out and "opening book" in out
    code, out = run("solve", NAME, "--position", ".........", "--book")
    assert code == 0 and "(book)" in out
    code, out = run("book", NAME, "--plies", "3", "--out", str(tmp_path / "b.bin"))
    assert code == 0 and HookedTicTacToe.built == [(3, str(tmp_path / "b.bin"))]
    code, out = run("book", NAME, "--info", "--out", "-")
    assert code == 0 and '"positions": 1' in out
    code, out = run("play", NAME, "--first", "alphabeta", "--time", "0.1")
    assert code == 0 and "random:seed=3 (player 2) plays" in out


@pytest.mark.usefixtures("hooked")
def test_solve_uses_the_fast_solver_unless_pure() -> None:
    RecordingSolver.asked.clear()
    code, out = run("solve", NAME, "--position", "x...o....")
    assert code == 0 and "value      0" in out
    assert RecordingSolver.asked == [get_game(NAME).parse_state("x...o....")]
    code, pure = run("solve", NAME, "--position", "x...o....", "--pure")
    assert code == 0 and len(RecordingSolver.asked) == 1
    assert pure.split()[:4] == out.split()[:4]  # position, value, best move


def test_the_solver_agent_and_the_arena_ask_the_game() -> None:
    RecordingSolver.asked.clear()
    game = HookedTicTacToe()
    agent = make_agent(game, "solver:time=5")
    assert isinstance(agent, SolverAgent)
    start = game.initial_state()
    assert agent.choose(game, start) == 4 and agent.solved is not None
    assert agent.solved["book"] and game.solver.asked == []
    state = game.result(game.result(start, 4), 0)
    agent.choose(game, state)
    assert game.solver.asked == [state] and not agent.solved.get("book")
    assert default_openings(game) == [Opening(None, ("5", "1")), Opening(None, ("1",))]
