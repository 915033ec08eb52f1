"""The bridge table drawn as SVG (:meth:`Bridge.drawing`): North at the top, South at the
bottom, West and East at the sides, the trick in the middle. Each hand is a row of cards
(suit symbol and rank, red for hearts and diamonds); the legal cards of the seat to play
carry ``data-move`` (``SA``). ``seat`` is the viewer (the :class:`~gamesearch.capabilities.
Drawing` contract): every hand it does not see (:meth:`Bridge.observe`) is drawn face down,
``None`` (the default) is a spectator, who sees dummy after the lead, and ``"all"`` the
holder of the game (a finished game, a replay). ``hidden`` (a set of seats) draws more
hands face down."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..svg import document, label, target
from .cards import RANKS, SEAT_NAMES, SUIT_SYMBOLS, card_name, cards_of

CARD_W, CARD_H = 26, 38
WIDTH, HEIGHT = 560, 420
#: where each seat's hand starts (N, E, S, W)
ORIGIN = ((150, 20), (380, 180), (150, 360), (10, 180))
TRICK = ((265, 130), (320, 180), (265, 230), (210, 180))


def _card(card: int, x: float, y: float, legal: bool) -> list[str]:
    colour = "#c0392b" if card // 13 in (1, 2) else "#111"
    text = SUIT_SYMBOLS[card // 13] + RANKS[card % 13]
    parts = [f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="3" '
             f'fill="{"#fff8d6" if legal else "#fff"}" stroke="#555"/>',
             label(text, x + CARD_W / 2, y + 22, size=11, fill=colour)]
    if legal:
        parts.append(target(card_name(card), x, y, CARD_W, CARD_H, card_name(card)))
    return parts


def render_svg(game: Any, state: Any, *, interactive: bool = True,
               hidden: Collection[int] = (), seat: int | str | None = None, **_: Any) -> str:
    """The table as ``seat`` sees it (the module docstring): ``None`` a spectator, a seat
    0-3 that seat (its own hand, dummy after the lead, declarer's for dummy), ``"all"``
    every hand."""
    dealing = state.level == 0
    if seat != "all":
        view = game.observe(state, seat if isinstance(seat, int) and 0 <= seat < 4 else None)
        hidden = {*hidden, *(s for s in range(4) if not view.seen[s])}
    mover = None if dealing or game.is_terminal(state) else game.to_move(state)
    legal = set(game.actions(state)) if (
        interactive and mover is not None and mover not in hidden
        and game.seat_to_play(state) not in hidden) else set()
    parts = [f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#2e6b3f"/>']
    to_play = None if dealing or game.is_terminal(state) else game.seat_to_play(state)
    for seat in range(4):
        x0, y0 = ORIGIN[seat]
        name = SEAT_NAMES[seat] + ("" if dealing else (
            " (declarer)" if seat == state.declarer else "") + (
            " (dummy)" if seat == (state.declarer + 2) % 4 else ""))
        parts.append(label(name + (" ▶" if seat == to_play else ""), x0 + 60, y0 - 4,
                           size=12, fill="#fff"))
        cards = cards_of(state.hands[seat])
        cards.sort(key=lambda c: (c // 13, -c))
        step = 13 if seat in (1, 3) else 20
        for i, c in enumerate(cards):
            x = x0 + i * step if seat in (0, 2) else x0 + (i % 7) * step
            y = y0 if seat in (0, 2) else y0 + (i // 7) * (CARD_H + 4)
            if seat in hidden:
                parts.append(f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" '
                             'rx="3" fill="#34495e" stroke="#ddd"/>')
            else:
                parts += _card(c, x, y, seat == to_play and c in legal)
    for i, c in enumerate(state.trick):
        x, y = TRICK[(state.leader + i) % 4]
        parts += _card(c, x, y, False)
    score = f"; score {game.score(state):+d}" if game.is_terminal(state) else ""
    status = (f"dealing: {sum(h.bit_count() for h in state.hands)} of 52 cards dealt"
              if dealing else f"{game.contract_name(state)}: tricks declarer "
              f"{state.declarer_tricks}, defenders {state.defender_tricks}{score}")
    parts.append(label(status, WIDTH / 2, HEIGHT - 6, size=13, fill="#fff"))
    return document(WIDTH, HEIGHT, parts, "bridge")
