"""An engine's move streamed to the page as server-sent events: written once for the
stateless ``/api/think`` (``app.py``) and the server-held games' ``think`` (``sessions.py``).

The search runs in a worker thread (``work``), under the search gate (a bounded number of
searches at once); its iterations arrive on a queue as ``info`` events, then its answer as
``move`` (or ``error``). A client that leaves stops the search (its stop event) and frees
the gate's slot only once the thread has ended.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import Any

import anyio.to_thread
from fastapi.responses import StreamingResponse

from ...agents import AgentReport
from ...errors import GameError
from ...game import CHANCE, Game
from ...search import SearchResult
from ..analysis import format_pv
from .gate import GatedStream, SearchGate


def sse(event: str, data: Any) -> str:
    """One server-sent event."""
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


async def relay(task: asyncio.Future[Any], events: asyncio.Queue[tuple[str, Any]],
                last: str) -> AsyncIterator[str]:
    """A worker thread's events as server-sent events, as they come; when ``task`` ends,
    the events still queued, then its result as the event ``last``, or ``error``: a
    :class:`GameError`'s message and status, any other failure of the worker in one line
    (never a traceback). Shared by the thinking and the equilibria streams."""
    while True:
        getter = asyncio.ensure_future(events.get())
        done, _ = await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
        if getter in done:
            kind, data = getter.result()
            yield sse(kind, data)
            continue
        getter.cancel()
        while not events.empty():
            kind, data = events.get_nowait()
            yield sse(kind, data)
        try:
            yield sse(last, task.result())
        except GameError as exc:
            yield sse("error", {"error": str(exc), "status": getattr(exc, "status", 400)})
        except Exception as exc:  # the worker's own failure, not a traceback
            yield sse("error", {"error": f"{type(exc).__name__}: {exc}"})
        return


def web_value(v: Any) -> Any:
    """A search value for the page: vectors as lists, whole floats as ints, others rounded
    to 4 decimals."""
    if isinstance(v, tuple | list):
        return [web_value(x) for x in v]
    if isinstance(v, float):
        return int(v) if v.is_integer() else round(v, 4)
    return v


def describe_pv(game: Game[Any, Any], state: Any, pv: Any) -> list[str]:
    """A principal variation as people write it (the game's ``describe_action``: chess's
    SAN), each move read in its own position; it stops where the game ends, the dice
    decide, or a move is not legal."""
    out: list[str] = []
    for a in pv:
        if (game.is_terminal(state) or game.to_move(state) == CHANCE
                or a not in game.actions(state)):
            break
        out.append(game.describe_action(state, a))
        state = game.result(state, a)
    return out


def visit_labels(r: SearchResult, most: int = 12) -> dict[str, str]:
    """A Monte Carlo search's root statistics as board labels: the ``most`` most visited
    moves, each with its visits (``{}`` for a search that keeps none)."""
    children = r.extra.get("root_children") if isinstance(r.extra, dict) else None
    if not children:
        return {}
    ranked = sorted((c for c in children if c.get("visits")), key=lambda c: -c["visits"])
    return {c["move"]: str(c["visits"]) for c in ranked[:most]}


def info_event(game: Game[Any, Any], state: Any, r: SearchResult,
               last: str | None) -> dict[str, Any]:
    """The ``info`` event of one completed iteration: depth, value (and ``score_text``,
    its words), PV (notation and ``pv_text``), nodes, nodes/s, seconds, the board with the
    PV drawn (``last``: the move that led to ``state``), the best root moves with their values
    (:func:`top_moves`) and, for MCTS, the visits of the most visited moves written on their
    points (:func:`visit_labels`)."""
    top = top_moves(game, state, r)
    labels = visit_labels(r) or {m["move"]: f"{m['value']:+.3f}" for m in top} or None
    return {"depth": r.depth, "value": web_value(r.value),
            "score_text": game.format_score(state, r.value), "pv": format_pv(game, state, r.pv),
            "pv_text": describe_pv(game, state, list(r.pv)), "nodes": r.nodes,
            "nps": round(r.nps), "seconds": round(r.seconds, 4), "top_moves": top,
            # a hidden-information game's full state is never drawn for the page
            "svg": None if game.observation() is not None else game.render_svg(
                state, pv=r.pv, last=last, interactive=False, labels=labels)}


#: How many of the root's moves the thinking shows with their values.
TOP_MOVES = 5


def top_moves(game: Game[Any, Any], state: Any, r: SearchResult) -> list[dict[str, Any]]:
    """The best root moves with their values (backgammon: the equities), when the search
    knows every root move's value (``root_values``: expectiminimax, MCTS); else none."""
    values = r.extra.get("root_values")
    if not isinstance(values, list) or not values:
        return []
    scored = [(a, v) for a, v in values if isinstance(v, int | float)]
    scored.sort(key=lambda av: -av[1])  # a stable sort: ties keep the game's order
    return [{"move": game.format_action(state, a), "value": round(float(v), 4)}
            for a, v in scored[:TOP_MOVES]]


