"""Oh Hell drawn as SVG for the web app: the seats' hands (only ``seat``'s face up, the
others as card backs; every hand face up for ``seat="all"``), the trump card, bids, tricks
won, the trick on the table; each legal card or bid carries ``data-move``. Seats are
written from 1 (``player 1``), as people count them; a ``viewBox`` lets a page scale the
table to a phone's width."""

from __future__ import annotations

from html import escape
from typing import Any

from ...game import CHANCE

SUIT_SYMBOL = {"C": "♣", "D": "♦", "S": "♠", "H": "♥"}
RED = {"D", "H"}


def _card(x: float, y: float, name: str | None, move: str | None) -> str:
    attrs = f' data-move="{escape(move)}" style="cursor:pointer"' if move else ""
    if name is None:
        return (f'<rect x="{x}" y="{y}" width="34" height="48" rx="4" fill="#36c" '
                f'stroke="#123"/>')
    colour = "#c00" if name[0] in RED else "#000"
    return (f'<g{attrs}><rect x="{x}" y="{y}" width="34" height="48" rx="4" fill="#fff" '
            f'stroke="{"#0a0" if move else "#555"}" stroke-width="{2 if move else 1}"/>'
            f'<text x="{x + 17}" y="{y + 30}" font-size="16" text-anchor="middle" '
            f'fill="{colour}">{name[1]}{SUIT_SYMBOL[name[0]]}</text></g>')


def render_svg(state: Any, seat: int | str | None = None, interactive: bool = True,
               **_: Any) -> str:
    """The table as ``seat`` sees it (the :class:`~gamesearch.capabilities.Drawing`
    contract): a seat 0-2 its own hand face up, ``None`` (the default) a spectator, every
    hand face down, ``"all"`` the holder of the game (a finished game), every hand."""
    from . import BID, DECK, PLAYERS, TRICKS, OhHell

    game = OhHell()
    legal = set() if game.is_terminal(state) or state.mover == CHANCE or not interactive \
        or (seat != "all" and state.mover != seat) else set(game.actions(state))
    # a viewBox, so the page scales the table to a phone's width instead of cropping it
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 420 330" width="420" '
             'height="330" class="board ohhell" font-family="sans-serif">'
             '<rect width="420" height="330" fill="#275"/>']
    for s in range(PLAYERS):
        y = 10 + s * 80
        bid = "-" if state.bids[s] < 0 else str(state.bids[s])
        label = f"player {s + 1}{' (dealer)' if s == state.dealer else ''}: bid {bid}, won " \
                f"{state.won[s]}{'  <- to move' if s == state.mover else ''}"
        parts.append(f'<text x="10" y="{y + 12}" fill="#fff" font-size="13">'
                     f'{escape(label)}</text>')
        for i, c in enumerate(sorted(state.hand(s), reverse=True)):
            shown = seat == "all" or seat == s
            name = DECK.name(c) if shown else None
            parts.append(_card(10 + i * 40, y + 18, name,
                               name if shown and c in legal else None))
    if state.trump_card is not None:
        parts.append('<text x="300" y="22" fill="#fff" font-size="13">trump</text>')
        parts.append(_card(300, 28, DECK.name(state.trump_card), None))
    trick = state.plays[len(state.plays) - (len(state.plays) % PLAYERS or
                                             (PLAYERS if state.plays else 0)):]
    for i, (s, c) in enumerate(trick):
        parts.append(f'<text x="{170 + i * 40}" y="258" fill="#fff" font-size="9">'
                     f'player {s + 1}</text>')
        parts.append(_card(170 + i * 40, 262, DECK.name(c), None))
    for b in range(TRICKS + 1):
        if BID + b in legal:
            parts.append(f'<g data-move="bid{b}" style="cursor:pointer"><rect x="{10 + b * 50}" '
                         f'y="262" width="44" height="30" rx="4" fill="#ffd"/>'
                         f'<text x="{32 + b * 50}" y="282" text-anchor="middle">bid {b}'
                         '</text></g>')
    parts.append("</svg>")
    return "".join(parts)
