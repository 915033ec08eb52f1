"""Games the server holds: a game id in the URL, the server keeping the moves, each seat
shown its own view.

The browser used to hold the game and send every move with every request; for a game with
hidden information that would hand a player the other hands. Here the server keeps each
game (:class:`Session`: the game spec, the start, the agents of the seats, the moves) in a
bounded in-memory store (:class:`SessionStore`: the most recently used ``limit`` games,
each forgotten ``ttl`` seconds after its last use), and answers a request with what one seat
may see, through the single function :func:`seat_view`: the whole position in a game of
perfect information, the seat's observation in one with hidden cards (bridge, Oh Hell),
whose agents' seats are never shown to a page (403) and whose agents' reasoning (its
values, nodes and counts too) is shown only once the game is over. Everything a page gets
of such a game is computed from the seat's observation (``tests/test_information_sets.py``
holds every route to it).

A move names the ply it expects (the number of moves played so far): a stale one (a double
click, a second tab, a click while the engine thinks) is refused with 409 and changes
nothing, so a person can never play the engine's move. Chance nodes are resolved by the
server (the die of Pig is rolled here, not in the browser). The routes and their JSON are in
``docs/web.md`` and ``docs/json.md``.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Query
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel

from ...agents import seat_game
from ...agents import seat_view as agent_view
from ...capabilities import MatchHooks
from ...errors import GameError, echo
from ...game import CHANCE, Game
from ...search import Limit, SearchResult
from . import validation
from .gate import SearchGate
from .thinking import info_event, report_fields, stream_move
from .validation import Caps, WebInputError

#: the games a server keeps at most (the least recently used goes first)
MAX_GAMES = 1000
#: seconds a game is kept after its last use
TTL = 24 * 3600.0


class StaleMove(WebInputError):
    """A request made for a ply that is no longer the game's (HTTP 409)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, status=409)


class UnknownGame(WebInputError):
    """No game with that id (never made, or forgotten by the store): HTTP 404."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {echo(game_id)}: no such game on this server (games are "
                         f"kept {TTL / 3600:g} h after their last move, the {MAX_GAMES} most "
                         "recent): start a new one", status=404)


@dataclass
class Move:
    """One ply: the state before it, the action, who made it (:data:`CHANCE` for chance)."""

    before: Any
    action: Any
    mover: int


@dataclass
class Session:
    """A game the server holds: its settings and its moves."""

    id: str
    spec: str
    game: Game[Any, Any]
    start_text: str
    start: Any
    agents: list[str]
    time: float | None
    clock: str | None
    moves: list[Move] = field(default_factory=list)
    #: what each agent's sampling search considered (:func:`.thinking.sampled_reasoning`),
    #: by the ply of its move; with hidden cards shown whole only once the game is over
    reasonings: dict[int, dict[str, Any]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: the seat that resigned (a two-player game ends there, the other seat winning)
    resigned: int | None = None

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def state(self) -> Any:
        return self.state_at(self.ply)

    def state_at(self, ply: int) -> Any:
        if ply < len(self.moves):
            return self.moves[ply].before
        if not self.moves:
            return self.start
        last = self.moves[-1]
        return self.game.result(last.before, last.action)

    def is_human(self, seat: int) -> bool:
        return self.agents[seat].partition(":")[0].strip().lower() == "human"

    def expect(self, ply: int | None) -> None:
        """Refuse a request made for another ply than the game's (409), or once a player
        has resigned."""
        if ply is None:
            raise WebInputError("ply: missing; a request names the ply it expects (the "
                                "number of moves played so far)")
        if self.resigned is not None:
            raise StaleMove(f"player {self.resigned + 1} resigned: the game is over")
        if ply != self.ply:
            raise StaleMove(f"stale request: it was made at ply {ply}, the game is at ply "
                            f"{self.ply}; nothing was played")

    def push(self, action: Any, mover: int) -> None:
        self.moves.append(Move(self.state, action, mover))

    def roll(self, rng: random.Random) -> None:
        """Resolve chance nodes (the server throws the dice) until someone must choose."""
        g = self.game
        s = self.state
        while not g.is_terminal(s) and g.to_move(s) == CHANCE:
            outcomes = list(g.chance_outcomes(s))
            a = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            self.push(a, CHANCE)
            s = self.state


class SessionStore:
    """The games the server holds, in memory: at most ``limit``, least recently used first
    out, each forgotten ``ttl`` seconds after its last use."""

    def __init__(self, limit: int = MAX_GAMES, ttl: float = TTL) -> None:
        self.limit = limit
        self.ttl = ttl
        self._games: OrderedDict[str, tuple[Session, float]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def add(self, session: Session) -> None:
        with self._lock:
            self._games[session.id] = (session, time.monotonic())
            self._evict()

    def get(self, game_id: str) -> Session:
        with self._lock:
            self._evict()
            entry = self._games.get(game_id)
            if entry is None:
                raise UnknownGame(game_id)
            self._games[game_id] = (entry[0], time.monotonic())
            self._games.move_to_end(game_id)
            return entry[0]

    def _evict(self) -> None:
        now = time.monotonic()
        while self._games:
            oldest_id, (_s, used) = next(iter(self._games.items()))
            if len(self._games) > self.limit or now - used > self.ttl:
                del self._games[oldest_id]
            else:
                break


def seat_view(game: Game[Any, Any], state: Any, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see of ``state`` (``None``: a spectator): the whole position in a
    game of perfect information (or once the game is over); in a game with hidden
    information (bridge, Oh Hell) only what is computed from the seat's observation
    ``observe(state, seat)`` (a spectator's: the public part), never from the state. The
    drawing is added by the caller, with the same seat."""
    terminal = game.is_terminal(state)
    to_move = None if terminal else game.to_move(state)
    observation = game.observation()
    if observation is not None and not terminal:  # hidden information: the seat's own view
        own = observation.observe(state, seat)
        return {
            "position": "",
            "to_move": to_move,
            "terminal": terminal,
            "legal": [game.format_action(state, a) for a in observation.actions(own)]
            if seat is not None and to_move == seat else [],
            "text": observation.describe(own),
        }
    return {
        "position": game.format_state(state),
        "to_move": to_move,
        "terminal": terminal,
        "legal": [] if terminal or to_move == CHANCE else game.legal_action_strings(state),
        "text": game.render(state),
    }


