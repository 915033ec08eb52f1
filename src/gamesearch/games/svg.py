"""Small helpers shared by the games' SVG drawings (``*_svg.py``, see ``Game.drawing``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class DiscStyle:
    """The looks of a board of discs (:func:`disc_board`: Othello's, Rolit's)."""

    board: str  #: the squares' fill
    lines: str  #: the grid's colour
    last: str  #: the fill of the last move's square
    pieces: Mapping[str, str]  #: a square's letter in the board text -> its disc's fill
    piece_class: str  #: a disc's class: ``stone {piece_class}-{letter}``
    number: str  #: the fill of a principal variation's move number on its disc
    pv: Sequence[str]  #: the principal variation's discs' fill, by the player who moves
    pv_opacity: str  #: their opacity
    label: str  #: the fill of a move's label


def disc_board(game: Any, state: Any, board: str, style: DiscStyle, cell: float, pad: float,
               *, pv: Sequence[Any], labels: Mapping[str, str] | None, last: str | None,
               legal: set[str], dot: str, dot_opacity: str) -> list[str]:
    """A square board of discs (Othello, Rolit): ``board`` is the position's text, a letter
    a square from a1 along the rank, the ranks from 1 downwards; the last move's square
    marked, the principal variation ``pv`` as numbered translucent discs (a move that is no
    square, a pass, keeps its number), ``labels`` on their squares, and each square of
    ``legal`` a dot of colour ``dot`` and a target."""
    size = math.isqrt(len(board))
    files = "abcdefghijklmnopqrs"[:size]

    def square_disc(col: int, row: int, colour: str, extra: str = "", text: str = "") -> str:
        return disc(pad + col * cell + cell / 2, pad + row * cell + cell / 2, cell * 0.4,
                    colour, extra, text, style.number)

    parts = square_board(size, cell, pad, style.board, style.lines)
    for i, c in enumerate(board):
        col, row = i % size, i // size
        if last == files[col] + str(row + 1):
            parts.append(f'<rect class="last" x="{pad + col * cell}" y="{pad + row * cell}" '
                         f'width="{cell}" height="{cell}" fill="{style.last}"/>')
        if c in style.pieces:
            parts.append(square_disc(col, row, style.pieces[c],
                                     f' class="stone {style.piece_class}-{c}"'))
    for n, (text, player, _s) in enumerate(pv_texts(game, state, pv), 1):
        if len(text) >= 2 and text[0] in files and text[1:].isdigit():
            col, row = files.index(text[0]), int(text[1:]) - 1
            parts.append(f'<g class="pv" opacity="{style.pv_opacity}">'
                         + square_disc(col, row, style.pv[player], "", str(n)) + "</g>")
    for i in range(size * size):
        col, row = i % size, i // size
        square = files[col] + str(row + 1)
        x, y = pad + col * cell, pad + row * cell
        if labels and square in labels:
            parts.append(label(labels[square], x + cell / 2, y + cell / 2 + 5, size=14,
                               fill=style.label))
        if square in legal:
            parts.append(f'<circle cx="{x + cell / 2:g}" cy="{y + cell / 2:g}" r="5" '
                         f'fill="{dot}" opacity="{dot_opacity}"/>')
            parts.append(target(square, x, y, cell, cell, f"play {square}"))
    return parts
