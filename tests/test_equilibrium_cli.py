"""gamesearch equilibrium (every algorithm, --json, --out), the policy file (saved, loaded,
a foreign or garbled file refused in one line) and the policy/cfr agents in play and the
arena; bad input answered in one line with exit status 2."""

from __future__ import annotations

import io
import json
import random

import pytest

from gamesearch.agents import make_agent, play_game
from gamesearch.errors import GameError
from gamesearch.games import get_game
from gamesearch.interfaces.cli import main
from gamesearch.search.policy_file import PolicyFileError, checksum, load_policy


def run(argv):
    out = io.StringIO()
    return main(argv, out), out.getvalue()


@pytest.mark.parametrize(("algorithm", "iterations", "bound"), [
    ("cfr", 200, 0.02), ("cfr+", 200, 0.002), ("dcfr", 200, 0.002),
    ("es-mccfr", 2000, 0.05), ("os-mccfr", 5000, 0.15), ("lp", 1, 1e-9)])
def test_every_algorithm_on_kuhn(algorithm, iterations, bound):
    code, text = run(["equilibrium", "kuhn_poker", "--algorithm", algorithm, "--iterations",
                      str(iterations), "--seed", "1", "--json"])
    assert code == 0
    r = json.loads(text)
    assert set(r) >= {"exploitability", "value", "iterations", "seconds"}
    assert 0 <= r["exploitability"] < bound
    assert r["value"] == pytest.approx(-1 / 18, abs=max(0.02, 4 * bound))
    assert r["iterations"] == (0 if algorithm == "lp" else iterations)
    assert r["information_sets"] == 12


def test_leduc_cfr_plus_anchor_and_the_saved_policy(tmp_path):
    path = tmp_path / "leduc.json"
    code, text = run(["equilibrium", "leduc_poker", "--algorithm", "cfr+", "--iterations",
                      "1000", "--json", "--out", str(path)])
    assert code == 0
    r = json.loads(text)
    assert r["exploitability"] == pytest.approx(2.571e-4, rel=1e-3)
    game = get_game("leduc_poker")
    table, header = load_policy(path, game)
    assert len(table) == 936 and header["game"] == "leduc_poker"
    assert header["exploitability"] == r["exploitability"]
    # the saved policy, judged by OpenSpiel (its keys are OpenSpiel's information states)
    pyspiel = pytest.importorskip("pyspiel")
    theirs = pyspiel.load_game("leduc_poker")
    obs = game.observation()
    actions = {}

    def walk(state):
        if game.is_terminal(state):
            return
        if game.to_move(state) >= 0:
            view = obs.observe(state, game.to_move(state))
            actions[str(view)] = obs.actions(view)
        for a in game.actions(state):
            walk(game.result(state, a))

    walk(game.initial_state())
    policy = pyspiel.TabularPolicy({k: list(zip(actions[k], p, strict=True))
                                    for k, p in table.items()})
    assert pyspiel.exploitability(theirs, policy) == pytest.approx(r["exploitability"],
                                                                   abs=1e-9)


def test_text_output():
    code, text = run(["equilibrium", "kuhn_poker", "--iterations", "50"])
    assert code == 0 and "exploitability" in text and "value -0.05" in text


@pytest.mark.parametrize(("argv", "fragment"), [
    (["nosuch"], "unknown game"),
    (["tictactoe"], "no observation"),
    (["ohhell"], "3 players"),
    (["kuhn_poker", "--iterations", "-5"], "out of range"),
    (["kuhn_poker", "--iterations", "nan"], "expected a whole number"),
    (["kuhn_poker", "--iterations", "1e400"], "expected a whole number"),
    (["kuhn_poker", "--iterations", "1000000000000"], "out of range"),
    (["kuhn_poker", "--algorithm", "magic"], "invalid choice"),
    (["kuhn_poker", "--agent", "nonesuch"], "unknown agent"),
    (["kuhn_poker", "--agent", "human"], "asks a person"),
    (["kuhn_poker", "--agent", "pimc", "--out", "x.json"], "one or the other"),
    (["kuhn_poker", "--agent", "pimc", "--decision", "magic"], "invalid choice"),
    (["pig", "--agent", "random"], "more than 1,000,000 decision states"),
])
def test_bad_input_is_one_line_and_status_2(argv, fragment, capsys):
    try:
        code, _ = run(["equilibrium", *argv])
    except SystemExit as exc:  # argparse's refusals
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    lines = [ln for ln in err.splitlines() if ln.startswith("gamesearch")]
    assert len(lines) == 1 and fragment in lines[0], err


def saved(tmp_path, game="kuhn_poker"):
    path = tmp_path / "p.json"
    assert run(["equilibrium", game, "--iterations", "100", "--out", str(path)])[0] == 0
    return path