def shown_spec(game: Game[Any, Any], spec: str) -> str:
    """The game's spec as a page may see it: with hidden information the public game's
    (bridge: a fixed ``deal=`` is the holder's), else ``spec`` as given."""
    observation = game.observation()
    return spec if observation is None else observation.public_game().spec


def move_entry(game: Game[Any, Any], move: Move, ply: int, seat: int | None) -> dict[str, Any]:
    """One ply of the move list as ``seat`` may see it (perfect information: all of it;
    hidden information: chance's deals are not shown)."""
    if move.mover == CHANCE and game.observation() is not None:
        return {"ply": ply, "move": "deal", "text": "deal", "player": move.mover}
    return {"ply": ply, "move": game.format_action(move.before, move.action),
            "text": game.describe_action(move.before, move.action),
            "player": move.mover}


def seat_name(game: Game[Any, Any], player: int) -> str:
    """``player 1``, with the colour the game gives the seat when it names one
    (``MatchHooks.seat_names``; Rolit: ``player 1 (red)``). Seats are numbered from 1 for
    people, everywhere the web app writes them."""
    names = seat_names(game)
    colour = f" ({names[player]})" if names and 0 <= player < len(names) else ""
    return f"player {player + 1}{colour}"


def seat_names(game: Game[Any, Any]) -> list[str] | None:
    """Each seat's colour where the game names one (``MatchHooks.seat_names``), else None."""
    hooks = game.match_hooks()
    names = hooks.seat_names if hooks is not None else None
    return list(names) if names else None


def _points(value: float) -> str:
    return f"{value:g} point{'' if abs(value) == 1 else 's'}"


