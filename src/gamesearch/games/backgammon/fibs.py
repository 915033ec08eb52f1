"""The FIBS board line (FIBS's CLIP ``board:`` format), as gnubg's external-player
interface sends it: read into our state.

gnubg, told ``set player 1 external 127.0.0.1:PORT``, connects to a program listening there
and, at each of that player's turns, writes one line (ended by a newline, and a NUL byte
that is skipped) and reads one line back: the move in gnubg's notation, from the mover's
side (``8/5 6/5``; an empty answer or ``pass`` when no move is possible). The line's
colon-separated fields are::

    board:YOU:OPPONENT:MATCHLENGTH:YOURSCORE:OPPONENTSCORE:
          B0:B1:...:B25:                       26 counts: >0 checkers of colour +1, <0 of -1
          TURN:YOURDIE1:YOURDIE2:OPPDIE1:OPPDIE2:CUBE:YOUMAYDOUBLE:OPPMAYDOUBLE:WASDOUBLED:
          COLOUR:DIRECTION:HOME:BAR:YOURHOME:OPPHOME:YOURBAR:OPPBAR:CANMOVE:FORCEDMOVE:
          DIDCRAWFORD:REDOUBLES

``COLOUR`` is the sign of your checkers; with ``DIRECTION`` -1 you move from B24 down to B1
(your point ``p`` is ``Bp``, you bear off to B0), with +1 from B1 up (your point ``p`` is
``B(25-p)``); ``YOURHOME``/``OPPHOME`` count the borne-off checkers; the checkers on the
bar stand in ``B[BAR]`` (yours) and ``B[HOME]`` (the opponent's) as gnubg writes it, or in
``YOURBAR``/``OPPBAR`` as FIBS does. gnubg sends the board with the side to play as "you" and that
side's dice in ``YOURDIE1``/``YOURDIE2`` (a zero die: not rolled yet, which happens only
with the cube in use).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import InvalidPositionError
from .rules import BAR, BGState, check_board, check_dice

FIELDS = 53


@dataclass(frozen=True)
class FibsBoard:
    """A FIBS board line read: the names, the match length and scores, our ``state`` (the
    side to play on roll with its dice; ``seat`` 1 as in gnubg's ``set player 1``), and
    the cube fields kept as they came."""

    you: str
    opponent: str
    match_length: int
    scores: tuple[int, int]
    state: BGState
    cube: int
    was_doubled: bool


def parse_fibs_board(line: str, seat: int = 1) -> FibsBoard:
    """Read a FIBS ``board:`` line; :class:`InvalidPositionError` (one line) if bad."""
    text = line.strip().strip("\0").strip()
    fields = text.split(":")
    if len(fields) < FIELDS or fields[0] != "board":
        raise InvalidPositionError(f"FIBS board line: expected 'board:' and {FIELDS} fields, "
                                   f"got {len(fields)} fields: {text[:60]!r}")
    try:
        numbers = [int(f) for f in fields[3:FIELDS]]
    except ValueError:
        raise InvalidPositionError(f"FIBS board line: a field after the names is not a whole "
                                   f"number: {text[:60]!r}") from None
    match_length, your_score, opp_score = numbers[0:3]
    board = numbers[3:29]
    (_turn, die1, die2, _od1, _od2, cube, _ymd, _omd, was_doubled, colour, direction, home,
     bar, your_home, opp_home, your_bar, opp_bar) = numbers[29:46]
    if colour not in (1, -1) or direction not in (1, -1):
        raise InvalidPositionError(f"FIBS board line: colour {colour} and direction "
                                   f"{direction} must be 1 or -1")
    own = [0] * 25
    opp = [0] * 25
    for p in range(1, 25):  # p: the point in our own numbering
        value = board[p if direction == -1 else 25 - p] * colour
        if value > 0:
            own[p - 1] = value
        elif value < 0:
            opp[24 - p] = -value  # our point p is the opponent's point 25 - p
    if home not in (0, 25) or bar != 25 - home:
        raise InvalidPositionError(f"FIBS board line: home {home} and bar {bar} must be 0 and "
                                   "25 or 25 and 0")
    # gnubg puts the checkers on the bar in B[bar] (yours) and B[home] (the opponent's) and
    # leaves YOURBAR/OPPBAR 0; FIBS fills those: take whichever is given
    own[BAR] = max(abs(your_bar), max(board[bar] * colour, 0))
    opp[BAR] = max(abs(opp_bar), max(-board[home] * colour, 0))
    for name, side, home in (("your", own, your_home), ("the opponent's", opp, opp_home)):
        if sum(side) + home != 15:
            raise InvalidPositionError(f"FIBS board line: {name} checkers on the board, bar "
                                       f"and home add up to {sum(side) + home}, not 15")
    dice = (die1, die2)
    d1, d2 = check_dice(dice) if die1 else (0, 0)
    state: BGState = (tuple(own), tuple(opp), seat, d1, d2)
    check_board(state)
    return FibsBoard(fields[1], fields[2], match_length, (your_score, opp_score), state,
                     cube, bool(was_doubled))
