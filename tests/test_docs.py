"""The front door and the manual: every command of README.md runs, the README stays short,
its links resolve, every registered game has a page, the tutorial's game is built from its
own code blocks and every front end takes it, the pages' Python snippets run, and the web
app serves the built manual at /guide/ (and says how to build it before that).

The manual's strict build (a broken link or anchor fails it) is a line of ``make test``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamesearch.games import GAMES
from gamesearch.games.trees import EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: The README's aim (issue 36): read in five minutes.
README_MAX_LINES = 250
#: A fence and its info string: ```console, ```python title="x.py"
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```\s*$", re.M | re.S)


def blocks(path: Path, language: str) -> list[tuple[str, str]]:
    """The fenced code blocks of ``path`` in ``language``: (info string, code)."""
    return [(info.strip(), code) for lang, info, code in FENCE.findall(path.read_text())
            if lang == language]


def commands(path: Path) -> list[str]:
    """The ``$ `` lines of the ``console`` blocks of ``path``, in order."""
    return [line[2:] for _, code in blocks(path, "console")
            for line in code.splitlines() if line.startswith("$ ")]


def environment(**extra: str) -> dict[str, str]:
    """This interpreter's ``gamesearch`` first on the path."""
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def run_script(script: str, cwd: Path, env: dict[str, str],
               timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, input="q\n", text=True,
                          capture_output=True, timeout=timeout)


# ----- README.md -------------------------------------------------------------------------
def test_readme_is_read_in_five_minutes() -> None:
    lines = README.read_text().splitlines()
    assert len(lines) < README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_readme_names_the_two_commands_and_they_exist() -> None:
    text = README.read_text()
    assert "make run" in text and "make test" in text
    for target in ("run", "test", "docs"):
        r = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, (target, r.stderr)
    assert "mkdocs build --strict" in subprocess.run(
        ["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout


def test_every_readme_command_runs(tmp_path: Path) -> None:
    cmds = commands(README)
    assert len(cmds) >= 5, cmds
    for cmd in cmds:
        r = run_script(cmd, tmp_path, environment())
        assert r.returncode == 0, (cmd, r.stdout[-2000:], r.stderr[-2000:])
        assert "Traceback" not in r.stderr, (cmd, r.stderr[-2000:])


def test_the_readme_trace_is_what_trace_prints() -> None:
    """The tree the README shows is the real output of its command."""
    text = README.read_text()
    r = run_script("gamesearch trace fig6.2 --algorithm alphabeta", ROOT, environment())
    assert r.returncode == 0
    assert r.stdout.strip() in text


@pytest.mark.parametrize("path", [README, DOCS / "index.md", DOCS / "algorithms" / "hidden.md",
                                  DOCS / "tutorial.md"], ids=lambda p: p.name)
def test_python_snippets_run(path: Path, tmp_path: Path) -> None:
    """The untitled Python blocks of a page, one after another in one interpreter (the
    tutorial's with its game module on the path)."""
    code = "\n".join(c for info, c in blocks(path, "python") if "title=" not in info)
    assert code.strip(), f"no Python snippet in {path}"
    env = environment(PYTHONPATH=str(_tutorial_module(tmp_path)))
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, text=True,
                       capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]


def test_readme_links_resolve() -> None:
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text()):
        if "://" in target:
            continue
        assert (ROOT / target).exists(), f"README.md links to {target}, which is not there"


# ----- the pages ----------------------------------------------------------------------------
def test_every_registered_game_has_a_page_that_names_its_options() -> None:
    """Derived from the registry: a game added to GAMES without a page fails here."""
    nav = (ROOT / "mkdocs.yml").read_text()
    trees = (DOCS / "games" / "trees.md").read_text()
    for name, (target, _) in GAMES.items():
        if target.startswith("py:"):  # registered by another test in this process
            continue
        if name in EXAMPLES:
            assert f"`{name}`" in trees, f"docs/games/trees.md does not name {name}"
            continue
        page = DOCS / "games" / f"{name}.md"
        assert page.is_file(), f"the game {name} has no page docs/games/{name}.md"
        assert f"games/{name}.md" in nav, f"docs/games/{name}.md is not in mkdocs.yml's nav"
        text = page.read_text()
        from gamesearch.games import game_options

        try:
            options = game_options(name)
        except Exception:  # an optional dependency is missing (chess)
            continue
        for option in options:
            assert f"`{option.name}`" in text or f"{option.name}=" in text, (
                f"docs/games/{name}.md does not mention the option {option.name}")