def result_text(game: Game[Any, Any], state: Any) -> str:
    """``player 1 wins``, ``draw``, with the game's reason (``draw by stalemate``); a game
    of partnerships (``MatchHooks.teams``) by its teams (bridge: ``N-S wins: 4S by South,
    10 tricks (=), N-S +420``, from ``team_names`` and ``table_outcome``)."""
    returns = list(game.returns(state))
    hooks = game.match_hooks()
    if hooks is not None and hooks.teams:
        return _team_result(game, state, returns, hooks)
    best = max(returns)
    winners = [i for i, r in enumerate(returns) if r == best]
    if len(returns) > 2 and len(winners) < len(returns):  # every seat's rank, ties shared
        ranks = [1 + sum(o > r for o in returns) for r in returns]
        text = ", ".join(f"{k}. {seat_name(game, p)}" for k, p in sorted(
            (k, p) for p, k in enumerate(ranks)))
    else:
        text = ("draw" if len(winners) == len(returns) else
                " and ".join(seat_name(game, w) for w in winners) + " wins")
    why = game.termination(state)
    if why:
        text += " by " + why
    if hooks is not None and hooks.points and len(winners) < len(returns):
        text += f" ({_points(best)})"  # backgammon: a gammon is 2 points
    return text


def _team_result(game: Game[Any, Any], state: Any, returns: list[float],
                 hooks: MatchHooks) -> str:
    teams = hooks.teams or ()
    names = hooks.team_names or tuple(f"team {k + 1}" for k in range(len(teams)))
    totals = [returns[team[0]] for team in teams]
    best = max(totals)
    winners = [names[k] for k, t in enumerate(totals) if t == best]
    members = "; ".join(f"{names[k]}: " + " and ".join(seat_name(game, p) for p in team)
                        for k, team in enumerate(teams))
    text = "draw" if len(winners) == len(teams) else " and ".join(winners) + " wins"
    if hooks.table_outcome is not None:
        text += ": " + hooks.table_outcome(state).text
    elif game.termination(state):
        text += " by " + str(game.termination(state))
    return f"{text} ({members})"


def view(session: Session, seat: int | None, ply: int | None = None,
         flip: bool = False) -> dict[str, Any]:
    """The game as ``seat`` sees it at ``ply`` (``None``: now): the settings, the move list,
    the position (:func:`seat_view`) and its drawing, and the result once it is over."""
    g = session.game
    shown = session.ply if ply is None else ply
    if not 0 <= shown <= session.ply:
        raise WebInputError(f"ply {shown}: the game has {session.ply} moves (0 to "
                            f"{session.ply} can be shown)")
    s = session.state_at(shown)
    out: dict[str, Any] = {
        "id": session.id, "game": shown_spec(g, session.spec), "start": session.start_text,
        "agents": list(session.agents), "time": session.time, "clock": session.clock,
        "players": g.num_players, "seat": seat, "ply": session.ply, "shown": shown,
        "seat_names": seat_names(g),
        "moves": [move_entry(g, m, i + 1, seat) for i, m in enumerate(session.moves)],
        "line": g.format_line(session.start, [m.action for m in session.moves[:shown]]),
    }
    hidden = g.observation() is not None and not g.is_terminal(s)
    if hidden:  # the line and the start would show every hand
        out["line"] = out["start"] = ""
    out.update(seat_view(g, s, seat))
    if shown < session.ply:  # an earlier position is shown, not played on
        out["legal"] = []
    last = session.moves[shown - 1] if shown else None
    last_text = g.format_action(last.before, last.action) if last else None
    out["last"] = last_text
    if hidden and last is not None and last.mover == CHANCE:
        out["last"] = last_text = None
    # the drawing is the seat's (a spectator's: None), every hand once the game is over
    out["svg"] = g.render_svg(s, last=last_text, flip=flip, interactive=bool(out["legal"]),
                              seat=seat if hidden else "all")
    if not hidden:  # every agent's reasoning so far (hidden cards: once the game is over)
        out["reasonings"] = [session.reasonings[k] for k in sorted(session.reasonings)
                             if k <= shown]
    out["returns"] = list(g.returns(s)) if out["terminal"] else None
    out["result"] = result_text(g, s) if out["terminal"] else None
    if session.resigned is not None and shown == session.ply:  # over by resignation
        loser = session.resigned
        out.update(terminal=True, to_move=None, legal=[],
                   returns=[-g.max_utility if p == loser else g.max_utility
                            for p in range(g.num_players)],
                   result=f"{seat_name(g, 1 - loser)} wins by resignation "
                          f"({seat_name(g, loser)} resigned)")
        out["svg"] = g.render_svg(s, last=last_text, flip=flip, interactive=False,
                                  seat=seat if hidden else "all")
    out["resigned"] = session.resigned
    return out


