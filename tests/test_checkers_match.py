"""The checkers match script's referee, adjudication and resuming (benchmarks/mcts_match.py).

The referee's database is a 3-piece one built here; its values are checked against
Chinook's counts and their successors in tests/test_checkers_egdb.py. What is tested here is
the adjudication rule: a database draw ends the game, a win only when its distance fits
within the plies left before OpenSpiel's draw rule (40 plies without a capture)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gamesearch.games import get_game
from gamesearch.games.checkers import egdb as E
from gamesearch.search.retrograde import dependency_order

ROOT = Path(__file__).resolve().parents[1]


def load_match() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mcts_match", ROOT / "benchmarks" /
                                                  "mcts_match.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mcts_match"] = module
    spec.loader.exec_module(module)
    return module


match = load_match()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> str:
    directory = tmp_path_factory.mktemp("egdb3")
    db = E.CheckersEndgameDatabase(directory)
    keys = db.slices(3)
    for key in dependency_order(keys, {k: db.dependencies(k) for k in keys}):
        db.build_slice(key)
    db.mark_complete(3)
    return str(directory)


#: two kings against one, Black to move: won for Black (a long way from the end)
WON = "B:WK18:BK1,K2"
#: a king each: a draw
DRAWN = "B:WK32:BK1"
#: four pieces: beyond a 3-piece database
BEYOND = "B:WK32,K31:BK1,K2"


def test_adjudication_waits_for_a_win_that_fits_the_draw_rule(folder: str) -> None:
    game = get_game("checkers")
    referee = match.Referee(folder, adjudicate=True)
    won = game.from_fen(WON)
    value = referee.database.probe(won)
    assert value.value == 1 and value.plies is not None and value.plies > 1
    fits = match.OPENSPIEL_CHECKERS_QUIET_PLIES - value.plies  # plies already without capture
    report: dict[str, Any] = {}
    assert referee.judge(won, fits, 10, report) == 1.0
    assert report["entered"] == {"ply": 10, "value": 1, "plies": value.plies,
                                 "quiet_plies_left": value.plies}
    # one ply more without a capture: the draw rule could come first, so the game goes on
    assert referee.judge(won, fits + 1, 11, report) is None
    assert report["entered"]["ply"] == 10  # the first database position stays noted
    # the loser's view of the same kind of position: White to move, lost
    lost = game.from_fen("W" + WON[1:])
    verdict = referee.judge(lost, 0, 0, {})
    assert verdict == float(referee.database.probe(lost).value) == -1.0


def test_a_database_draw_ends_the_game_and_a_bigger_position_plays_on(folder: str) -> None:
    game = get_game("checkers")
    referee = match.Referee(folder, adjudicate=True)
    assert referee.database.probe(game.from_fen(DRAWN)).value == 0
    assert referee.judge(game.from_fen(DRAWN), 39, 0, {}) == 0.0
    report: dict[str, Any] = {}
    assert referee.judge(game.from_fen(BEYOND), 0, 0, report) is None
    assert report == {}
    # without adjudication the referee only takes notes
    notes = match.Referee(folder, adjudicate=False)
    report = {}
    assert notes.judge(game.from_fen(DRAWN), 0, 3, report) is None
    assert report["entered"]["value"] == 0


def test_openspiel_draw_count_resets_on_captures_only() -> None:
    game = get_game("checkers")
    state = game.from_fen("B:W18:B14,K1")  # Black must jump 14x23
    jump = game.actions(state)[0]
    after = game.result(state, jump)
    assert match.pieces_on_board(state) == 3 and match.pieces_on_board(after) == 2
    assert match.quiet_after(state, after, 17) == 0
    man_move = game.from_fen("B:W32:B14")  # a man's step resets ours, not OpenSpiel's
    step = game.result(man_move, game.actions(man_move)[0])
    assert match.quiet_after(man_move, step, 17) == 18


def test_resume_reads_the_games_of_the_same_setup(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    rows = [{"game": "checkers", "index": 0, "ours": "id:time=1", "time": 1.0,
             "result": "win"},  # written before "adjudicated" existed: not adjudicated
            {"game": "checkers", "index": 1, "ours": "id:time=1", "time": 1.0,
             "result": "draw", "adjudicated": False},
            {"game": "checkers", "index": 2, "ours": "id:time=1", "time": 1.0,
             "result": "loss", "adjudicated": True},
            {"game": "checkers", "index": 3, "ours": "id:time=0.1", "time": 0.1,
             "result": "loss", "adjudicated": False}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    key = {"game": "checkers", "ours": "id:time=1", "time": 1.0, "adjudicated": False}
    assert match.played_games(str(path), key) == {0: "win", 1: "draw"}
    assert match.played_games(str(path), {**key, "adjudicated": True}) == {2: "loss"}
    assert match.played_games(str(tmp_path / "none.jsonl"), key) == {}


def test_outcome_intervals() -> None:
    text = match.outcome_intervals(190, 10, 0)
    assert text.startswith("W 0.950 (0.910-0.973), D 0.050 (0.027-0.090), L 0.000 (0.000-")
    lo, hi = match.wilson_interval(0, 200)
    assert lo == pytest.approx(0.0, abs=1e-12) and 0.018 < hi < 0.020  # (by hand: 0.0189)


def test_summary_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    rows = [{"index": 0, "result": "win", "seconds": 3.0, "end": "ours"},
            {"index": 1, "result": "draw", "seconds": 5.0, "end": "openspiel",
             "ours_first": False,  # the opponent to move at ply 60, lost for it
             "entered": {"ply": 60, "value": -1, "plies": 51, "quiet_plies_left": 30}},
            {"index": 1, "result": "draw", "seconds": 5.0, "end": "openspiel",  # resumed twice
             "ours_first": False,
             "entered": {"ply": 60, "value": -1, "plies": 51, "quiet_plies_left": 30}},
            {"index": 2, "result": "draw", "seconds": 7.0, "end": "openspiel"},
            {"index": 3, "result": "loss", "seconds": 1.0, "end": "ours"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    match.summarize([str(path)])
    row = capsys.readouterr().out.splitlines()[-1].split(" | ")
    assert row[1:4] == ["4", "+1 =2 -1", "0.500 (0.150-0.850)"]
    assert row[6] == "4.0"
    assert row[7] == "not reached: 1; ours won in 51 with 30 left: 1 |"


def test_openspiel_bot_out_of_time_still_moves() -> None:
    """No time at all (as when a loaded machine outlasts the move's time in OpenSpiel's
    first simulation): the bot still has root children to choose from."""
    pytest.importorskip("pyspiel", reason="open_spiel (dev extra) is the opponent")
    game = get_game("checkers")
    translator = match.Translator(game, "checkers")
    bot = match.OpenSpielPlayer(translator, 0.0, cpp=False)
    bot.new_game(5)
    state = game.initial_state()
    for _ in range(6):  # a few moves each way, chains included if they come
        move = bot.choose(state)
        assert move in game.actions(state)
        translator.apply(state, move)
        state = game.result(state, move)