def sampled_reasoning(game: Game[Any, Any], state: Any, r: SearchResult | None
                      ) -> dict[str, Any] | None:
    """What a sampling search over hidden information (PIMC, ISMCTS) considered, from its
    result's ``root_stats``: the algorithm, the worlds or iterations sampled and each root
    move's value and visits, best first; ``None`` for a search that keeps none. Only
    statistics of the seat's own moves: the sampled hands are never in it."""
    stats = r.extra.get("root_stats") if r is not None else None
    if r is None or not isinstance(stats, list) or not stats:
        return None
    moves = [{"move": game.format_action(state, s["action"]), "value": web_value(
        round(float(s["value"]), 4)), "visits": int(s["visits"])} for s in stats]
    moves.sort(key=lambda m: (-m["visits"], -m["value"]) if r.algorithm == "ismcts"
               else (-m["value"],))
    return {"algorithm": r.algorithm, "samples": int(r.extra.get("samples", 0)),
            "sample_kind": str(r.extra.get("sample_kind", "samples")), "moves": moves}


def report_fields(game: Game[Any, Any], state: Any, move: str,
                  report: AgentReport | None) -> dict[str, Any]:
    """What the agent's typed report says about its move, for the ``move`` event."""
    if report is not None and report.source == "search":
        pv = list(report.pv)
        reasoning = sampled_reasoning(game, state, report.search)
        return {**({"reasoning": reasoning} if reasoning else {}),"value": web_value(report.value),
                "score_text": game.format_score(state, report.value), "depth": report.depth,
                "nodes": report.nodes, "pv": format_pv(game, state, pv),
                "pv_text": describe_pv(game, state, pv), "source": "search"}
    if report is not None and report.source in ("book", "solver"):
        return {"value": report.value, "nodes": report.nodes, "pv": [move],
                "source": report.source}
    return {"source": "agent"}


def stream_move(gate: SearchGate, work: Callable[[], dict[str, Any]], stop: threading.Event,
                events: asyncio.Queue[tuple[str, Any]], start: dict[str, Any]
                ) -> StreamingResponse:
    """The response that streams ``start``, then the queued ``info`` events while ``work``
    runs in a thread, then its result as ``move`` (or ``error``). The caller has reserved
    the gate's slot (``gate.reserve()``)."""

    async def stream() -> AsyncGenerator[str, None]:
        async with gate.turn():
            task = asyncio.ensure_future(anyio.to_thread.run_sync(work))
            try:
                yield sse("start", start)
                async for line in relay(task, events, "move"):
                    yield line
            finally:
                if not task.done():  # the client left: stop the search, then free the slot
                    stop.set()
                    with anyio.CancelScope(shield=True):
                        await asyncio.wait({task})
                    if not task.cancelled():
                        task.exception()  # retrieved: a refusal after a stop is expected

    return GatedStream(gate, stream(), media_type="text/event-stream",
                       headers={"Cache-Control": "no-cache"})
