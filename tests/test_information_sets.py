"""Hidden information as a boundary, checked the way the field defines it: two states in
one information set of a seat (the same public history and the same cards of that seat,
the other hands dealt again) must give that seat byte-identical answers on every route
(ids and timings aside). No route is trusted to remember the secret: each is asked with
both states and the answers compared.

The games: every registered game with an ``observation()`` (bridge, Oh Hell) and every
``GAME`` of a ``tests/hidden_*.py`` module (``hidden_highcard.py``), so a new hidden-
information game is covered without editing this file.

The routes: the web app's server-held game as a seat and as a spectator (the JSON view:
position, text, legal moves, the drawing, the move list, the spec, the reasonings), an
agent's move streamed to a person's page (``think``: its ``info`` events and the ``move``
event, the card played aside), ``/api/position`` with no seat (a spectator), ``/api/start``,
the drawing itself, the terminal (``gamesearch play`` as a person's seat), and the game an
agent is handed (``seat_game``).

Which mutation each case was seen to catch (each reintroduced by hand once):

* ``test_the_start_holds_no_secret``: bridge's ``deal=`` default 1 (every game the same
  deal, and ``/api/games`` sending its four hands);
* ``test_web_seat_views`` / ``_spectator``: the session view's ``game`` written from the
  spec (``bridge:deal=5`` rebuilds every hand); ``seat_view`` using ``game.render`` for a
  spectator; the drawing given ``seat=-1``/no seat (Oh Hell drew every hand face up);
* ``test_position_route_is_a_spectators``: ``/api/position`` returning ``position``,
  ``text`` and the SVG of the full state;
* ``test_agent_move_events``: the ``move`` event's ``reasoning.withheld`` (the agent's
  other legal cards: its length in the suit led) and its ``nodes``/``value``/``depth``.
  (``info`` events carry only the seconds for such a game; no agent of a hidden-information
  game reports its iterations today, so that guard waits for one that will);
* ``test_terminal_as_a_seat``: ``gamesearch play`` printing ``render`` (every hand);
  ``test_terminal_agent_lines``: an agent's line with its worlds, averages and nodes;
* ``test_agents_get_a_game_without_secrets``: ``play_game`` handing agents the holder's
  game (``bridge:deal=N``: ``initial_state()`` is the deal).
"""

from __future__ import annotations

import importlib
import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamesearch.agents import Agent, RandomAgent, play_game, seat_game
from gamesearch.errors import GameError
from gamesearch.game import CHANCE, Game, sample_outcome
from gamesearch.games import available_games, get_game

TESTS = Path(__file__).parent


#: the tests' own hidden-information games, registered while this module runs: name ->
#: (target, description)
OWN = {path.stem.removeprefix("hidden_"): (
    f"{path.stem}:{type(importlib.import_module(path.stem).GAME).__name__}",
    f"the tests' hidden-information game {path.stem}")
    for path in sorted(TESTS.glob("hidden_*.py"))}


def hidden_games() -> list[tuple[str, Game[Any, Any]]]:
    """Every game with hidden information: the registry's, and the tests' own."""
    out = []
    for name in sorted(available_games()):
        try:
            game = get_game(name)
        except GameError:  # an optional dependency is missing
            continue
        if game.observation() is not None:
            out.append((name, game))
    for name, (target, _) in OWN.items():
        module, _, attr = target.partition(":")
        out.append((name, getattr(importlib.import_module(module), attr)()))
    return out


GAMES = hidden_games()
IDS = [name for name, _ in GAMES]


@pytest.fixture(autouse=True, scope="module")
def _own_games() -> Iterator[None]:
    """The tests' own games registered (by name, as a user's are) for this module only."""
    from gamesearch import games

    for name, (target, description) in OWN.items():
        games.register(name, target, description)
    yield
    for name in OWN:
        games.GAMES.pop(name, None)


def test_every_hidden_game_is_covered() -> None:
    """bridge, Oh Hell and the tests' own hidden game are all here (a registry that lost
    its observations would make every other test here vacuous)."""
    names = " ".join(IDS)
    assert "bridge" in names and "ohhell" in names and "highcard" in names


