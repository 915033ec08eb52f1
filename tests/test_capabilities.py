"""The capabilities of the game protocol (``gamesearch.capabilities``): typed engine
settings, what the games offer and that readers get the games' own functions."""

from __future__ import annotations

import io
import itertools
import random
from functools import reduce
from operator import xor

import pytest

from gamesearch.capabilities import RAW_SCORES, EngineSettings, Evaluation
from gamesearch.errors import InvalidLimitError, UnsupportedGameError
from gamesearch.game import CAPABILITIES, Game, random_playout
from gamesearch.games import available_games, get_game
from gamesearch.games.nim import Nim, NimState
from gamesearch.games.tictactoe import TicTacToe
from gamesearch.interfaces.cli import main
from gamesearch.search import Limit, make_searcher, search
from gamesearch.search.solve import solve


# ----- engine settings: a typed value ----------------------------------------------------------
def test_engine_settings_refuse_unknown_names_and_wrong_types() -> None:
    with pytest.raises(InvalidLimitError, match=r"'lmrr'.*known: lmr, futility_margins, "
                                                r"soft_share"):
        EngineSettings(lmrr=True)
    with pytest.raises(InvalidLimitError, match="known: lmr"):
        EngineSettings.from_mapping({"lmr": True, "soft_shares": 0.5})
    for bad in ({"lmr": 1}, {"lmr": "yes"}, {"futility_margins": "200"},
                {"futility_margins": (0, -1)}, {"futility_margins": (True,)},
                {"soft_share": 0}, {"soft_share": 1.5}, {"soft_share": True}):
        with pytest.raises(InvalidLimitError, match="engine setting"):
            EngineSettings.from_mapping(bad)
    s = EngineSettings.from_mapping({"lmr": True, "futility_margins": [0, 200],
                                     "soft_share": 1})
    assert s == EngineSettings(lmr=True, futility_margins=(0.0, 200.0), soft_share=1.0)
    assert s.futility_margins == (0.0, 200.0) and hash(s) == hash(EngineSettings(
        lmr=True, futility_margins=(0, 200), soft_share=1))
    assert EngineSettings() == EngineSettings(lmr=False, futility_margins=(), soft_share=None)


class _Settled(TicTacToe):
    """Tic-tac-toe asking for a soft share and futility margins."""

    def engine_settings(self) -> EngineSettings:
        return EngineSettings(soft_share=0.25, futility_margins=(0.0, 0.5))


def test_the_engine_takes_its_defaults_from_the_games_settings() -> None:
    engine = make_searcher(_Settled(), "id")
    assert engine.soft_share == 0.25 and engine.futility == (0.0, 0.5) and not engine.lmr
    engine = make_searcher(_Settled(), "id", soft_share=0.5, futility=False)
    assert engine.soft_share == 0.5 and engine.futility is None
    plain = make_searcher(TicTacToe(), "id")
    assert plain.soft_share is None and plain.futility is None
    with pytest.raises(UnsupportedGameError, match=r"futility margins.*engine_settings"):
        make_searcher(TicTacToe(), "id", futility=True)


# ----- presence is the object --------------------------------------------------------------
def test_a_bare_game_has_no_capability() -> None:
    game: Game[int, int] = Game()
    for name in CAPABILITIES:
        assert getattr(game, name)() is None, name
    assert game.render_svg(0) is None  # the convenience: no drawing, no SVG
    with pytest.raises(UnsupportedGameError, match="no evaluation 'td'"):
        game.evaluation("td")
    with pytest.raises(UnsupportedGameError, match="no evaluation 'td'"):
        Nim().evaluation("td")


def test_every_registered_game_has_perfect_information_and_no_observation() -> None:
    for name in available_games():
        game = get_game(name)
        assert game.game_type.perfect_information == (game.observation() is None), name


