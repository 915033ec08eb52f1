"""The FastAPI application: pages, the JSON API, live streams (server-sent events).

:func:`create_app` builds it; ``gamesearch web`` serves it with uvicorn. Every endpoint
reads its inputs with :mod:`gamesearch.interfaces.web.validation` (the library's parsers,
the server's caps); a bad input is answered ``400 {"error": "<the library's one-line message>"}``, a
full server ``429`` with ``Retry-After``. The OpenAPI description is at ``/docs``.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import AsyncIterator, Callable
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

import anyio.to_thread
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    Response,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from ... import __version__
from ...agents import AGENT_KINDS, seat_game, seat_view
from ...argtypes import RANGES, Range
from ...errors import GameError, SearchTimeout, echo
from ...game import CHANCE, Game
from ...games import available_games
from ...games.trees import EXAMPLES
from ...search import ALGORITHMS, Limit, SearchResult
from ..analysis import (
    analyze,
    default_agent,
    default_algorithm,
    move_scores,
    solve_record,
)
from . import equilibria, learn, sessions, validation
from .gate import Busy, SearchGate
from .runs import RunCaps, Runs
from .sessions import seat_view as seat_view_of
from .sessions import shown_spec
from .thinking import info_event, report_fields, sse, stream_move
from .tournaments import Library
from .validation import Caps, WebInputError

STATIC = Path(str(resources.files("gamesearch.interfaces.web") / "static"))
PAGES = {"/": "index.html", "/play": "play.html", "/analyse": "analyse.html",
         "/analyze": "analyse.html", "/learn": "learn.html", "/tournaments": "tournaments.html",
         "/equilibria": "equilibria.html"}

#: where the scripts of /docs and /redoc are served
DOCS_STATIC = "/static-docs"

#: The manual (``docs/`` built by MkDocs: ``make docs``, and ``make run`` when missing),
#: served at ``/guide/``. Git-ignored; a wheel built after ``make docs`` carries it.
GUIDE = Path(str(resources.files("gamesearch.interfaces.web") / "guide"))

#: ``/guide/`` before the manual is built: how to build it (not an error of the server).
GUIDE_NOT_BUILT = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gamesearch: the manual is not built</title>
<link rel="stylesheet" href="/static/app.css"></head>
<body><main><div class="panel"><h1>The manual is not built yet</h1>
<p>This server serves the manual (the <code>docs/</code> folder of the repository, built by
MkDocs) at <code>/guide/</code>, and it has not been built here. In the repository:</p>
<pre>make docs        # builds it into src/gamesearch/interfaces/web/guide/
make run         # builds it when missing, then starts this app</pre>
<p>or, with the <code>docs</code> extra installed
(<code>pip install -e '.[docs]'</code>):</p>
<pre>mkdocs build --site-dir src/gamesearch/interfaces/web/guide</pre>
<p>then reload this page. The same pages read as Markdown in <code>docs/</code>, starting
with <code>docs/index.md</code>. <a href="/">Back to the app</a>.</p>
</div></main></body></html>
"""

Text = Annotated[str | None, Query(max_length=100_000)]


def _rss_mb() -> float | None:
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:  # pragma: no cover - not Linux
        return None
    return None


def _result_text(game: Game[Any, Any], state: Any) -> str:
    return sessions.result_text(game, state)  # with the game's reason (draw by stalemate)


def _labels(text: str | None) -> dict[str, str]:
    """``move=label,move=label`` (labels drawn at the moves: the solver's scores)."""
    out: dict[str, str] = {}
    for part in filter(None, (text or "").split(",")):
        key, eq, val = part.partition("=")
        if not eq or len(val) > 12:
            raise WebInputError(f"labels {part!r}: expected move=text (text of at most 12 "
                                "characters)")
        out[key.strip()] = val.strip()
    return out