def pairs(game: Game[Any, Any], seed: int, count: int
          ) -> Iterator[tuple[Any, Any, int]]:
    """``(s1, s2, seat)``: states reached by random play, and a state of the same
    information set of ``seat`` drawn by the observation's sampler, different from the
    first (the other hands dealt again); a seat whose set holds one state is skipped."""
    observation = game.observation()
    assert observation is not None
    rng = random.Random(seed)
    found = 0
    for _ in range(200):
        state = game.initial_state()
        plies = rng.randrange(0, 40)
        for _ in range(plies + 200):
            if game.is_terminal(state) or (game.to_move(state) != CHANCE and plies <= 0):
                break
            if game.to_move(state) == CHANCE:
                action = sample_outcome(game, state, rng)
            else:
                action = rng.choice(list(game.actions(state)))
                plies -= 1
            state = game.result(state, action)
        if game.is_terminal(state) or game.to_move(state) == CHANCE:
            continue
        for seat in rng.sample(range(game.num_players), game.num_players):
            view = observation.observe(state, seat)
            for _ in range(20):
                other = observation.sample(view, rng)
                if other != state:
                    break
            else:
                continue
            assert observation.observe(other, seat) == view  # (the sampler's contract)
            yield state, other, seat
            found += 1
            break
        if found >= count:
            return


def no_secret_at_start(game: Game[Any, Any]) -> bool:
    """The game's start holds no private card: it is chance's move (the deal is to come),
    or every seat's information set there holds the start alone."""
    start = game.initial_state()
    if game.is_terminal(start) or game.to_move(start) == CHANCE:
        return True
    observation = game.observation()
    assert observation is not None
    rng = random.Random(0)
    return all(observation.sample(observation.observe(start, seat), rng) == start
               for seat in range(game.num_players) for _ in range(5))


def scrub(data: Any) -> Any:
    """An answer with its ids and timings taken out."""
    if isinstance(data, dict):
        return {k: scrub(v) for k, v in data.items()
                if k not in ("id", "seconds", "budget", "nps", "elapsed")}
    if isinstance(data, list):
        return [scrub(v) for v in data]
    return data


@pytest.mark.parametrize(("name", "game"), GAMES, ids=IDS)
def test_the_start_holds_no_secret(name: str, game: Game[Any, Any]) -> None:
    """The game the registry makes (what ``/api/games``, ``gamesearch play`` and every new
    web game start from) holds no private card at its start: every seat sees there what a
    spectator sees (the deal is chance's, to come)."""
    assert no_secret_at_start(game), name
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from gamesearch.interfaces.web import create_app

    entries = {g["name"]: g for g in TestClient(create_app()).get("/api/games").json()["games"]}
    if name in entries:
        assert entries[name]["start"] == ""


# ----- the web app ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def app() -> Any:
    pytest.importorskip("fastapi")
    from gamesearch.interfaces.web import create_app

    return create_app()


@pytest.fixture(scope="module")
def client(app: Any) -> Any:
    from fastapi.testclient import TestClient

    return TestClient(app)


def held_game(app: Any, game: Game[Any, Any], spec: str, state: Any,
              agents: list[str] | None = None) -> str:
    """A game the server holds, at ``state`` (as if played there), every seat a person
    unless ``agents`` says otherwise; its id is fixed, so that answers compare whole."""
    from gamesearch.interfaces.web.sessions import Session

    session = Session("fixed-id", spec, game, "", state,
                      agents or ["human"] * game.num_players, 0.3, None)
    app.state.sessions.add(session)
    return session.id


@pytest.mark.parametrize(("name", "game"), GAMES, ids=IDS)
def test_web_seat_views(app: Any, client: Any, name: str, game: Game[Any, Any]) -> None:
    """``GET /api/play/{id}?seat=S``: the same bytes for two states of S's information
    set -- the position, text, legal moves, drawing, move list and spec."""
    for s1, s2, seat in pairs(game, 1, 6):
        answers = []
        for state in (s1, s2):
            gid = held_game(app, game, name, state)
            r = client.get(f"/api/play/{gid}", params={"seat": seat})
            assert r.status_code == 200, r.text
            answers.append(json.dumps(scrub(r.json()), sort_keys=True))
        assert answers[0] == answers[1], (name, seat)