class NewGame(BaseModel):
    """``POST /api/play``: a game spec, the agents of the seats, a start and the time."""

    game: str
    agents: list[str] | None = None
    position: str | None = None
    time: str | float | None = None
    clock: str | None = None


class PlayMove(BaseModel):
    """``POST /api/play/{id}/move``: the move and the ply it is made at."""

    move: str
    ply: int | None = None


class Resign(BaseModel):
    """``POST /api/play/{id}/resign``: the ply it is made at."""

    ply: int | None = None


class Undo(BaseModel):
    """``POST /api/play/{id}/undo``: take back to the last person's move."""

    ply: int | None = None


def _clock(text: str | None) -> tuple[float, float] | None:
    """``BASE+INC`` seconds (``60+1``, ``300``), or ``None``."""
    if text is None or not text.strip():
        return None
    base, _, inc = text.strip().partition("+")
    try:
        b = validation.number("clock", base)
        i = validation.number("clock", inc) if inc.strip() not in ("", "0") else 0
    except GameError:
        b = None
        i = 0
    if b is None:
        raise WebInputError(f"clock {echo(text)}: expected BASE+INC in seconds, e.g. 60+1")
    return float(b), float(i or 0)


def create(store: SessionStore, body: NewGame, caps: Caps, rng: random.Random) -> Session:
    """A new game: everything checked now (the game spec, the start, each seat's agent,
    the time), so that a bad input is refused before the first move."""
    spec = (validation.text("game", body.game, caps) or "").strip()
    g = validation.game(spec, caps)  # the spec is passed whole: get_game reads its options
    start_text = (validation.text("position", body.position, caps) or "").strip()
    s, agents = validation.new_game(g, start_text, list(body.agents or []), caps,
                                    person_first=True)
    seconds = validation.number("time", None if body.time is None else str(body.time))
    validation.capped_time(float(seconds) if seconds is not None else None, caps)
    _clock(body.clock)
    session = Session(secrets.token_urlsafe(9), spec, g, start_text, s, agents,
                      float(seconds) if seconds is not None else None,
                      (body.clock or "").strip() or None)
    session.roll(rng)
    store.add(session)
    return session


def add_routes(app: FastAPI, caps: Caps, gate: SearchGate, store: SessionStore) -> None:
    """The routes of the games the server holds (``/api/play``)."""
    rng = random.Random()  # the server's dice
    _add_move_routes(app, caps, store, rng)
    _add_think_route(app, caps, gate, store, rng)