def test_a_foreign_or_garbled_policy_file_is_refused(tmp_path):
    path = saved(tmp_path)
    kuhn, leduc = get_game("kuhn_poker"), get_game("leduc_poker")
    load_policy(path, kuhn)
    with pytest.raises(PolicyFileError, match="not of leduc_poker"):
        load_policy(path, leduc)
    doc = json.loads(path.read_text())
    bad = tmp_path / "bad.json"
    cases = {
        "garbled": path.read_text()[:-40],
        "binary": "\x00\x01\x02",
        "other format": json.dumps({**doc, "format": "x"}),
        "version": json.dumps({**doc, "version": 9}),
        "tampered": json.dumps({**doc, "policy": {**doc["policy"], "0": [0.5, 0.5]}}),
        "negative": json.dumps({**doc, "policy": {"0": [1.5, -0.5]},
                                "sha256": checksum({**doc, "policy": {"0": [1.5, -0.5]}})}),
        "header changed": json.dumps({**doc, "exploitability": 0.0}),
        "list": "[1, 2]",
    }
    for name, text in cases.items():
        bad.write_text(text)
        with pytest.raises(PolicyFileError) as caught:
            load_policy(bad, kuhn)
        assert "\n" not in str(caught.value) and len(str(caught.value)) < 300, name
    with pytest.raises(PolicyFileError, match="cannot read"):
        load_policy(tmp_path / "missing.json", kuhn)
    code = main(["play", "kuhn_poker", "--agents", f"policy:{bad}", "random"], io.StringIO())
    assert code == 2


def test_policy_and_cfr_agents_play_from_views(tmp_path):
    path = saved(tmp_path)
    game = get_game("kuhn_poker")
    agents = [make_agent(game, f"policy:{path},seed=1"), make_agent(game, "cfr:iterations=50")]
    for seed in range(5):
        final, _ = play_game(game, agents, rng=random.Random(seed))
        assert game.is_terminal(final)
    with pytest.raises(GameError, match="hidden information"):
        make_agent(get_game("tictactoe"), f"policy:{path}")
    with pytest.raises(GameError, match="option"):
        make_agent(game, "cfr:depth=3")


def test_the_equilibrium_policy_plays_in_the_arena_and_wins_chips_from_random(tmp_path):
    """Leduc, CFR+'s policy against a random player: every arena game normal; over 600
    hands (seats alternating) it wins chips (about +0.6 a hand)."""
    from gamesearch.arena import TournamentConfig, parse_agents, run_tournament

    path = tmp_path / "leduc.json"
    assert run(["equilibrium", "leduc_poker", "--iterations", "300", "--out", str(path)])[0] == 0
    cfg = TournamentConfig("leduc_poker", tuple(parse_agents(
        [f"policy:{path},seed=1", "random:seed=2"])), games_per_pair=10)
    result = run_tournament(cfg)
    assert len(result.records) == 10
    assert all(r.termination == "normal" for r in result.records)
    game = get_game("leduc_poker")
    policy, rand = make_agent(game, f"policy:{path},seed=1"), make_agent(game, "random:seed=2")
    chips = 0.0
    for i in range(600):
        final, _ = play_game(game, [policy, rand] if i % 2 == 0 else [rand, policy],
                             rng=random.Random(i))
        chips += game.returns(final)[i % 2]
    assert chips / 600 > 0.2


def test_fuzzed_policy_files_load_or_are_refused_in_one_line(tmp_path):
    """Bytes of a valid policy file flipped, cut, spliced or replaced: load_policy gives a
    checked table or one bounded line (PolicyFileError), never another exception."""
    from hypothesis import given
    from hypothesis import strategies as st

    from fuzzing import examples

    path = saved(tmp_path)
    good = path.read_bytes()
    kuhn = get_game("kuhn_poker")
    target = tmp_path / "fuzzed.json"
    edits = st.one_of(
        st.tuples(st.just("flip"), st.integers(0, len(good) - 1), st.integers(1, 255)),
        st.tuples(st.just("cut"), st.integers(0, len(good)), st.just(0)),
        st.tuples(st.just("splice"), st.integers(0, len(good)), st.binary(max_size=40)),
    )

    @examples(150)
    @given(edit=edits)
    def check(edit):
        kind, at, arg = edit
        if kind == "flip":
            data = good[:at] + bytes([good[at] ^ arg]) + good[at + 1:]
        elif kind == "cut":
            data = good[:at]
        else:
            data = good[:at] + arg + good[at:]
        target.write_bytes(data)
        try:
            table, _ = load_policy(target, kuhn)
        except PolicyFileError as exc:
            assert "\n" not in str(exc) and len(str(exc)) <= 400
        else:
            assert all(abs(sum(p) - 1) < 1e-6 for p in table.values())

    check()


def test_an_agents_exploitability(capsys):
    """``--agent``: PIMC's decisions on Kuhn as a policy, judged by OpenSpiel's
    exploitability; minimax on tic-tac-toe an equilibrium exactly, a random mover not."""
    pyspiel = pytest.importorskip("pyspiel")
    from gamesearch.agents import agent_decider
    from gamesearch.search.agent_policy import decisions_policy

    code, text = run(["equilibrium", "kuhn_poker", "--agent", "pimc:worlds=20", "--json"])
    r = json.loads(text)
    assert code == 0 and r["information_sets"] == 12 and r["decision"] == "choice"
    game = get_game("kuhn_poker")
    made = decisions_policy(game, agent_decider(game, "pimc:worlds=20"), seed=0)
    table = pyspiel.TabularPolicy({str(k): list(p.items()) for k, p in made.policy.items()})
    theirs = pyspiel.exploitability(pyspiel.load_game("kuhn_poker"), table)
    assert r["exploitability"] == pytest.approx(theirs, abs=1e-12) and theirs > 0.1
    code, text = run(["equilibrium", "tictactoe", "--agent", "minimax", "--json"])
    r = json.loads(text)
    assert code == 0 and r["nash_conv_exact"] == "0" and r["states"] == 4520
    code, text = run(["equilibrium", "tictactoe", "--agent", "random:seed=1"])
    assert code == 0 and "NashConv 0 exactly" not in text and "4,520 states" in text
