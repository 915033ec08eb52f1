"""The evaluation's weights as one object: read from the modules that hold them, written to
and read from a JSON file, and put back into those modules (and the compiled kernels).

The weights live where the evaluation reads them: material and piece-square tables in
:mod:`.pst` (``MG_VALUE``, ``EG_VALUE``, the a8-first tables and the signed ``MG``/``EG`` the
state keeps its running score with), the pawn-structure, king-shield, bishop-pair and tempo
numbers in :mod:`.evaluation`. The compiled kernels copy them at start-up
(``init_eval``/``init_result``, called by :mod:`.backend`). :func:`apply_weights` changes them
in those same places (the ``MG``/``EG`` lists in place, so every module holding them sees the
new numbers) and initialises the compiled kernels again from them, so the two kernels (and any
other twin reading the same objects at init) evaluate with the same numbers.

Apply weights before making games and states: a state's running score and a game's
evaluation cache keep the numbers they were made with (:func:`apply_weights` clears the
module-level pawn caches).

The file format (``gamesearch-chess-weights``, version 1) is JSON::

    {"format": "gamesearch-chess-weights", "version": 1,
     "mg_value": [P, N, B, R, Q], "eg_value": [...],
     "mg_pst": {"P": [64 numbers, a8 first], "N": [...], ..., "K": [...]}, "eg_pst": {...},
     "passed_mg": [8], "passed_eg": [8], "doubled": [mg, eg], "isolated": [mg, eg],
     "shield_bonus": n, "open_file_near_king": n, "bishop_pair": [mg, eg], "tempo": n}

All numbers are whole centipawns; other keys (``"tuned"``: how a file was made) are kept
as :attr:`Weights.extra`. Named weights shipped with the package (:data:`NAMED`): ``pesto``
(PeSTO's published tables and the evaluation's hand-set terms: the engine's own numbers,
:data:`DEFAULT_NAME`) and ``tuned`` (Texel-tuned on 700 of the engine's own games,
:mod:`.texel`, tables kept; docs/games/chess.md has the data, the fit and the match).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ...errors import GameError, echo
from . import evaluation, pst

FORMAT = "gamesearch-chess-weights"
VERSION = 1
PIECES = "PNBRQK"
#: weights shipped in the package (``src/gamesearch/data/chess_weights_NAME.json``)
NAMED = ("pesto", "tuned")
#: the shipped weights the engine's own numbers (in :mod:`.pst`, :mod:`.evaluation`) equal
DEFAULT_NAME = "pesto"
#: no weight may leave this range (centipawns): far below the evaluation's limit
MAX_WEIGHT = 5000


class WeightsError(GameError, ValueError):
    """A weights file or name that cannot be used."""


@dataclass
class Weights:
    """Every tunable number of the evaluation (centipawns; tables a8 first, by piece letter)."""

    mg_value: list[int]
    eg_value: list[int]
    mg_pst: dict[str, list[int]]
    eg_pst: dict[str, list[int]]
    passed_mg: list[int]
    passed_eg: list[int]
    doubled: list[int]
    isolated: list[int]
    shield_bonus: int
    open_file_near_king: int
    bishop_pair: list[int]
    tempo: int
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        for name in _FIELDS:
            out[name] = getattr(self, name)
        out.update({k: v for k, v in self.extra.items() if k not in out})
        return out

    @staticmethod
    def from_json(data: Any, source: str = "weights") -> Weights:
        """The weights of a parsed JSON object (one-line :class:`WeightsError` if unusable)."""
        return _from_json(data, source)

    def copy(self) -> Weights:
        return _from_json(json.loads(json.dumps(self.to_json())), "weights")


#: (field, shape): an int, a list of n, or a table (six lists of 64 by piece letter)
_FIELDS: dict[str, Any] = {
    "mg_value": 5, "eg_value": 5, "mg_pst": "table", "eg_pst": "table",
    "passed_mg": 8, "passed_eg": 8, "doubled": 2, "isolated": 2,
    "shield_bonus": None, "open_file_near_king": None, "bishop_pair": 2, "tempo": None,
}


def _number(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise WeightsError(f"{where}: expected a whole number, got {echo(value)}")
    if isinstance(value, float) and (not math.isfinite(value) or value != int(value)):
        raise WeightsError(f"{where}: expected a whole number, got {echo(value)}")
    n = int(value)
    if not -MAX_WEIGHT <= n <= MAX_WEIGHT:
        raise WeightsError(f"{where}: {n} is out of range -{MAX_WEIGHT}..{MAX_WEIGHT}")
    return n


def _numbers(where: str, value: Any, n: int) -> list[int]:
    if not isinstance(value, list) or len(value) != n:
        raise WeightsError(f"{where}: expected a list of {n} whole numbers")
    return [_number(f"{where}[{i}]", v) for i, v in enumerate(value)]


def _from_json(data: Any, source: str) -> Weights:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise WeightsError(f"{source}: not a chess weights file (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise WeightsError(f"{source}: weights format version {echo(data.get('version'))}"
                           f", this gamesearch reads version {VERSION}")
    values: dict[str, Any] = {}
    for name, shape in _FIELDS.items():
        if name not in data:
            raise WeightsError(f"{source}: no {name!r}")
        where = f"{source}: {name}"
        if shape is None:
            values[name] = _number(where, data[name])
        elif shape == "table":
            table = data[name]
            if not isinstance(table, dict) or sorted(table) != sorted(PIECES):
                raise WeightsError(f"{where}: expected a table for each of {', '.join(PIECES)}")
            values[name] = {p: _numbers(f"{where}.{p}", table[p], 64) for p in PIECES}
        else:
            values[name] = _numbers(where, data[name], shape)
    for name in ("mg_pst", "eg_pst"):
        pawn = values[name]["P"]
        if any(pawn[:8]) or any(pawn[56:]):
            raise WeightsError(f"{source}: {name}.P: a pawn never stands on the first or last "
                               "rank: those 16 entries must be 0")
    extra = {k: v for k, v in data.items() if k not in _FIELDS and k not in ("format", "version")}
    return Weights(**values, extra=extra)


def current_weights() -> Weights:
    """The numbers the evaluation uses now (read from :mod:`.pst` and :mod:`.evaluation`)."""
    e = evaluation
    return Weights(
        mg_value=list(pst.MG_VALUE[1:6]), eg_value=list(pst.EG_VALUE[1:6]),
        mg_pst={p: list(pst._MG_PST_A8[i + 1]) for i, p in enumerate(PIECES)},
        eg_pst={p: list(pst._EG_PST_A8[i + 1]) for i, p in enumerate(PIECES)},
        passed_mg=list(e.PASSED_MG), passed_eg=list(e.PASSED_EG),
        doubled=[e.DOUBLED_MG, e.DOUBLED_EG], isolated=[e.ISOLATED_MG, e.ISOLATED_EG],
        shield_bonus=e.SHIELD_BONUS, open_file_near_king=e.OPEN_FILE_NEAR_KING,
        bishop_pair=list(e.BISHOP_PAIR), tempo=e.TEMPO,
    )


def apply_weights(w: Weights) -> None:
    """Make ``w`` the evaluation's numbers, in the places both kernels read them, and
    initialise the compiled kernels again (when built). Clears the pawn caches."""
    from . import backend

    vp, vn, vb, vr, vq = w.mg_value
    pst.MG_VALUE = (0, vp, vn, vb, vr, vq, 0)
    vp, vn, vb, vr, vq = w.eg_value
    pst.EG_VALUE = (0, vp, vn, vb, vr, vq, 0)
    for i, p in enumerate(PIECES):
        pst._MG_PST_A8[i + 1] = tuple(w.mg_pst[p])
        pst._EG_PST_A8[i + 1] = tuple(w.eg_pst[p])
    # in place: board.py, backend.py and the package hold these very lists
    for table, new in ((pst.MG, pst._signed_tables(pst.MG_VALUE, pst._MG_PST_A8)),
                       (pst.EG, pst._signed_tables(pst.EG_VALUE, pst._EG_PST_A8))):
        for c in range(2):
            for pt in range(7):
                table[c][pt][:] = new[c][pt]
    e = evaluation
    r0, r1, r2, r3, r4, r5, r6, r7 = w.passed_mg
    e.PASSED_MG = (r0, r1, r2, r3, r4, r5, r6, r7)
    r0, r1, r2, r3, r4, r5, r6, r7 = w.passed_eg
    e.PASSED_EG = (r0, r1, r2, r3, r4, r5, r6, r7)
    e.DOUBLED_MG, e.DOUBLED_EG = w.doubled
    e.ISOLATED_MG, e.ISOLATED_EG = w.isolated
    e.SHIELD_BONUS = w.shield_bonus
    e.OPEN_FILE_NEAR_KING = w.open_file_near_king
    e.BISHOP_PAIR = (w.bishop_pair[0], w.bishop_pair[1])
    e.TEMPO = w.tempo
    e._PAWN_CACHE.clear()
    e._PAWN_KING_CACHE.clear()
    backend.init_compiled_weights()


def read_weights(path: str) -> Weights:
    """The weights of a JSON file (one-line :class:`WeightsError` when unusable)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise WeightsError(f"weights file {echo(path)} does not exist") from None
    except UnicodeDecodeError:
        raise WeightsError(f"weights file {echo(path)} is not JSON (not UTF-8 text)") from None
    except OSError as exc:
        raise WeightsError(f"weights file {echo(path)}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise WeightsError(f"weights file {echo(path)} is not JSON ({exc.msg}, line "
                           f"{exc.lineno})") from None
    return _from_json(data, f"weights file {echo(path)}")


def named_weights(name: str) -> Weights:
    """The weights shipped as ``name`` (one of :data:`NAMED`)."""
    if name not in NAMED:
        raise WeightsError(f"no weights named {echo(name)} (named: {', '.join(NAMED)})")
    try:
        text = resources.files("gamesearch").joinpath(
            f"data/chess_weights_{name}.json").read_text(encoding="utf-8")
    except OSError:
        raise WeightsError(f"the shipped weights {name!r} are missing from this "
                           "installation") from None
    return _from_json(json.loads(text), f"weights {name!r}")


def load_weights(name_or_path: str) -> Weights:
    """Shipped weights by name (:data:`NAMED`), else a JSON file's."""
    return named_weights(name_or_path) if name_or_path in NAMED else read_weights(name_or_path)


def write_weights(w: Weights, path: str) -> None:
    """Write ``w`` as JSON (tables 8 numbers a line, a8 first, for reading)."""
    data = w.to_json()
    lines = ["{"]
    items = list(data.items())
    for k, (name, value) in enumerate(items):
        comma = "," if k < len(items) - 1 else ""
        if isinstance(value, dict) and name in ("mg_pst", "eg_pst"):
            lines.append(f"  {json.dumps(name)}: {{")
            for j, p in enumerate(PIECES):
                rows = [", ".join(str(v) for v in value[p][r * 8:r * 8 + 8]) for r in range(8)]
                body = ",\n      ".join(rows)
                lines.append(f"    {json.dumps(p)}: [\n      {body}\n    ]"
                             + ("," if j < 5 else ""))
            lines.append("  }" + comma)
        else:
            lines.append(f"  {json.dumps(name)}: {json.dumps(value)}{comma}")
    lines.append("}")
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    except OSError as exc:
        raise WeightsError(f"cannot write weights file {echo(path)}: {exc.strerror or exc}"
                           ) from None