def _add_move_routes(app: FastAPI, caps: Caps, store: SessionStore, rng: random.Random
                     ) -> None:
    """Start a game, see it, play a person's move, take back."""
    @app.post("/api/play", summary="start a game the server holds", status_code=201)
    def new_game(body: NewGame, seat: int | None = None,
                 flip: str | None = None) -> JSONResponse:
        """Checks everything (the game spec, the start position, every seat's agent spec,
        the time) and answers the game as ``seat`` sees it at ply 0 (missing: a
        spectator), with its ``id``. A bad input is a 400 with the library's message,
        before any move."""
        session = create(store, body, caps, rng)
        _check_seat(session, seat)
        return JSONResponse(view(session, seat, None, validation.flag("flip", flip)),
                            status_code=201)

    @app.get("/api/play/{game_id}", summary="a game as a seat sees it")
    def get_game(game_id: str, seat: int | None = None, ply: int | None = None,
                 flip: str | None = None) -> dict[str, Any]:
        """The game ``game_id`` as ``seat`` sees it (missing: a spectator), at ``ply``
        (missing: now; an earlier ply shows that position, with no legal moves)."""
        session = store.get(game_id)
        _check_seat(session, seat)
        with session.lock:
            return view(session, seat, ply, validation.flag("flip", flip))

    @app.post("/api/play/{game_id}/move", summary="a person's move, at the ply expected")
    def play(game_id: str, body: PlayMove, seat: int | None = None,
             flip: str | None = None) -> dict[str, Any]:
        """Plays ``move`` (the game's notation) if the game is still at ``ply`` (else 409:
        nothing played) and the player to move is a person (else 409); then the server
        throws any dice. Answers the new view."""
        session = store.get(game_id)
        _check_seat(session, seat)
        with session.lock:
            session.expect(body.ply)
            g = session.game
            s = session.state
            if g.is_terminal(s):
                raise StaleMove("the game is over: no move to play")
            mover = g.to_move(s)
            if not session.is_human(mover):
                raise StaleMove(f"player {mover + 1} is {session.agents[mover]!r}: the engine "
                                "moves, not a person")
            # a page with hidden cards plays its own seat only; with perfect information
            # one page may play every person's seat (hot seat)
            if seat is not None and g.observation() is not None and seat != mover:
                raise StaleMove(f"seat {seat}: it is player {mover + 1}'s move")
            move = validation.text("move", body.move, caps) or ""
            try:
                action = g.parse_action(s, move)
            except GameError as exc:
                raise WebInputError(str(exc)) from None
            session.push(action, mover)
            session.roll(rng)
            return view(session, seat, None, validation.flag("flip", flip))

    @app.post("/api/play/{game_id}/resign", summary="a person resigns (two-player games)")
    def resign(game_id: str, body: Resign, seat: int | None = None,
               flip: str | None = None) -> dict[str, Any]:
        """The person of ``seat`` (missing: the person to move, else the only person)
        resigns at ``ply`` (else 409): the game is over, the other player wins. Two-player
        games only (with more, the others would play on without a seat)."""
        session = store.get(game_id)
        _check_seat(session, seat)
        with session.lock:
            session.expect(body.ply)
            g = session.game
            if g.num_players != 2:
                raise WebInputError(f"{g.name} has {g.num_players} players: resigning is "
                                    "offered in two-player games")
            if g.is_terminal(session.state):
                raise StaleMove("the game is over: nothing to resign")
            people = [p for p in range(2) if session.is_human(p)]
            mover = g.to_move(session.state)
            who = seat if seat is not None else mover if mover in people else (
                people[0] if len(people) == 1 else None)
            if who is None or not session.is_human(who):
                raise WebInputError("only a person resigns: name the person's seat",
                                    status=409)
            session.resigned = who
            return view(session, seat, None, validation.flag("flip", flip))

    @app.post("/api/play/{game_id}/undo", summary="take back to the last person's move")
    def undo(game_id: str, body: Undo, seat: int | None = None,
             flip: str | None = None) -> dict[str, Any]:
        """Takes back moves until a person's move has been taken back (with no person at
        the board: one move), if the game is still at ``ply`` (else 409)."""
        session = store.get(game_id)
        _check_seat(session, seat)
        with session.lock:
            if session.resigned is not None and body.ply == session.ply:
                session.resigned = None  # taking back a resignation: the game goes on
                return view(session, seat, None, validation.flag("flip", flip))
            session.expect(body.ply)
            anyone = any(session.is_human(p) for p in range(session.game.num_players))
            while session.moves:
                m = session.moves.pop()
                # back to a choice, never to a die in the air
                if m.mover != CHANCE and (not anyone or session.is_human(m.mover)):
                    break
            for k in [k for k in session.reasonings if k > session.ply]:
                del session.reasonings[k]  # the moves taken back took their reasoning
            return view(session, seat, None, validation.flag("flip", flip))