def create_app(db: str | Path | None = None, *, caps: Caps | None = None, active: int = 2,
               queue: int = 8, guide: Path | None = None, runs: str = "loopback",
               run_caps: RunCaps | None = None, runs_folder: str | Path | None = None
               ) -> FastAPI:
    """The web app. ``db``: an arena results file, or a folder of them (read-only).
    ``caps``: what one request may ask for; ``active`` searches run at once and ``queue``
    more may wait, the next is refused with 429. ``guide``: the built manual's folder,
    served at ``/guide/`` (default :data:`GUIDE`). ``runs``: who may start a tournament
    from the page (``loopback``, ``anyone``, ``nobody``; :mod:`.runs`), within
    ``run_caps``, its results written in ``runs_folder`` (default: a new temporary
    folder)."""
    caps = caps or Caps()
    gate = SearchGate(active, queue)
    web_runs = Runs(runs, run_caps, Path(runs_folder) if runs_folder is not None else None)
    library = Library(db, extra=web_runs.files)
    assets = _docs_assets()
    app = FastAPI(
        title="gamesearch",
        # served by _add_docs from the installed assets; FastAPI's own pages (from a CDN)
        # only when the package carrying them is missing
        docs_url=None if assets else "/docs",
        redoc_url=None if assets else "/redoc",
        version=__version__,
        description="Play any game of the library against any agent, watch the search think, "
                    "replay the textbook's pruning, browse tournaments. The JSON API answers "
                    "with the objects the command line prints (`gamesearch analyze --json`, "
                    "`gamesearch solve --json`). Bad input: 400 with a one-line `error`; "
                    f"more than {active} searches running and {queue} waiting: 429.",
    )
    app.state.gate = gate
    app.state.caps = caps
    app.state.library = library
    app.state.runs = web_runs
    app.router.on_shutdown.append(web_runs.close)

    if assets:
        _add_docs(app, assets)
    _add_guide(app, GUIDE if guide is None else guide)
    for add in (
        _add_error_handlers,
        _add_pages,
        _add_game_routes,
        _add_thinking_routes,
        _add_analysis_routes,
        _add_learn_routes,
        _add_tournament_routes,
        _add_equilibria_routes,
        _add_status_routes,
    ):
        add(app, caps, gate, library)
    app.state.sessions = sessions.SessionStore()
    sessions.add_routes(app, caps, gate, app.state.sessions)
    return app


def _docs_assets() -> Path | None:
    """The folder of Swagger UI's and ReDoc's scripts, from the ``fastapi-offline`` package
    (``web`` extra: it carries swagger-ui-dist's bundle and redoc's standalone script), or
    ``None`` without it."""
    try:
        folder = Path(str(resources.files("fastapi_offline") / "static"))
    except ModuleNotFoundError:
        return None
    needed = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js")
    return folder if all((folder / name).is_file() for name in needed) else None


def _add_docs(app: FastAPI, assets: Path) -> None:
    """``/docs`` (Swagger UI) and ``/redoc`` with their scripts served by this server, so
    they work without the internet (FastAPI's defaults load them from a CDN)."""
    app.mount(DOCS_STATIC, StaticFiles(directory=assets), name="docs-static")
    oauth = app.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    async def swagger(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}", title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=f"{root}{oauth}",
            swagger_js_url=f"{root}{DOCS_STATIC}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{DOCS_STATIC}/swagger-ui.css",
            swagger_favicon_url=f"{root}{DOCS_STATIC}/favicon.png")

    @app.get(oauth, include_in_schema=False)
    async def swagger_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}", title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{DOCS_STATIC}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{DOCS_STATIC}/favicon.png", with_google_fonts=False)


def _add_guide(app: FastAPI, folder: Path) -> None:
    """The manual at ``/guide/``: the files of the built site (``index.html`` for a folder,
    the site's ``404.html`` for a missing page), or, while ``folder`` holds no built site,
    a page saying how to build it (404, never a server error). Looked at on every request,
    so a site built while the server runs is served at once."""
    files = StaticFiles(directory=folder, html=True, check_dir=False)
    not_built = HTMLResponse(GUIDE_NOT_BUILT, status_code=404)

    async def guide(scope: Any, receive: Any, send: Any) -> None:
        if (folder / "index.html").is_file():
            await files(scope, receive, send)
        else:
            await not_built(scope, receive, send)

    app.mount("/guide", guide, name="guide")


