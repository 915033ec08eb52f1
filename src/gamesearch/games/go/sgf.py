"""Go game records in SGF (FF[4]) through ``sgfmill`` (the ``go`` extra; PyPI).

* :func:`write_sgf` -- a game (its start, with handicap stones as ``AB``, and its moves) as
  SGF bytes: ``SZ``, ``KM``, ``HA``, ``RU[Chinese]``, ``RE`` when the game is over
  (``B+3.5``), player names ``PB``/``PW`` when given;
* :func:`read_sgf_line` -- the start and the moves of a record's main line for a given
  game (``Go.game_record()``, so that ``gamesearch play go --load F.sgf`` goes on from it);
* :func:`read_sgf` -- the game of an SGF record: the :class:`.rules.Go` of its size and komi,
  and the states along its main line, every move checked by our rules (superko included).
  Setup stones (``AB``/``AW``) are placed at the start; a setup node later in the game is
  refused. A malformed file, a size out of range, an illegal move: one-line errors
  (:class:`~gamesearch.errors.InvalidPositionError`, :class:`IllegalMoveError`).

sgfmill's points are ``(row, col)`` with row 0 at the bottom, which is our numbering
``row * size + col``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from ...errors import GameError, IllegalMoveError, InvalidPositionError, UnsupportedGameError
from .rules import BLACK, MAX_SIZE, MIN_SIZE, WHITE, Go, GoState


def _sgfmill() -> Any:
    try:
        return importlib.import_module("sgfmill.sgf")
    except ImportError:
        raise UnsupportedGameError("SGF needs sgfmill: pip install 'gamesearch[go]'") from None


def write_sgf(game: Go, moves: Sequence[int], start: GoState | None = None,
              black: str | None = None, white: str | None = None) -> bytes:
    """The SGF record of ``moves`` (points, the pass ``game.pass_action``) played from
    ``start`` (default: the game's initial state)."""
    sgf = _sgfmill()
    record = sgf.Sgf_game(size=game.size)
    root = record.get_root()
    root.set("KM", game.komi)
    root.set("RU", "Chinese")
    s = game.initial_state() if start is None else start
    stones = [(p, c) for p, c in enumerate(s.board) if c]
    if stones:
        n = game.size
        root.set_setup_stones({divmod(p, n) for p, c in stones if c == BLACK},
                              {divmod(p, n) for p, c in stones if c == WHITE})
        if s.to_move == 1 and all(c == BLACK for _, c in stones):
            root.set("HA", len(stones))
    if black:
        root.set("PB", black)
    if white:
        root.set("PW", white)
    for a in moves:
        node = record.extend_main_sequence()
        node.set_move("bw"[s.to_move], None if a == game.pass_action
                      else divmod(a, game.size))
        s = game.result(s, a)
    if game.is_terminal(s):
        root.set("RE", "Draw" if game.score(s) == 0 else game.result_text(s))
    return bytes(record.serialise())


def rules_options(game: Go) -> dict[str, Any]:
    """``game``'s options besides those a record sets itself (size, komi; handicap
    stones are its setup): what a record read for ``game`` is played under."""
    return {o.name: getattr(game, o.name) for o in game.options
            if o.name not in ("size", "komi", "handicap")}


def read_sgf(data: bytes, **options: Any) -> tuple[Go, list[GoState]]:
    """The game of an SGF record and the states of its main line (the start first);
    ``options`` go to :class:`.rules.Go` besides the record's size and komi."""
    game, states, _, _ = _read(data, options)
    return game, states


def read_sgf_line(game: Go, data: bytes) -> tuple[GoState, list[int]]:
    """The main line of an SGF record as ``game`` plays it: its start and its moves, so
    that ``game.result`` replays them (``Game.game_record().read``). The record must be of
    ``game``'s size and komi (else a one-line error naming the spec to play it with); where
    a colour moves twice running (an SGF record may), the position there becomes the
    start."""
    record, _, start, actions = _read(data, rules_options(game))
    if record.size != game.size or record.komi != game.komi:
        raise InvalidPositionError(
            f"the SGF record is {record.size}x{record.size} with komi {record.komi:g}; "
            f"play it as go:size={record.size},komi={record.komi:g}")
    return start, actions


def _move(node: Any, k: int, size: int) -> tuple[str | None, tuple[int, int] | None]:
    """The colour and point of the ``k``-th node's move (``(None, None)``: no move). sgfmill
    raises a bare ValueError for a point off the board (``B[zz]`` on 5x5): here it is a
    one-line error naming the move."""
    try:
        colour, point = node.get_move()
    except ValueError:
        raise InvalidPositionError(f"SGF record: move {k} is off the {size}x{size} board or "
                                   "malformed") from None
    return colour, point


def _read(data: bytes, options: dict[str, Any]
          ) -> tuple[Go, list[GoState], GoState, list[int]]:
    """The game, the states of the main line, the state the moves replay from, and those
    moves."""
    sgf = _sgfmill()
    try:
        record = sgf.Sgf_game.from_bytes(data)
        size = record.get_size()
        komi = record.get_komi()
        nodes = record.get_main_sequence()
    except ValueError as exc:
        raise InvalidPositionError(f"not a valid SGF record: {exc}") from None
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidPositionError(f"SGF board size {size}: boards are {MIN_SIZE}x{MIN_SIZE} "
                                   f"to {MAX_SIZE}x{MAX_SIZE}")
    try:
        game = Go(size=size, komi=komi, **options)
    except GameError as exc:
        raise InvalidPositionError(f"SGF record: {exc}") from None
    root = nodes[0]
    try:  # (sgfmill reads a point off the board, B[zz] on 5x5, as a bare ValueError)
        black, white, empty = root.get_setup_stones()
    except ValueError:
        raise InvalidPositionError(f"SGF record: setup stones (AB/AW/AE) off the {size}x{size} "
                                   "board or malformed") from None
    if empty:
        raise InvalidPositionError("SGF record: AE (empty points) at the start is not "
                                   "supported")
    stones = [(r * size + c, BLACK) for r, c in black] + [(r * size + c, WHITE)
                                                          for r, c in white]
    first = 0
    if stones:
        first = 1 if not white and len(nodes) > 1 and _move(nodes[1], 1, size)[0] == "w" \
            else 0
        if root.has_property("PL"):
            try:
                first = 0 if root.get("PL") == "b" else 1
            except ValueError:
                raise InvalidPositionError("SGF record: PL (the player to move) is not B "
                                           "or W") from None
    s = game.position(stones, first) if stones else game.initial_state()
    states = [s]
    start = s
    actions: list[int] = []
    for k, node in enumerate(nodes[1:], 1):
        if node.has_setup_stones():
            raise InvalidPositionError(f"SGF record: setup stones at move {k} are not "
                                       "supported")
        colour, point = _move(node, k, size)
        if colour is None:
            continue
        player = 0 if colour == "b" else 1
        if player != s.to_move:
            s = GoState(s.board, player, 0, s.moves, s.hash, s.history)
            start, actions = s, []
        text = "pass" if point is None else game.vertex(point[0] * size + point[1])
        try:
            action = game.parse_action(s, text)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"{colour.upper()} {text} (SGF move {k})",
                                   reason=str(exc).split(": ", 1)[-1].split(";")[0]) from None
        s = game.result(s, action)
        states.append(s)
        actions.append(action)
    return game, states, start, actions
