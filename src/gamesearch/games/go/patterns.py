"""3x3 patterns of Go: MoGo's playout patterns and the learned pattern table of the priors.

A point's *3x3 code* is its eight neighbours, each two bits, in the ring order N, NE, E,
SE, S, SW, W, NW (``code = sum(v_i << 2 i)``): 0 empty, 1 a stone of the player to move,
2 an opponent's stone, 3 off the board. There are 4^8 = 65,536 codes.

**MoGo's patterns** (Gelly, Wang, Munos and Teytaud, "Modification of UCT with patterns in
Monte-Carlo Go", INRIA RR-6062, 2006, figures 2-5: hane, cut 1, cut 2 and the board-edge
patterns): the move is the centre; a code matches when one of the templates below matches
it after a rotation, a reflection or a swap of the colours (the paper's patterns hold for
either player). :func:`mogo_table` is the 65,536 flags. The templates are written here from
the paper's figures; where a figure is ambiguous they follow the reading common in later
programs (``x``: not ``X``; ``o``: not ``O``).

**The learned table** (the priors of :mod:`.fast`): a move's *feature* is its 3x3 code
made canonical under the eight symmetries of the square (:func:`canonical_codes`; the
colours are not swapped: the mover's stones are 1), plus a bit for "captures" (an
adjacent opponent group has one liberty) and a bit for "saves" (an adjacent own group has
one liberty). ``python -m gamesearch.games.go.train`` counts, over games of GNU Go, how
often each feature was played against how often it was on offer, and writes the weights
(:mod:`.train`); :func:`load_weights` reads them into a dense array.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from itertools import product
from typing import Any

from ..numba_support import np

#: Ring index of each cell of a 3x3 template (rows from the top, the centre left out).
_CELL_RING = {(0, 0): 7, (0, 1): 0, (0, 2): 1, (1, 2): 2, (2, 2): 3, (2, 1): 4, (2, 0): 5,
              (1, 0): 6}
#: What each template character allows (0 empty, 1 X, 2 O, 3 off the board).
_ALLOWED = {".": (0,), "X": (1,), "O": (2,), "x": (0, 2), "o": (0, 1), "?": (0, 1, 2, 3),
            " ": (3,)}

#: MoGo's patterns (RR-6062, figs. 2-5), the move at the centre.
MOGO_TEMPLATES = (
    ("XOX", "...", "???"),  # hane: enclosing hane
    ("XO.", "...", "?.?"),  # hane: non-cutting hane
    ("XO?", "X..", "x.?"),  # hane: magari
    (".O.", "X..", "..."),  # hane: katatsuke (diagonal attachment)
    ("XO?", "O.o", "?o?"),  # cut 1: unprotected cut
    ("XO?", "O.X", "???"),  # cut 1: peeped cut
    ("?X?", "O.O", "ooo"),  # cut 2
    ("OX?", "o.O", "???"),  # cut: keima
    ("X.?", "O.?", "   "),  # edge: chase
    ("OX?", "X.O", "   "),  # edge: block the side cut
    ("?X?", "x.O", "   "),  # edge: block the side connection
    ("?XO", "x.x", "   "),  # edge: sagari
    ("?OX", "X.O", "   "),  # edge: cut
)

#: Ring permutations: a quarter turn (N -> E -> S -> W) and the left-right mirror.
_ROTATE = (6, 7, 0, 1, 2, 3, 4, 5)  # new[i] = old[_ROTATE[i]]
_MIRROR = (0, 7, 6, 5, 4, 3, 2, 1)


def _symmetries() -> list[tuple[int, ...]]:
    """The eight permutations of the ring (rotations, each with and without the mirror)."""
    out = []
    perm = tuple(range(8))
    for _ in range(4):
        out.append(perm)
        out.append(tuple(perm[_MIRROR[i]] for i in range(8)))
        perm = tuple(perm[_ROTATE[i]] for i in range(8))
    return out


SYMMETRIES = _symmetries()


def code_of(values: tuple[int, ...] | list[int]) -> int:
    """The 3x3 code of eight ring values."""
    return sum(v << (2 * i) for i, v in enumerate(values))


def _template_ring(template: tuple[str, str, str]) -> list[tuple[int, ...]]:
    ring: list[tuple[int, ...]] = [()] * 8
    for (r, c), i in _CELL_RING.items():
        ring[i] = _ALLOWED[template[r][c]]
    return ring


@cache
def mogo_table() -> Any:
    """65,536 flags (``uint8``): the code matches one of :data:`MOGO_TEMPLATES` under a
    symmetry or a swap of the colours."""
    table = np.zeros(1 << 16, dtype=np.uint8)
    swap = {0: 0, 1: 2, 2: 1, 3: 3}
    for template in MOGO_TEMPLATES:
        ring = _template_ring(template)
        for values in product(*ring):
            for perm in SYMMETRIES:
                moved = [values[perm[i]] for i in range(8)]
                table[code_of(moved)] = 1
                table[code_of([swap[v] for v in moved])] = 1
    return table


@cache
def canonical_codes() -> Any:
    """For each code, the least code among its eight symmetric images (``int32``)."""
    codes = np.arange(1 << 16, dtype=np.int64)
    fields = [(codes >> (2 * i)) & 3 for i in range(8)]
    best = None
    for perm in SYMMETRIES:
        image = sum(fields[perm[i]] << (2 * i) for i in range(8))
        best = image if best is None else np.minimum(best, image)
    return best.astype(np.int32)  # type: ignore[union-attr]


#: Feature bits beside the 16 bits of the canonical code.
CAPTURE_BIT = 1 << 16
SAVE_BIT = 1 << 17
FEATURES = 1 << 18
#: The shipped table (package data) and its training log.
WEIGHTS_FILE = "patterns.json"
LOG_FILE = "patterns.log"


def feature_name(feature: int) -> str:
    """A feature as text: its 3x3 cells (rows from the top; X mover, O opponent, # off the
    board, * the move) and its flags."""
    values = [(feature >> (2 * i)) & 3 for i in range(8)]
    cells = {ring: ".XO#"[values[ring]] for ring in range(8)}
    rows = []
    for r in range(3):
        rows.append("".join("*" if (r, c) == (1, 1) else cells[_CELL_RING[(r, c)]]
                            for c in range(3)))
    flags = ("+capture" if feature & CAPTURE_BIT else "") + (
        "+save" if feature & SAVE_BIT else "")
    return "/".join(rows) + flags


def load_weights(path: str | None = None) -> tuple[Any, float, dict[str, Any]]:
    """The learned table: ``(weights, pass_weight, meta)``, ``weights`` a dense ``float64``
    array over :data:`FEATURES` (features never seen in training get 1.0, the mean),
    read from ``path`` or the package's :data:`WEIGHTS_FILE`."""
    if path is None:
        text = resources.files(__package__).joinpath("data", WEIGHTS_FILE).read_text()
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    data = json.loads(text)
    weights = np.ones(FEATURES, dtype=np.float64)
    for key, w in data["weights"].items():
        weights[int(key)] = float(w)
    return weights, float(data["pass_weight"]), dict(data.get("meta", {}))
