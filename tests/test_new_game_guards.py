"""A new game passes every guard without editing one (issue 36, item 4).

Two games of the tests' own, installed the way a user's package installs one (a
``gamesearch.games`` entry point in a ``*.dist-info``), are run through the guard modules:
the architecture rules, the information-set boundary, the notation fuzz, the capabilities'
contracts and the search's flags. Each guard reads the registry, so it covers the new games
at once; this test fails if a guard lists games by hand (the new ones would be missing
from its parameters) or trips on a game it was not written for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
GUARDS = [f"tests/{name}" for name in (
    "test_architecture.py", "test_information_sets.py", "test_fuzz_notation.py",
    "test_capabilities.py", "test_search.py::test_games_declared_alternating_do_alternate")]
NEW_GAMES = {"subtraction": "outside_game:Subtraction",  # perfect information, options
             "highcard2": "hidden_highcard:HighCard"}  # hidden information, chance


def test_a_new_game_passes_every_guard(tmp_path: Path) -> None:
    info = tmp_path / "site" / "new_games-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: new-games\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[gamesearch.games]\n" + "".join(f"{n} = {t}\n" for n, t in NEW_GAMES.items()))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path / "site"), str(TESTS), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                        "--collect-only", *GUARDS],  # (one -q: addopts)
                       cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    ids = r.stdout.splitlines()
    for module, names in (("test_fuzz_notation", NEW_GAMES), ("test_search", NEW_GAMES),
                          ("test_information_sets", ["highcard2"])):
        for name in names:  # the guard's parameters come from the registry
            assert any(i.startswith(f"tests/{module}.py::") and f"[{name}" in i
                       for i in ids), (module, name)
    # (the library's games pass these guards in their own run of the suite: only the new
    # games' cases, and the guards that loop over every game inside one test, run here)
    keep = " or ".join([*NEW_GAMES, "test_architecture", "test_capabilities"])
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-x", "-k", keep, *GUARDS], cwd=TESTS.parent, env=env,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
