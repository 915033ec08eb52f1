"""Games with options and games from outside the library (issue 20, items 3, 4 and 14).

A game is named by a spec everywhere (``pig:goal=50``, ``py:outside_game:Subtraction:pile=7``,
an entry point's name); its options are typed and ranged by the game's ``options``; the same
game always has the same canonical spec; a positions-file line is split by the game. The
outside game is ``tests/outside_game.py`` (``tests/`` is on the path under pytest).
"""

from __future__ import annotations

import inspect
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamesearch.arena import RunOptions, TournamentConfig, parse_agents, run_tournament
from gamesearch.arena.runner import play_slot
from gamesearch.arena.schedule import parse_opening
from gamesearch.arena.store import Store
from gamesearch.errors import GameError
from gamesearch.games import GAMES, available_games, game_options, get_game, portable_spec, register
from gamesearch.interfaces.cli import main

TESTS = str(Path(__file__).resolve().parent)
OUTSIDE = "py:outside_game:Subtraction"


def run_inline(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def run(*argv: str, cwd: str | None = None, path: list[str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    """``python -m gamesearch`` in a fresh interpreter, with ``path`` as PYTHONPATH (``python
    -m`` puts the current folder on ``sys.path`` too: the case the rule is about)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if path:
        env["PYTHONPATH"] = os.pathsep.join(path)
    return subprocess.run([sys.executable, "-m", "gamesearch", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


# ----- the notation -----------------------------------------------------------------------
@pytest.mark.parametrize(("spec", "canonical"), [
    ("pig", "pig"),
    ("pig:goal=20", "pig"),                      # a default is left out
    ("PIG: sides=8 , goal=50", "pig:goal=50,sides=8"),  # case, spaces, declared order
    ("nim:heaps=1 3 5 7", "nim:heaps=1-3-5-7"),
    ("tictactoe:order=CENTER", "tictactoe:order=center"),
    (f"{OUTSIDE}:first=two,misere=yes,prize=2.5", f"{OUTSIDE}:misere=1,prize=2.5,first=two"),
    (f"{OUTSIDE}:prize=1.0,take=3", OUTSIDE),
])
def test_canonical_spec(spec: str, canonical: str) -> None:
    game = get_game(spec)
    assert game.spec == canonical
    assert get_game(game.spec).spec == canonical


def test_every_option_set_round_trips_and_takes_effect() -> None:
    for pile in (1, 7, 60):
        for take in (1, 4, 9):
            for misere in (False, True):
                for first in ("one", "two"):
                    spec = (f"{OUTSIDE}:first={first},take={take},pile={pile},"
                            f"misere={int(misere)},prize=0.5")
                    game = get_game(spec)
                    again = get_game(game.spec)
                    assert (again.pile, again.take, again.misere, again.first, again.prize) == (
                        pile, take, misere, first, 0.5)
                    state = again.initial_state()
                    assert state == (pile, 0 if first == "one" else 1)
                    assert list(again.actions(state)) == list(range(1, min(take, pile) + 1))
                    last = again.result((1, 0), 1)  # player 1 takes the last counter
                    assert list(again.returns(last)) == ([-0.5, 0.5] if misere else [0.5, -0.5])


def test_declared_defaults_are_the_games_own() -> None:
    """An option's declared default (which the canonical spec leaves out) is the default
    the game's class takes: else ``pig`` and ``pig:goal=<default>`` would differ."""
    checked = 0
    for name in GAMES:
        try:
            options = game_options(name)
            game = get_game(name)
        except ImportError:  # an extra not installed here
            continue
        parameters = inspect.signature(type(game)).parameters
        for option in options:
            if option.name in parameters:
                assert parameters[option.name].default == option.default, (name, option)
                checked += 1
            assert getattr(game, option.name, option.default) == option.default, (
                name, option.name)
        assert game.spec == name
    assert checked > 20


def test_python_options_still_pass_through() -> None:
    assert get_game("pig", goal=30).spec == "pig:goal=30"
    assert get_game("pig:goal=50", goal=30).spec == "pig:goal=30"  # Python's value wins
    assert get_game("nim", heaps=(2, 2)).spec == "nim:heaps=2-2"
    with pytest.raises(GameError, match=r"could not be built.*colour"):
        get_game("pig", colour="red")


@pytest.mark.parametrize(("spec", "fragments"), [
    ("pig:colour=red", ["unknown option 'colour'", "goal (1 to 1000, default 20)",
                        "sides (2 to 100, default 6)"]),
    ("pig:goal=0", ["game pig", "goal", "from 1 to 1000"]),
    ("pig:goal=2.5", ["goal", "whole number"]),
    ("pig:goal=nan", ["goal"]),
    ("pig:goal=10,goal=20", ["given twice"]),
    ("pig:goal", ["expected key=value"]),
    ("chess:depth=3", ["game chess", "takes none"]),
    ("tictactoe:order=random", ["order", "natural, center"]),
    ("nim:heaps=1-2-x", ["heaps", "like 3-4-5"]),
    (f"{OUTSIDE}:misere=maybe", ["misere", "true/false"]),
    (f"{OUTSIDE}:prize=100", ["prize", "at most 10"]),
    ("gomoku:size=9", ["unknown game 'gomoku'", "tictactoe"]),
    ("go:size=4", ["size", "from 5 to 19"]),
    ("go:playout=smart", ["playout", "patterns, captures, random"]),
    ("py:outside_game", ["expected py:MODULE:ATTR"]),
    ("py:outside_game:Nothing", ["Nothing", "never from the current directory"]),
    ("py:no_such_module_here:Game", ["no_such_module_here"]),
    ("py:outside_game:State", ["made a tuple, not a gamesearch Game"]),
    ("py:outside_game:GameOption", ["could not be built", "TypeError"]),
    ("py:outside_game:Subtraction:pile=0", ["pile", "from 1 to 60"]),
])
def test_bad_game_specs_are_clear_errors(spec: str, fragments: list[str]) -> None:
    with pytest.raises(GameError) as info:
        get_game(spec)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message
    code, _out = run_inline("analyze", spec, "--depth", "1")  # the CLI: one line, status 2
    assert code == 2


def test_list_shows_each_games_options() -> None:
    _code, out = run_inline("list", "--json")
    data = json.loads(out)
    assert data["game_options"]["pig"] == [
        {"name": "goal", "type": "int", "default": "20", "range": "1 to 1000",
         "help": "the score that wins", "choices": None},
        {"name": "sides", "type": "int", "default": "6", "range": "2 to 100",
         "help": "the faces of the die", "choices": None}]
    assert data["game_options"]["chess"] == []
    # a few values: each one, for a front end's choice (Chinese Checkers' seats)
    seats = {o["name"]: o for o in data["game_options"]["chinese_checkers"]}["players"]
    assert seats["choices"] == ["2", "3", "4", "6"]
    assert [o["name"] for o in data["game_options"]["nim"]] == ["heaps"]
    _code, out = run_inline("list")
    assert "goal=int" in out and "1 to 1000, default 20" in out
    assert [o.name for o in game_options(OUTSIDE)] == ["pile", "take", "misere", "prize",
                                                       "first"]


def test_every_command_takes_a_spec() -> None:
    code, out = run_inline("analyze", "nim:heaps=1-2-3", "--depth", "12", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "nim:heaps=1-2-3" and data["value"] < 0  # xor 0: lost
    code, out = run_inline("solve", f"{OUTSIDE}:pile=8,take=3", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == f"{OUTSIDE}:pile=8" and data["value"] < 0
    code, out = run_inline("solve", f"{OUTSIDE}:pile=9", "--json")
    assert code == 0 and json.loads(out)["value"] > 0 and json.loads(out)["move"] == "1"
    code, out = run_inline("trace", "nim:heaps=1-2")
    assert code == 0 and "nodes" in out
    code, out = run_inline("play", "pig:goal=3", "--agent", "random:seed=1",
                           "--agent", "random:seed=2", "--seed", "4")
    assert code == 0 and "game over" in out


# ----- positions files: the game splits a line ------------------------------------------
MATE_IN_ONE = "8/8/8/4nP2/1rQ5/k7/r7/K7 w - - 0 1"  # the only move, Qxa2, mates


def test_a_positions_file_line_is_split_by_the_game(tmp_path: Path) -> None:
    pytest.importorskip("chess")
    f = tmp_path / "fens.txt"
    f.write_text(f"# FEN, then the expected score\n{MATE_IN_ONE} 1\n"
                 f"{MATE_IN_ONE.rsplit(' ', 2)[0]}   win, an EPD without clocks\n"
                 "startpos moves f2f3 e5 g4 Qh4# 0 mated\n")
    code, out = run_inline("solve", "chess", "--file", str(f), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(rows) == 2  # the third is over: an error, the others solved
    assert [r["position"] for r in rows] == [MATE_IN_ONE, MATE_IN_ONE.rsplit(" ", 2)[0]]
    assert all(r["move"] == "c4a2" and r["value"] > 0 for r in rows)
    game = get_game("chess")
    assert game.split_position_line("startpos moves f2f3 e5 g4 Qh4# 0 mated") == (
        "startpos moves f2f3 e5 g4 Qh4#", "0 mated")
    assert game.split_position_line(f"{MATE_IN_ONE}\t1 # comment") == (MATE_IN_ONE,
                                                                        "1 # comment")
    nim = tmp_path / "nim.txt"
    nim.write_text("1 2 3\n1 2\n")  # heap sizes are separated by spaces
    code, out = run_inline("solve", "nim", "--file", str(nim), "--json")
    assert code == 0 and [json.loads(line)["value"] < 0 for line in out.splitlines()] == [
        True, False]


def test_an_opening_is_a_position_then_moves() -> None:
    pytest.importorskip("chess")
    game = get_game("chess")
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    opening = parse_opening(game, f"{start} e4 e5")
    assert opening.position == start and opening.moves == ("e2e4", "e7e5")
    assert parse_opening(game, start).moves == ()
    with pytest.raises(GameError, match="neither a move sequence"):
        parse_opening(game, f"{start} e4 e4")


# ----- outside games: module path, entry point, register ---------------------------------
def test_registered_outside_game_is_portable() -> None:
    register("subtraction-reg", "outside_game:Subtraction", "test only")
    try:
        game = get_game("subtraction-reg:pile=4,take=2")
        assert game.spec == "subtraction-reg:pile=4,take=2"
        assert portable_spec(game.spec) == f"{OUTSIDE}:pile=4,take=2"
        assert "subtraction-reg" in available_games()
    finally:
        GAMES.pop("subtraction-reg", None)
    assert portable_spec("pig:goal=5") == "pig:goal=5"
    assert portable_spec(f"{OUTSIDE}:pile=4") == f"{OUTSIDE}:pile=4"


@pytest.fixture
def entry_point_dir(tmp_path: Path) -> Iterator[str]:
    """A folder holding a fake installed distribution that declares the outside game as a
    ``gamesearch.games`` entry point (what ``pip install`` of a package with one writes)."""
    info = tmp_path / "site" / "outside_games-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: outside-games\n"
                                   "Version: 0.1\n")
    (info / "entry_points.txt").write_text("[gamesearch.games]\n"
                                           "subtraction = outside_game:Subtraction\n")
    yield str(tmp_path / "site")


def test_an_entry_point_game_registers_without_touching_the_library(
        entry_point_dir: str) -> None:
    proc = run("list", "--json", path=[entry_point_dir, TESTS])
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert "outside-games" in data["games"]["subtraction"]
    assert [o["name"] for o in data["game_options"]["subtraction"]][:2] == ["pile", "take"]
    proc = run("solve", "subtraction:pile=9,take=2", "--json", path=[entry_point_dir, TESTS])
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["game"] == "subtraction:pile=9,take=2" and data["value"] < 0  # 9 % 3 == 0
    proc = run("solve", "subtraction", "--json", path=[TESTS])  # not installed: unknown
    assert proc.returncode == 2 and "unknown game 'subtraction'" in proc.stderr


def test_a_module_in_the_current_folder_is_never_imported(tmp_path: Path) -> None:
    (tmp_path / "cwd_game.py").write_text(
        "import pathlib\npathlib.Path('IMPORTED').write_text('ran')\n"
        "from outside_game import Subtraction as Game\n")
    proc = run("solve", "py:cwd_game:Game:pile=5", "--json", cwd=str(tmp_path), path=[TESTS])
    assert proc.returncode == 2
    assert "never from the current directory" in proc.stderr
    assert not (tmp_path / "IMPORTED").exists()
    # named on purpose (PYTHONPATH), the same module is a game
    proc = run("solve", "py:cwd_game:Game:pile=5", "--json", cwd=str(tmp_path),
               path=[str(tmp_path), TESTS])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["game"] == "py:cwd_game:Game:pile=5"


# ----- the arena: stored spec, workers that import the game -------------------------------
def _config(game: str, **kw: Any) -> TournamentConfig:
    return TournamentConfig(game, tuple(parse_agents(["alphabeta", "random:seed=2"])),
                            games_per_pair=2, **kw)


@pytest.mark.parametrize("how", ["py", "registered"])
def test_a_spawned_worker_imports_the_outside_game(how: str) -> None:
    if how == "registered":
        register("subtraction-reg", "outside_game:Subtraction", "test only")
    try:
        game = f"{OUTSIDE}:pile=9" if how == "py" else "subtraction-reg:pile=9"
        cfg = _config(game)
        # spawn: a fresh interpreter that has neither the registration nor the module
        record = play_slot(cfg.schedule()[0], start_method="spawn")
    finally:
        GAMES.pop("subtraction-reg", None)
    assert record.termination == "normal", record.detail
    assert sum(int(m) for m in record.moves) == 9


def test_the_store_keeps_the_full_spec(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite")
    argv = ["match", "pig:sides=6,goal=8", "expectiminimax:depth=2", "random:seed=1",
            "--games", "2", "--db", db, "--quiet", "--json"]
    code, out = run_inline(*argv)
    assert code == 0 and json.loads(out)["game"] == "pig:goal=8"
    with Store(db) as store:
        [t] = store.list_tournaments()
    assert t["game"] == "pig:goal=8" and t["config"]["game"] == "pig:goal=8"
    # the same game written another way is the same tournament: the run resumes it
    code, out = run_inline("match", "pig:goal=8,sides=6", *argv[2:])
    with Store(db) as store:
        assert len(store.list_tournaments()) == 1
    assert code == 0
    # a bare name (as every store before specs holds) is a spec, and a game at its
    # defaults keeps the bare name: the tournament key of an old store is found again
    old = str(tmp_path / "old.sqlite")
    run_tournament(_config("tictactoe"), RunOptions(db=old))
    code, out = run_inline("match", "tictactoe:order=natural", "alphabeta", "random:seed=2",
                           "--games", "2", "--db", old, "--quiet", "--json")
    assert code == 0 and json.loads(out)["game"] == "tictactoe"
    with Store(old) as store:
        [t] = store.list_tournaments()
    assert t["game"] == "tictactoe" and t["games"] == 2


# ----- the web app: the spec passes through ------------------------------------------------
def test_the_web_app_takes_game_specs() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from gamesearch.interfaces.web import create_app

    client = TestClient(create_app())
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert [o["name"] for o in games["pig"]["options"]] == ["goal", "sides"]
    assert games["connect4"]["options"] == []
    r = client.get("/api/position", params={"game": "nim:heaps=1-2", "moves": "1-1"})
    assert r.status_code == 200 and r.json()["game"] == "nim:heaps=1-2"
    assert r.json()["position"].startswith("0 2")
    r = client.get("/api/analyze", params={"game": "pig:goal=3", "algorithm":
                                           "expectiminimax:depth=2"})
    assert r.status_code == 200 and r.json()["game"] == "pig:goal=3"
    r = client.get("/api/position", params={"game": "pig:goal=0"})
    assert r.status_code == 400 and "goal" in r.text
    # a request never chooses a module to import
    r = client.get("/api/position", params={"game": f"{OUTSIDE}:pile=5"})
    assert r.status_code == 400 and "py:MODULE:ATTR" in r.text