@pytest.mark.parametrize(("name", "game"), GAMES, ids=IDS)
def test_web_spectator(app: Any, client: Any, name: str, game: Game[Any, Any]) -> None:
    """A page with no seat (a spectator) sees the public part only: the same bytes for two
    states any seat cannot tell apart (the public part is coarser than a seat's)."""
    for s1, s2, _seat in pairs(game, 2, 6):
        answers = []
        for state in (s1, s2):
            gid = held_game(app, game, name, state)
            answers.append(json.dumps(scrub(client.get(f"/api/play/{gid}").json()),
                                      sort_keys=True))
        assert answers[0] == answers[1], name


@pytest.mark.parametrize(("name", "game"), GAMES, ids=IDS)
def test_position_route_is_a_spectators(client: Any, name: str, game: Game[Any, Any]
                                        ) -> None:
    """``/api/position`` and ``/api/start`` hold no game: asked about a position of a
    hidden-information game they answer a spectator's view, whatever the hands."""
    for s1, s2, _seat in pairs(game, 3, 4):
        answers = []
        for state in (s1, s2):
            text = game.format_state(state)
            r = client.get("/api/position", params={"game": name, "position": text})
            assert r.status_code == 200, r.text
            start = client.get("/api/start", params={"game": name, "position": text})
            answers.append(json.dumps([scrub(r.json()), start.json().get("position")],
                                      sort_keys=True))
        assert answers[0] == answers[1], name


@pytest.mark.parametrize(("name", "game"), GAMES, ids=IDS)
def test_drawings_take_the_seat(name: str, game: Game[Any, Any]) -> None:
    """The drawing of a seat (and of a spectator, the default) is the same for two states
    of the seat's information set."""
    if game.drawing() is None:
        pytest.skip(f"{name} has no drawing")
    for s1, s2, seat in pairs(game, 4, 6):
        assert game.render_svg(s1, seat=seat) == game.render_svg(s2, seat=seat), name
        assert game.render_svg(s1) == game.render_svg(s2), name


