"""Static exchange evaluation (SEE): what a capture wins when both sides keep recapturing on
its square with their least valuable attacker.

The quiescence moves (:func:`.movegen.noisy_moves`) leave out the captures that lose
material by it. :func:`see` is the pure-Python reference of ``_see`` in the compiled kernels.
"""

from __future__ import annotations

from chess import BB_SQUARES, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, Board, Move

from .board import king_attacked

#: piece values of the exchange, by piece type (the king: more than all the others)
SEE_VALUE = (0, 100, 320, 330, 500, 900, 20000)

#: (capturer, victim) piece types of the captures whose capturer is worth more than its
#: victim, not counting pawn captures and promotions: N/B/R/Q/K takes a pawn, R/Q/K takes a
#: minor, Q takes a rook. (The compiled kernel reads the same from the MVV-LVA value.)
SEE_NEEDED = frozenset(
    [(pt, PAWN) for pt in (KNIGHT, BISHOP, ROOK, QUEEN, KING)]
    + [(pt, minor) for pt in (ROOK, QUEEN, KING) for minor in (KNIGHT, BISHOP)]
    + [(QUEEN, ROOK)]
)


def piece_type(b: Board, bb: int) -> int:
    """The type of the piece on the square ``bb`` (a one-bit board), 0 if it is empty."""
    if b.pawns & bb:
        return PAWN
    if b.knights & bb:
        return KNIGHT
    if b.bishops & bb:
        return BISHOP
    if b.rooks & bb:
        return ROOK
    if b.queens & bb:
        return QUEEN
    if b.kings & bb:
        return KING
    return 0


def see(b: Board, move: Move) -> int:
    """Static exchange evaluation of a capture (centipawns won by the side to move when both
    sides keep capturing on the target square with their least valuable attacker)."""
    frm, to = move.from_square, move.to_square
    tbb = BB_SQUARES[to]
    victim = piece_type(b, tbb)
    if victim == 0:  # en passant
        victim = PAWN
    occ = b.occupied ^ BB_SQUARES[frm]
    gain = [SEE_VALUE[victim]]
    attacker = piece_type(b, BB_SQUARES[frm])
    if move.promotion:
        gain[0] += SEE_VALUE[move.promotion] - SEE_VALUE[PAWN]
        attacker = move.promotion
    side = not b.turn
    by_type = (0, b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings)
    occ_co = b.occupied_co
    while True:
        # the pieces of ``side`` still on the board (``occ``) that attack ``to``
        attackers = king_attacked(b, to, occ, occ_co[side] & occ, not side)
        if not attackers:
            break
        for pt in range(PAWN, KING + 1):
            found = attackers & by_type[pt]
            if found:
                break
        if pt == KING and king_attacked(b, to, occ, occ_co[not side] & occ, side):
            break  # the king may not capture into a defended square
        gain.append(SEE_VALUE[attacker] - gain[-1])
        attacker = pt
        occ ^= found & -found
        side = not side
    while len(gain) > 1:
        last = gain.pop()
        if -last < gain[-1]:
            gain[-1] = -last
    return gain[0]
