"""The chess evaluation's weights (games/chess/weights.py) and Texel's tuning method
(games/chess/texel.py, ``gamesearch tune chess``): the weights file round-trips and refuses
bad input in one line; applied weights reach both kernels alike; the evaluation's
coefficients reproduce the evaluation; the tuner, on a dozen arena games
(``tests/data/chess/texel_games.sqlite``), finds a sensible K and lowers the error."""

from __future__ import annotations

import io
import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

chess = pytest.importorskip("chess")
np = pytest.importorskip("numpy")
pytest.importorskip("scipy")

from gamesearch.games.chess import COMPILED, PURE_PYTHON, texel  # noqa: E402
from gamesearch.games.chess import evaluation as ev  # noqa: E402
from gamesearch.games.chess import weights as W  # noqa: E402
from gamesearch.games.chess.board import ChessState  # noqa: E402
from gamesearch.interfaces.cli import main  # noqa: E402

GAMES = Path(__file__).parent / "data" / "chess" / "texel_games.sqlite"


@pytest.fixture
def restore_weights() -> Iterator[None]:
    """Whatever a test applies, the engine's own weights afterwards."""
    before = W.current_weights()
    yield
    W.apply_weights(before)
    assert W.current_weights() == before


def _boards(n_games: int = 12, seed: int = 3) -> list[chess.Board]:
    rng = random.Random(seed)
    out = []
    for _ in range(n_games):
        b = chess.Board()
        for _ in range(rng.randrange(6, 90)):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
            out.append(b.copy(stack=False))
    return out


def _white_eval(kernels: object, b: chess.Board) -> tuple[int, int]:
    s = ChessState.from_board(b)
    return kernels.evaluate_board(s), s.phase  # type: ignore[attr-defined]


# ----- the weights file ------------------------------------------------------------
def test_weights_round_trip(tmp_path: Path) -> None:
    w = W.current_weights()
    assert w == W.named_weights(W.DEFAULT_NAME)  # the engine's own are the shipped default
    w.tempo += 1
    w.mg_pst["N"][27] = -17
    w.passed_eg[6] = 222
    path = tmp_path / "w.json"
    W.write_weights(w, str(path))
    back = W.read_weights(str(path))
    assert back == w
    assert W.load_weights(str(path)) == w
    vec = texel.to_vector(w)
    assert texel.from_vector(vec, W.named_weights("pesto")) == w  # vector round trip too
    for name in W.NAMED:
        assert W.load_weights(name) == W.named_weights(name)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.pop("format"), "not a chess weights file"),
    (lambda d: d.update(version=9), "version"),
    (lambda d: d.pop("tempo"), "no 'tempo'"),
    (lambda d: d.update(tempo=1.5), "whole number"),
    (lambda d: d.update(tempo=True), "whole number"),
    (lambda d: d.update(tempo=10**9), "out of range"),
    (lambda d: d.update(passed_mg=[1, 2]), "list of 8"),
    (lambda d: d["mg_pst"].pop("K"), "table for each"),
    (lambda d: d["eg_pst"]["P"].__setitem__(3, 5), "first or last rank"),
])
def test_bad_weights_files(tmp_path: Path, edit: object, message: str) -> None:
    data = W.current_weights().to_json()
    edit(data)  # type: ignore[operator]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(W.WeightsError, match=message) as info:
        W.read_weights(str(path))
    assert "\n" not in str(info.value)


def test_weights_file_errors(tmp_path: Path) -> None:
    with pytest.raises(W.WeightsError, match="does not exist"):
        W.read_weights(str(tmp_path / "none.json"))
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(W.WeightsError, match="not JSON"):
        W.read_weights(str(tmp_path / "junk.json"))
    with pytest.raises(W.WeightsError, match="no weights named"):
        W.named_weights("stockfish")


# ----- applied weights reach both kernels, and the coefficients reproduce them --------
def test_applied_weights_reach_both_kernels(restore_weights: None) -> None:
    boards = _boards()
    w0 = W.current_weights()
    v0 = texel.to_vector(w0)
    kernels = [PURE_PYTHON] + ([COMPILED] if COMPILED is not None else [])
    # the part of the evaluation no weight covers (mobility, rounding), at the start
    rest = []
    for b in boards:
        e, phase = _white_eval(PURE_PYTHON, b)
        c = texel.features(b, phase)
        rest.append(e + (ev.TEMPO if b.turn else -ev.TEMPO) - sum(v0[i] * x for i, x in c.items()))
    assert max(abs(r) for r in rest) < 200
    rng = np.random.default_rng(7)
    v1 = v0 + rng.integers(-40, 41, size=v0.shape)
    w1 = texel.from_vector(v1, w0)
    W.apply_weights(w1)
    assert W.current_weights() == w1
    changed = 0
    for b, r in zip(boards, rest, strict=True):
        values = [_white_eval(k, b) for k in kernels]
        assert len({v for v, _ in values}) == 1, b.fen()  # the kernels agree
        e, phase = values[0]
        c = texel.features(b, phase)
        predicted = sum(v1[i] * x for i, x in c.items()) + r
        # two roundings towards zero (at v0 and at v1) apart at most
        assert abs(e + (ev.TEMPO if b.turn else -ev.TEMPO) - predicted) <= 2.0, b.fen()
        changed += e != _white_eval_at(w0, b)
    assert changed > len(boards) // 2