def think_events(client: Any, gid: str, ply: int, seat: int) -> list[tuple[str, Any]]:
    with client.stream("GET", f"/api/play/{gid}/think",
                       params={"ply": ply, "seat": seat}) as r:
        assert r.status_code == 200, r.read()
        text = "".join(r.iter_text())
    out = []
    for block in text.strip().split("\n\n"):
        kind, data = block.split("\n", 1)
        out.append((kind.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return out


@pytest.mark.parametrize(("name", "game"), GAMES, ids=IDS)
def test_agent_move_events(app: Any, client: Any, name: str, game: Game[Any, Any]) -> None:
    """An agent's move as a person's page receives it: the ``start`` and ``info`` events and
    the ``move`` event but for the card played (public once played) and the view after it
    are the same for two states of the person's information set -- no values, nodes,
    reasoning or counts of the agent's other cards before the game is over."""
    checked = 0
    for s1, s2, seat in pairs(game, 5, 12):
        mover = game.to_move(s1)
        if mover == seat:
            continue
        agents = ["human" if k == seat else "pimc:worlds=3,seed=1" for k in
                  range(game.num_players)]
        answers = []
        for state in (s1, s2):
            gid = held_game(app, game, name, state, agents)
            events = think_events(client, gid, 0, seat)
            kept = []
            for kind, data in events:
                if kind == "move":
                    data = {k: v for k, v in data.items() if k not in ("move", "text", "view")}
                    if "view" not in events[-1][1]:
                        pytest.fail(f"{name}: no view in the move event")
                    over = events[-1][1]["view"]["terminal"]
                    if over:
                        break
                kept.append((kind, scrub(data)))
            else:
                answers.append(json.dumps(kept, sort_keys=True))
        if len(answers) == 2:
            assert answers[0] == answers[1], (name, seat)
            checked += 1
        if checked >= 3:
            break
    assert checked, f"{name}: no agent move checked"


# ----- the terminal and the agents -------------------------------------------------------------
@pytest.mark.parametrize(("name", "game"), GAMES, ids=IDS)
def test_terminal_as_a_seat(monkeypatch: pytest.MonkeyPatch, name: str,
                            game: Game[Any, Any]) -> None:
    """``gamesearch play`` with a person at seat S, started from either state of S's
    information set, prints the same until the person's first prompt (answered ``q``)."""
    from gamesearch.interfaces.cli import main

    checked = 0
    for s1, s2, seat in pairs(game, 6, 8):
        if game.to_move(s1) != seat:
            continue
        outputs = []
        for state in (s1, s2):
            specs = ["human" if k == seat else "random:seed=1"
                     for k in range(game.num_players)]
            out = io.StringIO()
            monkeypatch.setattr("builtins.input", lambda prompt="": "q")
            monkeypatch.setattr("sys.stdout", out)
            code = main(["play", name, "--position", game.format_state(state),
                         "--agents", *specs, "--seed", "1"])
            assert code == 0
            outputs.append(out.getvalue())
        assert outputs[0] == outputs[1], (name, seat)
        checked += 1
    assert checked, f"{name}: no position with the person to move"


@pytest.mark.parametrize(("name", "game"), GAMES, ids=IDS)
def test_terminal_agent_lines(monkeypatch: pytest.MonkeyPatch, name: str,
                              game: Game[Any, Any]) -> None:
    """Before the game ends, ``gamesearch play`` tells a person an agent's move and nothing
    else: its values, worlds, nodes and seconds depend on its hand (a line that is the same
    for every state of the person's set, but for the move itself)."""
    from gamesearch.interfaces.cli import main

    checked = 0
    for s1, _s2, seat in pairs(game, 7, 8):
        if game.to_move(s1) == seat:
            continue
        specs = ["human" if k == seat else "pimc:worlds=2,seed=1"
                 for k in range(game.num_players)]
        out = io.StringIO()
        monkeypatch.setattr("builtins.input", lambda prompt="": "q")
        monkeypatch.setattr("sys.stdout", out)
        assert main(["play", name, "--position", game.format_state(s1), "--agents", *specs,
                     "--seed", "1"]) == 0
        lines = [line for line in out.getvalue().splitlines() if " plays " in line]
        assert lines, out.getvalue()
        for line in lines:
            assert re.fullmatch(r".*\(player \d\) plays \S+", line), line
        checked += 1
    assert checked, f"{name}: no position with an agent to move"


class Spy(Agent):
    """An agent that keeps what it is handed and tries every public method of the game on
    it; it plays at random."""

    name = "spy"

    def __init__(self, seed: int) -> None:
        self.random = RandomAgent(seed=seed)
        self.seen: list[tuple[Game[Any, Any], Any]] = []

    def choose(self, game: Game[Any, Any], state: Any, limit: Any = None) -> Any:
        self.seen.append((game, state))
        return self.random.choose(game, state, limit)


def probe(game: Game[Any, Any]) -> dict[str, str]:
    """What every public method of ``game`` that takes no argument answers (and the public
    attributes), as text."""
    out = {}
    for attr in sorted(dir(game)):
        if attr.startswith("_"):
            continue
        try:
            value = getattr(game, attr)
            if callable(value):
                value = value()
        except Exception as exc:  # (a method that needs arguments)
            value = type(exc).__name__
        text = repr(value)
        out[attr] = re.sub(r" at 0x[0-9a-f]+", "", text)
    return out


@pytest.mark.parametrize(("name", "game"), GAMES, ids=IDS)
def test_agents_get_a_game_without_secrets(name: str, game: Game[Any, Any]) -> None:
    """``play_game`` hands each agent a game in which no public method names the deal:
    the game handed in two games of different deals answers every public method alike, its
    start holds no private card, and it is not the holder's object (its caches)."""
    probes = []
    for seed in (1, 2):
        spies = [Spy(seed) for _ in range(game.num_players)]
        play_game(game, list(spies), rng=random.Random(seed), max_moves=400)
        handed = {id(g): g for spy in spies for g, _ in spy.seen}
        assert handed, name
        for g in handed.values():
            assert g is not game, f"{name}: the agents hold the holder's game"
            probes.append(probe(g))
            assert no_secret_at_start(g), name
    assert all(p == probes[0] for p in probes), name


def test_a_fixed_bridge_deal_stays_the_holders() -> None:
    """``bridge:deal=N`` fixes the board for the one who holds the game; the agents get
    ``bridge``, the same object for deals 5 and 6, starting before the deal."""
    handed = [seat_game(get_game(f"bridge:contract=3N,declarer=S,deal={n}")) for n in (5, 6)]
    assert probe(handed[0]) == probe(handed[1])
    assert handed[0].spec == "bridge:contract=3N,declarer=S"
    assert handed[0].to_move(handed[0].initial_state()) == CHANCE