def test_the_architecture_page_keeps_its_path_and_is_in_the_nav() -> None:
    assert (DOCS / "architecture.md").is_file()
    assert "architecture.md" in (ROOT / "mkdocs.yml").read_text()


# ----- the tutorial -------------------------------------------------------------------------
def _tutorial_module(tmp_path: Path) -> Path:
    """``mygames/twentyone.py`` put together from the tutorial's blocks titled so."""
    folder = tmp_path / "mygames"
    folder.mkdir(exist_ok=True)
    parts = [code for info, code in blocks(DOCS / "tutorial.md", "python")
             if 'title="mygames/twentyone.py"' in info]
    (folder / "twentyone.py").write_text("\n".join(parts))
    return folder


def test_the_tutorial_game_is_checked_by_its_own_module(tmp_path: Path) -> None:
    folder = _tutorial_module(tmp_path)
    env = environment(PYTHONPATH=str(folder))
    code = """
from gamesearch import Limit, get_game, search
from gamesearch.games import get_game
from gamesearch.search import ALGORITHMS
from gamesearch.search.solve import solve

for goal in range(1, 16):
    game = get_game(f"py:twentyone:TwentyOne:goal={goal}")
    state = game.initial_state()
    wins = goal % 4 != 0
    assert (solve(game, state).value > 0) == wins, goal
    for name in ALGORITHMS:
        limit = Limit(nodes=5000, time=30) if name == "mcts" else Limit(depth=goal)
        r = search(game, state, name, limit)
        value = r.value[0] if isinstance(r.value, tuple) else r.value
        assert (value > 0) == wins, (goal, name, r.value)
        if wins:
            assert r.move == str(goal % 4), (goal, name, r.move)
    assert game.parse_state(game.format_state(state)) == state
    assert game.render_svg(state).count("data-move") == min(3, goal)
assert get_game("py:twentyone:TwentyOne:goal=31,step=4").spec.endswith("goal=31,step=4")
"""
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, text=True,
                       capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]


def test_the_tutorial_commands_run(tmp_path: Path) -> None:
    _tutorial_module(tmp_path)
    cmds = commands(DOCS / "tutorial.md")
    assert any("match" in c for c in cmds) and any("analyze" in c for c in cmds)
    r = run_script("set -e\n" + "\n".join(cmds), tmp_path, environment())
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr


def test_the_tutorial_game_plays_in_the_web_app(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from gamesearch.games import register
    from gamesearch.interfaces.web import create_app

    folder = _tutorial_module(tmp_path)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setitem(GAMES, "twentyone", GAMES.get("twentyone", ("", "")))
    register("twentyone", "twentyone:TwentyOne", "count to 21 in steps of 1-3")
    client = TestClient(create_app(guide=tmp_path / "no-site"))
    names = [g["name"] for g in client.get("/api/games").json()["games"]]
    assert "twentyone" in names
    r = client.get("/api/position", params={"game": "twentyone:goal=10", "position": "6"})
    assert r.status_code == 200 and 'data-move="3"' in r.json()["svg"]
    r = client.post("/api/play", json={"game": "twentyone:goal=10",
                                       "agents": ["human", "id:depth=10"]})
    assert r.status_code in (200, 201), r.text
    assert r.json()["legal"] == ["1", "2", "3"]


# ----- /guide/ ------------------------------------------------------------------------------
def test_the_web_app_serves_the_built_manual(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from gamesearch.interfaces.web import create_app

    site = tmp_path / "site"
    (site / "games" / "nim").mkdir(parents=True)
    (site / "index.html").write_text("<h1>gamesearch: the manual</h1>")
    (site / "games" / "nim" / "index.html").write_text("<h1>Nim</h1>")
    (site / "404.html").write_text("<h1>no such page</h1>")
    client = TestClient(create_app(guide=site))
    r = client.get("/guide/")
    assert r.status_code == 200 and "the manual" in r.text
    assert client.get("/guide").url.path == "/guide/"
    assert "Nim" in client.get("/guide/games/nim/").text
    r = client.get("/guide/no-such-page/")
    assert r.status_code == 404 and "no such page" in r.text
    assert client.get("/guide/../pyproject.toml").status_code == 404


def test_before_the_manual_is_built_guide_says_how(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from gamesearch.interfaces.web import create_app

    client = TestClient(create_app(guide=tmp_path / "not-built"))
    for path in ("/guide/", "/guide/games/nim/"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert "text/html" in r.headers["content-type"]
        assert "make docs" in r.text and "make run" in r.text
    assert 'href="/guide/"' in client.get("/").text
