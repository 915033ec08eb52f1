"""The star board of Chinese Checkers: 121 holes, their names, neighbours, jumps and
triangles, built from the geometry (not copied from OpenSpiel's tables, so that the
comparison with OpenSpiel checks them).

Holes are numbered 0-120 in reading order, top row first, left to right: the numbering of
OpenSpiel's ``chinese_checkers`` (its ``kCellRow``/``kCellCol``). A hole sits at row ``r``
(0-16) and *doubled* column ``c`` (0-24): its six neighbours are at ``(r, c±2)`` and
``(r±1, c±1)``. A hole's name is its row letter (``a`` the top tip, ``q`` the bottom tip)
and its place in the row from the left, from 1: ``a1`` is the top tip (hole 0), ``e1`` the
left end of the first long row (hole 10), ``q1`` the bottom tip (hole 120).

The six triangles, numbered as OpenSpiel's (``kTriangleCells``): 0 north (rows a-d),
1 north-east, 2 south-east, 3 south (rows n-q), 4 south-west, 5 north-west. A player
starting in triangle ``t`` aims at triangle ``(t + 3) % 6``, the opposite one.
"""

from __future__ import annotations

import string

#: Holes per row, top to bottom.
ROW_LENGTHS = (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)
#: The doubled column of the first hole of each row.
ROW_START = (12, 11, 10, 9, 0, 1, 2, 3, 4, 3, 2, 1, 0, 9, 10, 11, 12)
ROWS = len(ROW_LENGTHS)
ROW_LETTERS = string.ascii_lowercase[:ROWS]
#: (row, doubled column) of every hole, in OpenSpiel's order.
CELLS: tuple[tuple[int, int], ...] = tuple(
    (r, ROW_START[r] + 2 * i) for r in range(ROWS) for i in range(ROW_LENGTHS[r]))
HOLES = len(CELLS)
INDEX = {rc: i for i, rc in enumerate(CELLS)}
#: The name of each hole (``a1`` ... ``q1``) and the hole of each name.
NAMES: tuple[str, ...] = tuple(
    f"{ROW_LETTERS[r]}{i + 1}" for r in range(ROWS) for i in range(ROW_LENGTHS[r]))
BY_NAME = {n: i for i, n in enumerate(NAMES)}
#: The six directions (row step, doubled column step), in OpenSpiel's order:
#: up-left, up-right, left, right, down-left, down-right.
DIRECTIONS = ((-1, -1), (-1, 1), (0, -2), (0, 2), (1, -1), (1, 1))


def _at(r: int, c: int) -> int:
    return INDEX.get((r, c), -1)


#: NEIGHBOUR[h][d]: the hole next to ``h`` in direction ``d``, or -1 off the board.
NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(_at(r + dr, c + dc) for dr, dc in DIRECTIONS) for r, c in CELLS)
#: JUMP[h][d]: the hole two steps from ``h`` in direction ``d`` (where a jump over the
#: neighbour lands), or -1.
JUMP: tuple[tuple[int, ...], ...] = tuple(
    tuple(_at(r + 2 * dr, c + 2 * dc) for dr, dc in DIRECTIONS) for r, c in CELLS)


def distance(a: int, b: int) -> int:
    """The number of steps between holes ``a`` and ``b`` on the hexagonal grid."""
    (r1, c1), (r2, c2) = CELLS[a], CELLS[b]
    dr, dc = abs(r1 - r2), abs(c1 - c2)
    return dr + max(0, (dc - dr) // 2)


_CENTRE = INDEX[(8, 12)]


def _triangle_of(h: int) -> int:
    """The triangle of hole ``h`` (0-5), or -1 for the central hexagon."""
    if distance(h, _CENTRE) <= 4:
        return -1
    r, c = CELLS[h]
    if r < 4:
        return 0
    if r > 12:
        return 3
    if r < 8:
        return 1 if c > 12 else 5
    return 2 if c > 12 else 4


#: TRIANGLES[t]: the ten holes of triangle ``t``, in increasing order.
TRIANGLES: tuple[tuple[int, ...], ...] = tuple(
    tuple(h for h in range(HOLES) if _triangle_of(h) == t) for t in range(6))
TRIANGLE_MASKS: tuple[int, ...] = tuple(sum(1 << h for h in tri) for tri in TRIANGLES)
#: The tip of each triangle: its hole farthest from the centre.
TIPS: tuple[int, ...] = tuple(max(tri, key=lambda h: distance(h, _CENTRE)) for tri in TRIANGLES)

#: The triangle each player starts in, by number of players (OpenSpiel's ``PlayerSlots``).
SLOTS: dict[int, tuple[int, ...]] = {
    2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)}


def target(home: int) -> int:
    """The triangle a player starting in triangle ``home`` must fill: the opposite one."""
    return (home + 3) % 6


#: GOAL_DISTANCE[t][h]: the steps from hole ``h`` to the tip of triangle ``t``.
GOAL_DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(distance(h, TIPS[t]) for h in range(HOLES)) for t in range(6))
#: The smallest sum of ten pieces' distances to a tip: the triangle filled (1 hole at
#: distance 0, 2 at 1, 3 at 2, 4 at 3). It is reached only by filling the triangle.
FILLED_DISTANCE = 0 * 1 + 1 * 2 + 2 * 3 + 3 * 4
#: The sum at the start (the home triangle, seen from the opposite tip) less the above:
#: the distance left at the start, 120 for every player.
START_DISTANCE = sum(GOAL_DISTANCE[3][h] for h in TRIANGLES[0]) - FILLED_DISTANCE
#: A bound on any player's distance left (ten pieces on the farthest holes).
MAX_DISTANCE = 10 * 16 - FILLED_DISTANCE

assert HOLES == 121 and all(len(t) == 10 for t in TRIANGLES)
assert START_DISTANCE == 120