def test_the_capabilities_hold_the_games_own_functions() -> None:
    # What the hot loops bind is the very function the game gave: nothing in between
    # (chess: its kernels, set on the instance).
    pytest.importorskip("chess")
    chess = get_game("chess")
    tactics, evaluation, null = chess.tactics(), chess.evaluation(), chess.null_move()
    assert tactics is not None and evaluation is not None and null is not None
    assert tactics.in_check is chess.in_check  # type: ignore[attr-defined]
    assert tactics.noisy_actions is chess.iter_noisy_actions  # type: ignore[attr-defined]
    assert evaluation.evaluate is chess.evaluate  # type: ignore[attr-defined]
    assert evaluation.quick_evaluate is chess.quick_evaluate  # type: ignore[attr-defined]


def test_random_playouts_use_the_compiled_playout_only_when_asked() -> None:
    calls: list[int] = []

    class Counted(TicTacToe):
        def playouts(self) -> object:
            from gamesearch.capabilities import Playouts

            def compiled(state: int, rng: random.Random, plies: int | None) -> int:
                calls.append(state)
                return state
            return Playouts(compiled=compiled)

    game = Counted()
    start = game.initial_state()
    assert random_playout(game, start, random.Random(1)) == start and calls == [start]
    end = random_playout(game, start, random.Random(1), fast=False)
    assert game.is_terminal(end) and len(calls) == 1


# ----- the example game's capabilities --------------------------------------------------------
def nim_states() -> list[NimState]:
    return [NimState(h, p) for h in itertools.product(range(4), repeat=3) for p in (0, 1)
            if any(h)]


def test_nims_safe_moves_keep_their_promise() -> None:
    game = Nim()
    safe = game.safe_moves()
    assert safe is not None and safe.plies_left_bound(game.initial_state()) is None
    for s in nim_states():
        win = safe.winning_action(s)
        wins = [a for a in game.actions(s) if game.is_terminal(game.result(s, a))]
        assert (win is None) == (not wins) and (win is None or win in wins), s
        if win is not None:
            continue
        kept = safe.safe_actions(s)
        assert set(kept) <= set(game.actions(s))
        for a in game.actions(s):  # safe exactly when the opponent cannot win at once
            assert (a in kept) == (safe.winning_action(game.result(s, a)) is None), (s, a)


def test_nims_solver_and_engine_with_safe_moves_agree_with_bouton() -> None:
    game = Nim()
    for s in nim_states():
        if game.is_terminal(s):
            continue
        mover_wins = reduce(xor, s.heaps, 0) != 0
        r = solve(game, s)
        assert (r.value > 0) == mover_wins, s
        assert all((reduce(xor, game.result(s, a).heaps, 0) == 0) == mover_wins
                   for a in r.best_actions), s
        assert (search(game, s, "id", Limit(depth=3)).value > 0) == mover_wins, s


def test_nims_perft_counts_the_move_tree() -> None:
    game = Nim((1, 2))
    perft = game.perft()
    assert perft is not None and list(perft.conventions) == ["perft"]
    s = game.initial_state()
    assert perft.count(s, 0, None) == 1
    assert perft.count(s, 1, None) == len(game.actions(s)) == 3
    two = sum(0 if game.is_terminal(c) else len(game.actions(c))
              for c in (game.result(s, a) for a in game.actions(s)))
    assert perft.count(s, 2, "perft") == two
    with pytest.raises(InvalidLimitError, match="allowed: perft"):
        perft.count(s, 1, "full")
    out = io.StringIO()
    assert main(["perft", "nim", "--depth", "1"], out) == 0
    assert "perft 1: 12 " in out.getvalue()  # 3 + 4 + 5 moves from 3 4 5


def test_a_searcher_without_an_evaluation_scores_cut_offs_zero_only_when_asked() -> None:
    game = get_game("fig6.2")
    r = search(game, game.initial_state(), "alphabeta", Limit(depth=1), zero_eval=True)
    assert r.value == 0.0
    assert RAW_SCORES.exact_score(None, 7.5) == 7.5 == RAW_SCORES.score_threshold(None, 7.5)
    assert Evaluation(lambda s, p: 1.0).quick_evaluate is None