def _add_think_route(app: FastAPI, caps: Caps, gate: SearchGate, store: SessionStore,
                     rng: random.Random) -> None:
    """The engine's move, its thinking streamed, played by the server."""
    @app.get("/api/play/{game_id}/think", summary="the engine's move, its thinking streamed")
    async def think(game_id: str, ply: int | None = None, seat: int | None = None,
                    clock: str | None = Query(None, max_length=40),
                    increment: str | None = Query(None, max_length=40)) -> StreamingResponse:
        """Server-sent events, as ``/api/think``: ``start``, ``info`` per iteration, then
        ``move`` (the move played, and the new ``view``) or ``error``. Refused with 409 when
        the game is not at ``ply`` or a person is to move. The engine's move is played by
        the server only if the game is still at ``ply`` when the search ends. ``clock``:
        the engine's remaining seconds (the page keeps the clocks)."""
        session = store.get(game_id)
        _check_seat(session, seat)
        with session.lock:
            session.expect(ply)
            g = session.game
            s = session.state
            history_last = session.moves[-1] if session.moves else None
        if g.is_terminal(s):
            raise StaleMove("the game is over: no move to think about")
        player = g.to_move(s)
        if session.is_human(player):
            raise StaleMove(f"player {player + 1} is a person: the engine does not move")
        spec = session.agents[player]
        stop = threading.Event()
        remaining = validation.number("clock", clock)
        if remaining is not None:
            inc = validation.number("increment", increment) if increment not in (
                None, "", "0") else 0
            clocks = tuple(float(remaining) for _ in range(g.num_players))
            limit = Limit(time=caps.time, clocks=clocks,
                          increments=tuple(float(inc or 0) for _ in clocks), stop=stop)
        else:
            limit = Limit(time=session.time or 1.0, stop=stop)
        seconds = limit.budget(player)[0]
        last = (g.format_action(history_last.before, history_last.action)
                if history_last else None)
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

        hidden = g.observation() is not None

        def info(r: SearchResult) -> None:
            # with hidden cards an iteration's depth, values and nodes tell the agent's
            # hand: only that it is thinking, until the game is over
            data = {"seconds": round(r.seconds, 4)} if hidden else info_event(g, s, r, last)
            loop.call_soon_threadsafe(events.put_nowait, ("info", data))

        seated = seat_game(g)  # (hidden information: the rules without the holder's secrets)
        agent = await anyio.to_thread.run_sync(validation.agent, seated, spec, seconds, info,
                                               caps)

        def work() -> dict[str, Any]:
            start = time.perf_counter()
            with agent:  # one move, then the agent is closed (Agent's life cycle)
                action = agent.choose(seated, agent_view(g, s, g.to_move(s)), limit)
            out: dict[str, Any] = {"move": g.format_action(s, action),
                                   "text": g.describe_action(s, action), "agent": spec,
                                   "player": player,
                                   "seconds": round(time.perf_counter() - start, 4),
                                   "budget": round(seconds, 4)}
            fields = report_fields(g, s, out["move"], agent.report)
            full = fields.pop("reasoning", None)
            if not hidden:  # (hidden cards: value, depth, nodes and PV come with the end)
                out.update(fields)
            if stop.is_set():  # the page left (a reload): it asks again, at this ply
                raise StaleMove("the search was stopped: nothing was played")
            with session.lock:  # played only if nobody moved meanwhile
                session.expect(ply)
                session.push(action, player)
                if full is not None:
                    full = {"ply": session.ply, "player": player, "agent": spec,
                            "move": out["move"], **full}
                    session.reasonings[session.ply] = full
                    if not hidden or g.is_terminal(session.state):
                        out["reasoning"] = full
                session.roll(rng)
                out["view"] = view(session, seat)
            return out

        gate.reserve()

        return stream_move(gate, work, stop, events,
                           {"agent": spec, "player": player, "budget": round(seconds, 4)})


def _check_seat(session: Session, seat: int | None) -> None:
    """A seat of the game; with hidden information, a person's seat only (an agent's hand
    is not shown to the page: a spectator asks with no seat)."""
    if seat is not None and not 0 <= seat < session.game.num_players:
        raise WebInputError(f"seat {seat}: {session.game.name} has seats 0 to "
                            f"{session.game.num_players - 1}")
    if seat is not None and session.game.observation() is not None \
            and not session.is_human(seat):
        raise WebInputError(f"seat {seat} is played by {session.agents[seat]!r}: its hand "
                            "is not shown (ask as a person's seat, or with no seat)",
                            status=403)