def _add_error_handlers(app: FastAPI, caps: Caps, gate: SearchGate, library: Library) -> None:
    """The errors of the app."""
    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        status = exc.status if isinstance(exc, WebInputError) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=429, headers={"Retry-After": "1"})

    @app.exception_handler(SearchTimeout)
    async def timeout(request: Request, exc: SearchTimeout) -> JSONResponse:
        return JSONResponse({"error": "not solved within this server's limits "
                             f"({caps.time:g} s, {caps.nodes} nodes); use the command line "
                             "`gamesearch solve` for this position"}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x not in ("query", "path"))
        return JSONResponse({"error": f"{where or 'request'}: {first.get('msg', 'invalid')}"},
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # unknown routes (404) and methods (405) in the app's one shape, not {"detail": ...}
        if exc.status_code == 404 and exc.detail == "Not Found":
            message = f"no such page or endpoint: {echo(request.url.path)} (see /docs)"
        elif exc.status_code == 405:
            message = f"method {request.method} not allowed here (see /docs)"
        else:
            message = str(exc.detail)
        return JSONResponse({"error": message}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RecursionError)
    async def too_deep(request: Request, exc: RecursionError) -> JSONResponse:
        return JSONResponse({"error": "the search went too deep for this server"},
                            status_code=400)


def _add_pages(app: FastAPI, caps: Caps, gate: SearchGate, library: Library) -> None:
    """The pages of the app."""
    def page(name: str) -> Callable[[], Any]:
        async def serve() -> FileResponse:
            return FileResponse(STATIC / name, media_type="text/html")
        return serve

    for route, name in PAGES.items():
        app.add_api_route(route, page(name), include_in_schema=False, methods=["GET"])
    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def _add_game_routes(app: FastAPI, caps: Caps, gate: SearchGate, library: Library) -> None:
    """The games of the app."""
    @app.get("/api/games", summary="games, algorithms and agents")
    def games() -> dict[str, Any]:
        """Every game of the library (with what a page needs to play it), the algorithms
        and the other agents, as ``gamesearch list --json`` names them."""
        out = []
        for name, (_target, desc) in available_games().items():
            try:
                g = validation.game(name, caps)
            except GameError:  # an optional dependency is missing (chess)
                continue
            gt = g.game_type
            out.append({"name": name, "description": desc, "players": g.num_players,
                        "options": [o.describe() for o in g.options],
                        "chance": gt.chance, "zero_sum": gt.zero_sum,
                        "notation": g.state_notation, "start": _safe_format(g),
                        "default_algorithm": default_algorithm(g),
                        "solvable": validation.solvable(g),
                        "default_agent": default_agent(g),
                        "seat_names": sessions.seat_names(g)})
        return {"games": out,
                "algorithms": {n: a.summary for n, a in ALGORITHMS.items()},
                "agents": AGENT_KINDS}

    gallery_cache: list[dict[str, Any]] = []

    @app.get("/api/gallery", summary="every game's picture, agents and a link to play it")
    def gallery() -> dict[str, Any]:
        """For the home page: each game's name, description, seats, its drawing of the
        start (``svg``, not interactive; a game with hidden information draws what a
        spectator sees before the deal: no card), the agent put against a person and the
        search ``analyze`` uses, and the address that plays it (a person against the
        game's default opponent)."""
        if not gallery_cache:
            for name, (_target, desc) in available_games().items():
                try:
                    g = validation.game(name, caps)
                except GameError:  # an optional dependency is missing (chess)
                    continue
                start = g.initial_state()
                hidden = g.observation() is not None
                svg = g.render_svg(start, interactive=False, seat=None if hidden else "all")
                opponent = default_agent(g)
                agents = ["human", *[opponent] * (g.num_players - 1)]
                gallery_cache.append({
                    "name": name, "description": desc, "players": g.num_players,
                    "hidden": hidden, "chance": g.game_type.chance, "svg": svg or "",
                    "opponent": opponent, "algorithm": default_algorithm(g),
                    "solvable": validation.solvable(g),
                    "play": "/play?" + "&".join([f"game={quote(name)}"] + [
                        f"agent={quote(a)}" for a in agents])})
        return {"games": gallery_cache}

    def _safe_format(g: Game[Any, Any]) -> str:
        """The start position, or "" with hidden information (a page starts such a game
        on the server, which deals: ``/api/play``)."""
        return "" if g.observation() is not None else g.format_state(g.initial_state())

    @app.get("/api/position", summary="a position: its picture, legal moves, result")
    def position(
        game: Text = None, position: Text = None, moves: Text = None, pv: Text = None,
        labels: Text = None, flip: Text = None,
    ) -> dict[str, Any]:
        """The position reached by ``moves`` (space-separated, the game's notation) from
        ``position`` (the game's position string; missing: the start): who moves, the
        legal moves, the SVG drawing (``pv``: moves to draw; ``labels``: ``move=text,...``),
        the text picture, and the result once the game is over."""
        g = validation.game(game, caps)
        s, history = validation.state(g, position, moves, caps)
        pv_actions: list[Any] = []
        if pv:
            t = s
            for word in validation.text("pv", pv, caps).split()[:40]:  # type: ignore[union-attr]
                if g.is_terminal(t) or g.to_move(t) == CHANCE:
                    break
                a = g.parse_action(t, word)
                pv_actions.append(a)
                t = g.result(t, a)
        last = g.format_action(*history[-1]) if history else None
        terminal = g.is_terminal(s)
        to_move = None if terminal else g.to_move(s)
        if g.observation() is not None and not terminal:
            # hidden information: a stateless request is a spectator's (the public part);
            # a seat's own view comes from the game the server holds (/api/play)
            view = seat_view_of(g, s, None)
            return {"game": shown_spec(g, g.spec), "start": "", "moves": [],
                    "position": "", "players": g.num_players, "to_move": to_move,
                    "chance": [], "terminal": False, "returns": None, "result": None,
                    "legal": [], "last": None, "text": view["text"],
                    "svg": g.render_svg(s, interactive=False, seat=None)}
        chance = ([{"move": g.format_action(s, a), "p": p} for a, p in g.chance_outcomes(s)]
                  if to_move == CHANCE else [])
        svg = g.render_svg(s, pv=pv_actions, labels=_labels(labels), last=last,
                           flip=validation.flag("flip", flip), seat="all")
        return {
            "game": g.spec, "start": position or "", "moves": [g.format_action(b, a)
                                                             for b, a in history],
            "position": g.format_line(history[0][0] if history else s,  # in the order played
                                      [a for _b, a in history]),
            "players": g.num_players, "to_move": to_move,
            "chance": chance, "terminal": terminal,
            "returns": list(g.returns(s)) if terminal else None,
            "result": _result_text(g, s) if terminal else None,
            "legal": [] if terminal or to_move == CHANCE else g.legal_action_strings(s),
            "last": last, "svg": svg, "text": g.render(s),
        }

    @app.get("/api/start", summary="check a new game before its first move")
    def start(game: Text = None, position: Text = None,
              agent: Annotated[list[str] | None, Query(max_length=16)] = None
              ) -> dict[str, Any]:
        """A new game's start ``position`` (missing: the start) and its ``agent`` of every
        seat (repeated, in seat order; missing ones: the game's default opponent), checked
        before its first move: a bad position is answered 400 with what is wrong with it, a
        bad agent spec 400 naming its seat and spec. Answers the start position and the
        specs."""
        g = validation.game(game, caps)
        s, specs = validation.new_game(g, position, list(agent or []), caps)
        hidden = g.observation() is not None  # (the server deals and holds such a game)
        return {"game": g.name, "position": "" if hidden else g.format_state(s),
                "agents": specs,
                "to_move": None if g.is_terminal(s) else g.to_move(s)}

    @app.get("/api/roll", summary="draw a chance outcome")
    def roll(game: Text = None, position: Text = None, moves: Text = None) -> dict[str, Any]:
        """At a chance node (Pig's die), one outcome drawn by its probability."""
        g = validation.game(game, caps)
        s, _ = validation.state(g, position, moves, caps)
        if g.is_terminal(s) or g.to_move(s) != CHANCE:
            raise WebInputError("not a chance node: nothing to roll")
        outcomes = list(g.chance_outcomes(s))
        a = random.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        return {"move": g.format_action(s, a)}


def _replay_position(stored: dict[str, Any], ply: int, caps: Caps) -> dict[str, Any]:
    """The position after ``ply`` moves of a stored (finished) game, every card drawn."""
    moves = stored["moves"]
    if not 0 <= ply <= len(moves):
        raise WebInputError(f"ply {ply}: the game has {len(moves)} moves (0 to {len(moves)})")
    g = validation.game(stored["game"], caps)
    s = g.initial_state() if not stored.get("start_position") else g.parse_state(
        stored["start_position"])
    last = None
    for text in moves[:ply]:
        action = g.parse_action(s, text)
        last = g.format_action(s, action)
        s = g.result(s, action)
    return {"svg": g.render_svg(s, last=last, interactive=False, seat="all"),
            "text": g.render(s)}


def _add_thinking_routes(app: FastAPI, caps: Caps, gate: SearchGate, library: Library) -> None:
    """The thinking (server-sent events) of the app."""
    @app.get("/api/think", summary="an engine move, its thinking streamed (SSE)")
    async def think(
        game: Text = None, position: Text = None, moves: Text = None,
        agent: Text = None, time: Text = None, clock: Text = None, increment: Text = None,
    ) -> StreamingResponse:
        """Server-sent events: ``info`` after every completed iteration (depth, value and
        ``score_text``, its words (chess: pawns or "mate in N", for the side to move), PV,
        nodes, nodes/s, and the board with the PV drawn), then ``move`` (or ``error``).
        ``time``: seconds for this move (default 1); or ``clock`` (the engine's remaining
        seconds) and ``increment``: the library's time-allocation rule picks the budget
        (within the server's cap). A client that leaves stops the search."""
        g = validation.game(game, caps)
        s, history = validation.state(g, position, moves, caps)
        if g.is_terminal(s):
            raise WebInputError("the game is over: no move to think about")
        if g.to_move(s) == CHANCE:
            raise WebInputError("the position is a chance node: roll first")
        spec = validation.spec("agent", agent, caps) or default_agent(g)
        per_move = validation.number("time", time, high=caps.time)
        remaining = validation.number("clock", clock)
        inc = validation.number("increment", increment) if increment not in (None, "0") else 0
        stop = threading.Event()
        player = g.to_move(s)
        if remaining is not None:  # the mover's clock; the others' do not matter here
            clocks = tuple(float(remaining) for _ in range(g.num_players))
            limit = Limit(time=caps.time, clocks=clocks,
                          increments=tuple(float(inc or 0) for _ in clocks), stop=stop)
        else:
            seconds = float(per_move) if per_move is not None else 1.0
            validation.capped_time(seconds, caps)
            limit = Limit(time=seconds, stop=stop)
        seconds = limit.budget(player)[0]
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

        def info(r: SearchResult) -> None:
            data = info_event(g, s, r, last)
            loop.call_soon_threadsafe(events.put_nowait, ("info", data))

        last = g.format_action(*history[-1]) if history else None

        # Built before the stream starts, so that a bad spec is a plain 400.
        a = await anyio.to_thread.run_sync(validation.agent, g, spec, seconds, info, caps)

        def work() -> dict[str, Any]:
            start = time_now()
            with a:  # one move, then the agent is closed (Agent's life cycle)
                action = a.choose(seat_game(g), seat_view(g, s, g.to_move(s)), limit)
            elapsed = time_now() - start
            out: dict[str, Any] = {"move": g.format_action(s, action), "agent": spec,
                                   "seconds": round(elapsed, 4), "budget": round(seconds, 4)}
            out.update(report_fields(g, s, out["move"], a.report))
            return out

        gate.reserve()

        return stream_move(gate, work, stop, events,
                           {"agent": spec, "budget": round(seconds, 4)})


def _add_analysis_routes(app: FastAPI, caps: Caps, gate: SearchGate, library: Library) -> None:
    """The analyse and solve (the command line's objects) of the app."""
    @app.get("/api/analyze", summary="search a position (= gamesearch analyze --json)")
    async def analyze_endpoint(
        game: Text = None, position: Text = None, algorithm: Text = None, time: Text = None,
        depth: Text = None, nodes: Text = None, book: Text = None,
    ) -> dict[str, Any]:
        """The object ``gamesearch analyze GAME --position P --algorithm A --time S --json``
        prints (``depth``/``nodes`` instead of ``time`` as there; at most one), with
        ``score_text``: the value in words (the game's ``format_score``: chess in pawns or
        "mate in N", for the side to move). Without a time, the server's cap bounds the
        search. ``book=off``: Connect Four without its
        opening book."""
        g = validation.game(game, caps)
        position = validation.text("position", position, caps)
        s, _ = validation.state(g, position, None, caps)
        spec = validation.spec("algorithm", algorithm, caps)
        lim = validation.limit(validation.number("time", time, high=caps.time),
                               validation.number("depth", depth, whole=True),  # type: ignore[arg-type]
                               validation.number("nodes", nodes, whole=True),  # type: ignore[arg-type]
                               spec, caps)
        book_spec = _book(book)
        data = await gate.run(partial(analyze, g, s, position=position, algorithm=spec,
                                      limit=lim, book=book_spec))
        if data["algorithm"] != "book":  # a search's value (a book's is an exact score)
            data["score_text"] = g.format_score(s, data["value"])
        return data

    @app.get("/api/solve", summary="solve a position exactly (= gamesearch solve --json)")
    async def solve_endpoint(game: Text = None, position: Text = None,
                             weak: Text = None) -> dict[str, Any]:
        """The object ``gamesearch solve GAME --position P --json`` prints (``weak=1``: only
        win/draw/loss). Positions the server cannot solve within its caps: 422."""
        g = validation.game(game, caps)
        validation.require_solvable(g)
        position = validation.text("position", position, caps)
        s, _ = validation.state(g, position, None, caps)
        text = position if position is not None else g.format_state(s)
        lim = Limit(time=caps.time, nodes=caps.nodes)
        return await gate.run(partial(solve_record, g, s, text,
                                      weak=validation.flag("weak", weak),
                                      fast=g.fast_solver(), limit=lim))

    @app.get("/api/scores", summary="every legal move's exact score")
    async def scores(game: Text = None, position: Text = None,
                     moves: Text = None, quick: Text = None) -> dict[str, Any]:
        """Each legal move's score for the player to move, in the game's convention
        (Connect Four: Pons's scores, shown above the seven columns): from the opening
        book where it is exact (or one ply on top of it), else from the solver (compiled
        when the game has one) in a budget of the server's per-move time for each move,
        within its time cap. ``null`` where the time ran out (``result``: win, draw or loss
        when the book knows that much); ``source``: ``end``, ``book`` or ``solver``.
        ``quick=1``: what is known at once (the game's end, the book; no solver), for a
        page to show while the full answer is computed."""
        g = validation.game(game, caps)
        validation.require_solvable(g, "move scores")
        s, _ = validation.state(g, position, moves, caps)
        n = max(1, len(g.actions(s))) if not g.is_terminal(s) else 1
        lim = Limit(time=min(caps.time, caps.score_time * n),
                    nodes=max(10_000, min(caps.nodes, 2 * caps.nodes // n)))
        book = "on" if g.opening_book(None) is not None else None  # its exact entries
        fast = validation.flag("quick", quick)
        if fast:  # milliseconds: no search slot taken
            items = await anyio.to_thread.run_sync(partial(
                move_scores, g, s, book=book, solve=False))
        else:
            items = await gate.run(partial(move_scores, g, s, fast=g.fast_solver(),
                                           limit=lim, book=book))
        return {"game": g.spec, "position": g.format_state(s), "scores": items,
                "complete": all(i["score"] is not None for i in items)}


def _add_learn_routes(app: FastAPI, caps: Caps, gate: SearchGate, library: Library) -> None:
    """The learn of the app."""
    @app.get("/api/trees", summary="the textbook trees")
    def trees() -> dict[str, Any]:
        return {"trees": [{"name": n, "description": e.description} for n, e in
                          EXAMPLES.items()],
                "algorithms": list(learn.ALGORITHMS), "orderings": list(learn.ORDERINGS)}

    @app.get("/api/learn", summary="a search animated on a tree, from its trace")
    async def learn_endpoint(
        tree: Text = None, algorithm: Text = None, ordering: Text = None,
        branching: Text = None, depth: Text = None, seed: Text = None, chance: Text = None,
    ) -> dict[str, Any]:
        """``tree``: a textbook tree (``/api/trees``) or ``random`` (with ``branching``,
        ``depth``, ``seed``, ``chance``: the share of chance nodes). ``ordering``: ``given``,
        ``best`` or ``worst`` first (by each child's exact value). Answers the drawing, the
        events of the trace (visit, leaf, backup, done, prune) and the result."""
        name = (validation.text("tree", tree, caps) or "fig6.2").strip().lower()
        if name == "random":
            g = learn.random_game(
                int(validation.number("branching", branching or "2", whole=True) or 2),
                int(validation.number("depth", depth or "3", whole=True) or 3),
                _int("seed", seed or "0"),
                float(_float01("chance", chance)))
        else:
            g = learn.tree_game(name)
        g = learn.reordered(g, (ordering or "given").strip().lower())
        algo = (validation.text("algorithm", algorithm, caps) or "").strip().lower() or (
            "expectiminimax" if g.game_type.chance else
            "maxn" if g.num_players > 2 else "alphabeta")
        return await gate.run(learn.animate, g, algo)


def _add_tournament_routes(app: FastAPI, caps: Caps, gate: SearchGate, library: Library) -> None:
    """The tournaments of the app."""
    @app.get("/api/tournaments", summary="the results files and their tournaments")
    def tournaments() -> dict[str, Any]:
        return {"files": library.listing()}

    runs: Runs = app.state.runs

    @app.get("/api/tournaments/run", summary="the tournament started from the web")
    def run_status() -> dict[str, Any]:
        """Who may start one here (``policy``), its bounds (``caps``), and the current or
        last ``run``: its results ``file`` and tournament ``id`` (watch it with
        ``/api/tournaments/{file}/{id}/live``), whether it is ``running``."""
        return runs.status()

    @app.post("/api/tournaments/run", summary="start a tournament (one at a time)",
              status_code=201)
    async def run_start(body: StartRun, request: Request) -> dict[str, Any]:
        """Starts ``gamesearch tournament`` for ``game`` between ``agents`` (2 to the
        cap; engine specs, ``NAME=SPEC`` to name one), ``games_per_pair`` games at each
        pair and ``move_time`` seconds a move, within the server's caps; from the machine
        itself only (unless the server allows more). 409 while one runs. Answers at once
        with the run's file: the page watches it live."""
        runs.allowed(request.client.host if request.client else None)
        config = await anyio.to_thread.run_sync(
            runs.check, body.game, list(body.agents or []), body.games_per_pair,
            body.move_time, caps)
        await anyio.to_thread.run_sync(runs.start, config)
        return runs.status()

    @app.post("/api/tournaments/run/stop", summary="stop the running tournament")
    async def run_stop(request: Request) -> dict[str, Any]:
        """Ends the running tournament's process; the games stored so far stay."""
        runs.allowed(request.client.host if request.client else None)
        await anyio.to_thread.run_sync(runs.stop)
        return runs.status()

    @app.get("/api/tournaments/{file}/{tid}", summary="standings, pairs, Elo, plot, games")
    def tournament(file: str, tid: int) -> dict[str, Any]:
        return library.tournament(file, tid)

    @app.get("/api/tournaments/{file}/{tid}/games/{index}", summary="one game's moves")
    def tournament_game(file: str, tid: int, index: int, ply: int | None = None
                        ) -> dict[str, Any]:
        """A stored game (moves, agents, result); with ``ply``, its position after that
        many moves drawn whole (``svg``, ``text``): a stored game is over, so its cards
        are no secret any more (``/api/position`` shows a hidden game's public part only)."""
        game = library.game(file, tid, index)
        if ply is None:
            return game
        return _replay_position(game, ply, caps)

    @app.get("/api/tournaments/{file}/{tid}/live", summary="updates as games come in (SSE)")
    async def live(file: str, tid: int, interval: float = 1.0,
                   seconds: float = 600.0) -> StreamingResponse:
        """Server-sent events: ``update`` with the whole tournament object each time its
        number of games changes (checked every ``interval`` s, for at most ``seconds``)."""
        if not 0.2 <= interval <= 10 or not 0 < seconds <= 3600:
            raise WebInputError("interval: 0.2 to 10 s; seconds: up to 3600")
        first = await anyio.to_thread.run_sync(library.tournament, file, tid)

        async def stream() -> AsyncIterator[str]:
            seen = first["games"]
            yield sse("update", first)
            end = time_now() + seconds
            while time_now() < end and seen < max(first["scheduled"], 1):
                await asyncio.sleep(interval)
                count = await anyio.to_thread.run_sync(library.count, file, tid)
                if count != seen:
                    seen = count
                    yield sse("update", await anyio.to_thread.run_sync(
                        library.tournament, file, tid))
            yield sse("end", {"games": seen})

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})


class StartRun(BaseModel):
    """``POST /api/tournaments/run``: the tournament to start."""

    game: str
    agents: list[str] | None = None
    games_per_pair: int | None = None
    move_time: float | None = None


def _add_equilibria_routes(app: FastAPI, caps: Caps, gate: SearchGate, library: Library
                           ) -> None:
    """The Equilibria page's API (:mod:`.equilibria`)."""
    running: dict[str, equilibria.SolveRun] = {}
    app.state.equilibrium_runs = running

    @app.get("/api/equilibria", summary="what the Equilibria page offers")
    def equilibria_offer() -> dict[str, Any]:
        """The poker games and algorithms of a run, the server's caps on it (iterations,
        seconds) and the matrix games offered as examples."""
        return {"games": list(equilibria.POKER_GAMES), "algorithms": equilibria.ALGORITHMS,
                "iterations": equilibria.DEFAULT_ITERATIONS,
                "caps": {"iterations": caps.equilibrium_iterations,
                         "seconds": caps.equilibrium_time},
                "presets": equilibria.MATRIX_PRESETS}

    @app.get("/api/equilibria/solve", summary="run CFR on a poker game, live (SSE)")
    async def equilibria_solve(game: Text = None, algorithm: Text = None,
                               iterations: Text = None) -> StreamingResponse:
        """Server-sent events: ``start`` (the run's id, its checkpoints), ``point`` (the
        iteration, the average policy's exploitability, the seconds so far) at iterations
        1, 2, 3, 5, 10, 20, ... and the last, ``progress`` (the iteration) between them,
        then ``done``: the iterations run, the exploitability, player 1's value, every
        information set's average policy, and ``agent``, the spec that plays it
        (``cfr:iterations=N,algorithm=A``). ``game``: kuhn_poker or leduc_poker;
        ``algorithm``: cfr, cfr+ or dcfr; ``iterations`` up to the server's cap, within
        its seconds. One search of the gate; a client that leaves stops the run, and so
        does ``POST /api/equilibria/stop?run=ID``."""
        g = equilibria.poker_game(validation.text("game", game, caps), caps)
        name = equilibria.algorithm_name(validation.text("algorithm", algorithm, caps))
        count = equilibria.iteration_count(validation.text("iterations", iterations, caps),
                                           caps)
        tree = await anyio.to_thread.run_sync(equilibria.flat_tree, g)
        run = equilibria.SolveRun(g, name, count, caps.equilibrium_time, tree=tree)
        gate.reserve()
        return equilibria.stream_run(gate, run, running)

    @app.post("/api/equilibria/stop", summary="stop a run (its policy so far is kept)")
    def equilibria_stop(run: Text = None) -> dict[str, Any]:
        """Stops the run ``run`` (the id of its ``start`` event) after its current
        iteration; its stream then ends with ``done`` for the policy reached."""
        found = running.get((run or "").strip())
        if found is None:
            raise WebInputError(f"no equilibrium run {echo(run or '')} is running (it "
                                "ended, or never was)", 404)
        found.stop.set()
        return {"run": found.id, "stopping": True}

    @app.get("/api/equilibria/matrix", summary="a matrix game's equilibria")
    async def equilibria_matrix(a: Text = None, b: Text = None) -> dict[str, Any]:
        """The object of ``gamesearch nash --matrix A [--matrix-b B] --json``: ``a`` the
        row player's payoffs (JSON rows), ``b`` the column player's (empty: zero-sum, B =
        -A). Zero-sum: the value and both optimal strategies (linear programming);
        general-sum: every equilibrium found by support enumeration."""
        a = validation.text("a", a, caps)
        b = validation.text("b", b, caps)
        return await gate.run(equilibria.matrix_game, a, b, caps)


def _add_status_routes(app: FastAPI, caps: Caps, gate: SearchGate, library: Library) -> None:
    """The status of the app."""
    @app.get("/api/status", summary="searches running, waiting, served, refused")
    def status() -> dict[str, Any]:
        return {"version": __version__, "running": gate.running,
                "waiting": gate.admitted - gate.running, "served": gate.served,
                "refused": gate.refused, "active": gate.active, "queue": gate.queue,
                "caps": {"time": caps.time, "nodes": caps.nodes, "text": caps.text,
                         "moves": caps.moves}, "rss_mb": _rss_mb()}

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)


def time_now() -> float:
    return time.perf_counter()


def _book(text: str | None) -> str | None:
    """Only the package's book or none: a request never names a file."""
    if text is None or text.strip() == "":
        return None
    if text.strip().lower() in ("off", "0", "no", "false"):
        return "off"
    raise WebInputError(f"book {text!r}: only book=off is allowed here (the server uses "
                        "the package's opening book)")


def _int(name: str, text: str) -> int:
    try:  # ASCII digits only (gamesearch.argtypes)
        return int(RANGES["seed"].parse(text))
    except ValueError:
        raise WebInputError(f"{name} {echo(text)}: expected a whole number") from None


def _float01(name: str, text: str | None) -> float:
    if text is None or text.strip() == "":
        return 0.0
    try:
        return float(Range(0.0, 0.5, whole=False).parse(text))
    except ValueError:
        raise WebInputError(f"{name} {echo(text)}: expected a number between 0 and 0.5"
                            ) from None
