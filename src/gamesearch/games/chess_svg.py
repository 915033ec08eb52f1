"""Chess drawn by python-chess's :mod:`chess.svg` (:meth:`ChessGame.drawing`), with a
transparent square on top of each of the 64 carrying ``data-square`` (``e4``): a page makes
a move by two clicks, from and to. The last move is shaded, the PV drawn as arrows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import chess
import chess.svg

from .svg import esc, pv_texts

SIZE = 400
MARGIN = 15  # python-chess's coordinate border, in its 390-unit view box
SQUARE = 45
PV_COLOURS = ("#15781bcc", "#1d4e89aa", "#15781b88", "#1d4e8966")


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, flip: bool = False, **_: Any) -> str:
    board: chess.Board = state.board
    lastmove = None
    if last:
        try:
            lastmove = chess.Move.from_uci(last)
        except ValueError:
            lastmove = None
    arrows = [
        chess.svg.Arrow(m.from_square, m.to_square, color=PV_COLOURS[k])
        for k, (m, _p, _s) in enumerate(
            (chess.Move.from_uci(t), p, s) for t, p, s in pv_texts(game, state, pv[:4]))
    ]
    check = board.king(board.turn) if board.is_check() else None
    svg = chess.svg.board(board, size=SIZE, lastmove=lastmove, arrows=arrows, check=check,
                          orientation=chess.BLACK if flip else chess.WHITE)
    overlay = []
    for sq in chess.SQUARES:
        f, r = chess.square_file(sq), chess.square_rank(sq)
        col, row = (7 - f, r) if flip else (f, 7 - r)
        name = chess.square_name(sq)
        text = ""
        if labels:
            text = "".join(f'<title>{esc(k)}: {esc(v)}</title>' for k, v in labels.items()
                           if k[2:4] == name)
        overlay.append(f'<rect class="sq" data-square="{name}" x="{MARGIN + SQUARE * col}" '
                       f'y="{MARGIN + SQUARE * row}" width="{SQUARE}" height="{SQUARE}" '
                       f'fill="transparent">{text}</rect>')
    head = svg.rpartition("</svg>")[0]
    head = head.replace("<svg ", '<svg class="board chess" ', 1)
    return head + "".join(overlay) + "</svg>"
