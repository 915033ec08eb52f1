"""Small helpers shared by the games' SVG drawings (``*_svg.py``, see ``Game.drawing``)."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

FONT = "font-family=\"Helvetica, Arial, sans-serif\""


def esc(text: object) -> str:
    """Text or an attribute value, escaped for SVG (quotes included)."""
    return escape(str(text), quote=True)


def document(width: float, height: float, parts: Iterable[str], css_class: str = "") -> str:
    """An SVG document of the given size (user units = pixels at 100 %)."""
    cls = f' class="{esc(css_class)}"' if css_class else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
            f'width="{width:g}" height="{height:g}" {FONT}{cls}>'
            + "".join(parts) + "</svg>")


def target(move: str, x: float, y: float, width: float, height: float, title: str) -> str:
    """The transparent clickable area of a legal move (``data-move``)."""
    return (f'<rect class="target" data-move="{esc(move)}" x="{x:g}" y="{y:g}" '
            f'width="{width:g}" height="{height:g}" fill="transparent">'
            f'<title>{esc(title)}</title></rect>')


def label(text: str, x: float, y: float, *, anchor: str = "middle", size: int = 16,
          fill: str = "#555", attrs: str = "") -> str:
    """A move's label (a solver's score, a value) at ``(x, y)``."""
    return (f'<text class="label"{attrs} x="{x:g}" y="{y:g}" text-anchor="{anchor}" '
            f'font-size="{size}" fill="{fill}">{esc(text)}</text>')


def pv_texts(game: Any, state: Any, pv: Iterable[Any]) -> list[tuple[str, int, Any]]:
    """``(move text, player, state before)`` for each action of a principal variation (the
    actions are read one after another from ``state``; an illegal one ends the list)."""
    out = []
    for a in pv:
        if game.is_terminal(state) or a not in list(game.actions(state)):
            break
        out.append((game.format_action(state, a), game.to_move(state), state))
        state = game.result(state, a)
    return out


def disc(x: float, y: float, radius: float, colour: str, extra: str = "", text: str = "",
         text_fill: str = "#111") -> str:
    """A disc (a stone, a ball) centred at ``(x, y)``, with an optional number on it (a
    principal variation's move count)."""
    out = (f'<circle{extra} cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{colour}" '
           'stroke="#222" stroke-width="1.5"/>')
    if text:
        out += (f'<text x="{x:g}" y="{y + 6:g}" text-anchor="middle" font-size="17" '
                f'fill="{text_fill}">{esc(text)}</text>')
    return out


def square_board(size: int, cell: float, pad: float, fill: str, line: str) -> list[str]:
    """A ``size`` x ``size`` board of squares (Othello, Rolit) at ``pad`` from the edge,
    its lines and its coordinates: files a.. above, ranks 1.. at the left, rank 1 on top."""
    side = size * cell
    parts = [f'<rect x="{pad}" y="{pad}" width="{side}" height="{side}" fill="{fill}"/>']
    for k in range(size + 1):
        a = pad + k * cell
        parts.append(f'<path d="M{a} {pad}V{pad + side}M{pad} {a}H{pad + side}" '
                     f'stroke="{line}" stroke-width="1.5"/>')
    for k in range(size):
        parts.append(label("abcdefghijklmnopqrs"[k], pad + k * cell + cell / 2, pad - 7,
                           size=13))
        parts.append(label(str(k + 1), pad / 2, pad + k * cell + cell / 2 + 5, size=13))
    return parts
