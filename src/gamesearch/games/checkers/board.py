"""The checkers board: the 32 playing squares, their geometry, and the move generator on
32-bit bitboards (plain Python; the reference any compiled generator is tested against).

Numbering (the standard one of English draughts and PDN): the 32 dark squares are numbered
1-32 row by row, four to a row, from Black's side of the board. Seen from White's side
(White's men at the bottom, as the diagrams print the board) square 1 is at the top, in the
second column (``b8``), square 4 in the top right corner (``h8``), square 5 below square 1 at
the left edge (``a7``), and square 29 in White's bottom left corner (``a1``), 32 on ``g1``.
Black's men start on 1-12 and move towards 32; White's start on 21-32 and move towards 1.

Bitboards: bit ``i - 1`` is square ``i`` (so square 1 is bit 0 and 32 is bit 31). Inside
this module a square is that bit index, 0-31; only the notation adds one.

Geometry: ``row`` 0-7 counts from Black's side (squares 1-4 are row 0), ``col`` 0-7 from the
left as White sees the board; a square of an even row lies in an odd column. Directions 0
and 1 go down the board (towards higher numbers: Black's forward), 2 and 3 go up (White's
forward); even directions go left, odd ones right.
"""

from __future__ import annotations

from ..bitboards import set_bits

#: All 32 squares.
FULL = 0xFFFFFFFF
#: The rows where a man is crowned, by side: Black's men on 29-32, White's on 1-4.
CROWN_ROW = (0xF0000000, 0x0000000F)
#: The directions a man of each side moves in (Black down the board, White up); a king
#: moves in all four.
MAN_DIRECTIONS = ((0, 1), (2, 3))
KING_DIRECTIONS = (0, 1, 2, 3)
DELTAS = ((1, -1), (1, 1), (-1, -1), (-1, 1))


def row_col(sq: int) -> tuple[int, int]:
    """The row (0: squares 1-4) and column (0: left, seen from White) of square bit ``sq``."""
    row, i = divmod(sq, 4)
    return row, 2 * i + (1 if row % 2 == 0 else 0)


def square_at(row: int, col: int) -> int:
    """The square bit at ``row``/``col``, or -1 off the board or on a light square."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return -1
    return 4 * row + col // 2


ROW = tuple(row_col(sq)[0] for sq in range(32))


#: Per square, the steps ``(to, to_bit)`` / the jumps ``(over_bit, to, to_bit)`` it offers.
StepTable = tuple[tuple[tuple[int, int], ...], ...]
JumpTable = tuple[tuple[tuple[int, int, int], ...], ...]


def _landing(sq: int, d: int, distance: int) -> int:
    """The square ``distance`` diagonal steps from ``sq`` in direction ``d``, or -1 off the
    board."""
    r, c = row_col(sq)
    dr, dc = DELTAS[d]
    return square_at(r + distance * dr, c + distance * dc)


def _step_table(directions: tuple[int, ...]) -> StepTable:
    """For each square, ``(to, to_bit)`` of each step in ``directions`` on the board."""
    return tuple(tuple((to, 1 << to) for d in directions if (to := _landing(sq, d, 1)) >= 0)
                 for sq in range(32))


def _jump_table(directions: tuple[int, ...]) -> JumpTable:
    """For each square, ``(over_bit, to, to_bit)`` of each jump in ``directions``."""
    return tuple(tuple((1 << _landing(sq, d, 1), to, 1 << to) for d in directions
                       if (to := _landing(sq, d, 2)) >= 0)
                 for sq in range(32))


#: STEP_TARGETS[kind][sq] and JUMP_TARGETS[kind][sq]; ``kind``: 0 a black man, 1 a white
#: man, 2 a king.
STEP_TARGETS = (_step_table(MAN_DIRECTIONS[0]), _step_table(MAN_DIRECTIONS[1]),
                _step_table(KING_DIRECTIONS))
JUMP_TARGETS = (_jump_table(MAN_DIRECTIONS[0]), _jump_table(MAN_DIRECTIONS[1]),
                _jump_table(KING_DIRECTIONS))

#: JUMPED[a * 32 + b]: the bit of the square between ``a`` and ``b`` when ``b`` is a jump
#: away from ``a``, else 0 (a step).
JUMPED = [0] * 1024
for _sq in range(32):
    for _over, _to, _ in JUMP_TARGETS[2][_sq]:
        JUMPED[_sq * 32 + _to] = _over


#: The set squares of a bitboard, lowest first.
bits = set_bits


def _chains(path: tuple[int, ...], at: int, prey: int, empty: int, jumps: JumpTable,
            crown: int, out: list[tuple[int, ...]]) -> None:
    """Append to ``out`` every completed jump chain that continues ``path`` from ``at``.

    ``prey``: the opposing pieces not yet jumped in this chain (a piece is jumped at most
    once); ``empty``: the empty squares (the mover's start square included; the jumped
    pieces stay on the board until the move ends, so no chain lands on one). A man that
    lands on its crowning row (``crown``) is crowned and the move ends there."""
    for over, to, to_bit in jumps[at]:
        if prey & over and empty & to_bit:
            longer = (*path, to)
            if to_bit & crown:
                out.append(longer)
            else:
                before = len(out)
                _chains(longer, to, prey ^ over, empty, jumps, crown, out)
                if len(out) == before:
                    out.append(longer)


def generate_moves(own: int, opp: int, kings: int, side: int) -> list[tuple[int, ...]]:
    """The legal moves of the side ``side`` (0 Black, 1 White) whose pieces are ``own``
    against ``opp`` (``kings``: the kings of both sides), each the path of squares it visits.

    Captures are compulsory: when any jump exists, only the completed jump chains are
    legal (any of them, not necessarily the longest). Order: by the moving piece's square,
    then the directions 0-3 (a chain's continuations in the same order)."""
    empty = ~(own | opp) & FULL
    captures: list[tuple[int, ...]] = []
    man_jumps = JUMP_TARGETS[side]
    king_jumps = JUMP_TARGETS[2]
    crown = CROWN_ROW[side]
    for sq in bits(own):
        if kings >> sq & 1:
            _chains((sq,), sq, opp, empty | (1 << sq), king_jumps, 0, captures)
        else:
            _chains((sq,), sq, opp, empty | (1 << sq), man_jumps, crown, captures)
    if captures:
        return captures
    moves: list[tuple[int, ...]] = []
    man_steps = STEP_TARGETS[side]
    king_steps = STEP_TARGETS[2]
    for sq in bits(own):
        for to, to_bit in (king_steps if kings >> sq & 1 else man_steps)[sq]:
            if empty & to_bit:
                moves.append((sq, to))
    return moves


def can_capture(own: int, opp: int, kings: int, side: int) -> bool:
    """Whether the side with ``own`` has a jump (cheaper than generating the chains)."""
    empty = ~(own | opp) & FULL
    man_jumps = JUMP_TARGETS[side]
    king_jumps = JUMP_TARGETS[2]
    for sq in bits(own):
        for over, _, to_bit in (king_jumps if kings >> sq & 1 else man_jumps)[sq]:
            if opp & over and empty & to_bit:
                return True
    return False


def mobility(own: int, opp: int, kings: int, side: int) -> int:
    """The number of squares the side's pieces could step to (captures aside)."""
    empty = ~(own | opp) & FULL
    man_steps = STEP_TARGETS[side]
    king_steps = STEP_TARGETS[2]
    n = 0
    for sq in bits(own):
        for _, to_bit in (king_steps if kings >> sq & 1 else man_steps)[sq]:
            if empty & to_bit:
                n += 1
    return n