def test_applied_weights_reach_the_compiled_search(restore_weights: None) -> None:
    """The compiled twin of the search holds its own copy of the tables: after
    ``apply_weights`` it searches node for node as the Python search does with the new
    numbers (and differently from before)."""
    from gamesearch.games.chess import ChessGame
    from gamesearch.games.chess.backend import ENGINE
    from gamesearch.search import Limit, make_searcher

    if COMPILED is None or ENGINE is None:
        pytest.skip("the compiled chess search is not built (no C compiler at install)")

    def searches(compiled: bool) -> list[tuple[object, ...]]:
        out = []
        for b in _boards()[::6]:
            game = ChessGame(COMPILED)
            state = ChessState.from_board(b)
            if game.is_terminal(state):
                continue
            r = make_searcher(game, "id", compiled=compiled).search(
                game.search_start(state), Limit(depth=3))
            out.append((r.value, r.action, r.nodes))
        return out

    before = searches(True)
    v0 = texel.to_vector(W.current_weights())
    v1 = v0 + np.random.default_rng(11).integers(-40, 41, size=v0.shape)
    W.apply_weights(texel.from_vector(v1, W.current_weights()))
    after = searches(True)
    assert after == searches(False)
    assert after != before


def _white_eval_at(w: W.Weights, b: chess.Board) -> int:
    now = W.current_weights()
    W.apply_weights(w)
    try:
        return _white_eval(PURE_PYTHON, b)[0]
    finally:
        W.apply_weights(now)


# ----- the tuner -------------------------------------------------------------------------
def test_tuner_fits_k_and_lowers_the_error(restore_weights: None) -> None:
    from gamesearch.interfaces.chess_tune import collect

    rows, sel = collect([str(GAMES)], holdout=0)
    assert sel.games == 12 and sel.kept == len(rows) > 300
    assert sel.noisy > 0 and sel.in_check > 0  # the filters do something
    assert {y for _, _, y, _ in rows} <= {0.0, 0.5, 1.0}
    w0 = texel.to_vector(W.current_weights())
    data = texel.with_offsets(texel.build_dataset(rows), w0)
    k = texel.fit_k(data, w0)
    assert 0.001 < k < 0.02  # the wiki's K near 1 for centipawn evaluations
    before = texel.error(data, w0, k)
    assert before < texel.error(data, w0, k * 3) and before < texel.error(data, w0, k / 3)
    result = texel.tune(data, w0, k, iterations=50, l2=1e-6)
    assert texel.error(data, result.weights, k) < before - 0.002
    assert np.all(result.weights == np.round(result.weights))


def test_tune_command(tmp_path: Path, restore_weights: None) -> None:
    out = io.StringIO()
    path = tmp_path / "tuned.json"
    assert main(["tune", "chess", "--db", str(GAMES), "--out", str(path), "--iterations",
                 "30", "--json"], out) == 0
    summary = json.loads(out.getvalue())
    assert summary["games"] == 12 and summary["error_after"] < summary["error_before"]
    tuned = W.read_weights(str(path))
    assert tuned.extra["tuned"]["k"] == summary["k"]
    assert tuned != W.current_weights()
    # --keep-tables: the piece-square tables stay, the other terms move
    assert main(["tune", "chess", "--db", str(GAMES), "--out", str(path), "--iterations",
                 "30", "--keep-tables", "--l2", "1e-8"], io.StringIO()) == 0
    kept, now = W.read_weights(str(path)), W.current_weights()
    assert kept.mg_pst == now.mg_pst and kept.eg_pst == now.eg_pst
    assert (kept.mg_value, kept.eg_value, kept.tempo) != (now.mg_value, now.eg_value, now.tempo)


def _error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv, io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("gamesearch: error: ")
    return err


def test_tune_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "w.json")
    assert "does not exist" in _error_line(
        capsys, ["tune", "chess", "--db", str(tmp_path / "none.sqlite"), "--out", out])
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    assert "not a gamesearch arena file" in _error_line(
        capsys, ["tune", "chess", "--db", str(foreign), "--out", out])
    ttt = tmp_path / "ttt.sqlite"
    assert main(["match", "tictactoe", "random", "random", "--games", "2", "--db", str(ttt),
                 "--quiet"], io.StringIO()) == 0
    capsys.readouterr()
    assert "holds no chess games" in _error_line(
        capsys, ["tune", "chess", "--db", str(ttt), "--out", out])
    assert "no quiet positions" in _error_line(
        capsys, ["tune", "chess", "--db", str(GAMES), "--out", out, "--skip-plies", "1000"])
    assert "no such directory" in _error_line(
        capsys, ["tune", "chess", "--db", str(GAMES), "--out", str(tmp_path / "no" / "w")])
    assert "not JSON" in _error_line(
        capsys, ["tune", "chess", "--db", str(GAMES), "--out", out, "--weights", str(ttt)])
    with pytest.raises(SystemExit):  # argparse: a number out of range
        main(["tune", "chess", "--db", str(GAMES), "--out", out, "--l2", "-1"])
    assert "out of range" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # argparse: a game without a tuner
        main(["tune", "go", "--db", str(GAMES), "--out", out])
    assert "invalid choice" in capsys.readouterr().err
