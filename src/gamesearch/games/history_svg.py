"""The small hidden-information games (:mod:`gamesearch.games.history`) drawn as SVG for
the web app: the seat's view in words (another seat's private deal never shown), and one
button a legal action, each carrying ``data-move``. ``seat`` follows the
:class:`~gamesearch.capabilities.Drawing` contract: a seat its view, ``None`` (the default)
a spectator's (the private deals as ``?``), ``"all"`` the whole history."""

from __future__ import annotations

from typing import Any

from ..game import CHANCE
from .svg import document, esc

WIDTH = 420


def render_svg(game: Any, state: Any, seat: int | str | None = None, interactive: bool = True,
               **_: Any) -> str:
    if seat == "all":
        lines = ["actions: " + game.format_state(state)]
    elif isinstance(seat, int) and 0 <= seat < game.num_players:
        lines = game.describe_view(game.view(state, seat)).split("\n")
    else:
        lines = ["actions: " + game.public_text(state)]
    over = game.is_terminal(state)
    mover = game.to_move(state)
    if over:
        lines.append("game over: " + " ".join(f"player {p}: {r:+g}"
                                              for p, r in enumerate(game.returns(state))))
    elif mover != CHANCE:
        lines.append(f"player {mover} to move")
    legal = [] if over or mover == CHANCE or not interactive or \
        (seat != "all" and seat != mover) else list(game.actions(state))
    height = 30 + 22 * len(lines) + (50 if legal else 10)
    parts = [f'<rect width="{WIDTH}" height="{height}" fill="#275"/>']
    for i, line in enumerate(lines):
        parts.append(f'<text x="14" y="{30 + 22 * i}" font-size="15" fill="#fff">'
                     f'{esc(line)}</text>')
    y = 30 + 22 * len(lines)
    for i, a in enumerate(legal):
        move = game.format_action(state, a)
        x = 14 + 96 * i
        parts.append(f'<g class="target" data-move="{esc(move)}" style="cursor:pointer">'
                     f'<rect x="{x}" y="{y - 4}" width="88" height="32" rx="6" fill="#fff" '
                     f'stroke="#0a0" stroke-width="2"/><text x="{x + 44}" y="{y + 17}" '
                     f'font-size="15" text-anchor="middle">{esc(move)}</text></g>')
    return document(WIDTH, height, parts, f"board {game.name}")
