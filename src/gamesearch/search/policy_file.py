"""Saved policies (``gamesearch equilibrium GAME --out FILE``; the ``policy:FILE`` agent):
one JSON document, checked when loaded.

The format (``docs/equilibria_cfr.md``)::

    {"format": "gamesearch-policy", "version": 1,
     "game": "leduc_poker",              # the game's spec: a policy plays that game only
     "algorithm": "cfr+", "iterations": 1000, "exploitability": 0.000257, "value": -0.0856,
     "information_sets": 936,
     "sha256": "...",                    # of the canonical text of all the rest
     "policy": {"<information set>": [p1, p2, ...], ...}}

A key is the ``str`` of a seat's view (the information set; for the poker games,
OpenSpiel's information-state string); its list gives the probabilities of the set's legal
actions in the game's order (``observation().actions(view)``). ``sha256`` is the SHA-256
of the canonical text of the document without it, ``json.dumps(doc, sort_keys=True,
separators=(",", ":"))``: a changed header or policy is refused. A file is written
to a temporary name beside the target and renamed into place. Loading refuses, with one
line naming the file and the fault (:class:`PolicyFileError`): a file too large, not JSON,
of another format or version, of another game, whose checksum does not match, or whose
probabilities are not finite, not non-negative or do not sum to 1.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from ..errors import GameError, echo
from ..game import Game

FORMAT = "gamesearch-policy"
VERSION = 1
#: the largest policy file read (bytes)
MAX_BYTES = 256 << 20

#: information-set key (``str`` of a view) -> probabilities of its actions, in order
PolicyTable = dict[str, list[float]]


class PolicyFileError(GameError, ValueError):
    """A policy file that cannot be used: missing, damaged, or of another game."""


def canonical(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def checksum(doc: dict[str, Any]) -> str:
    """The SHA-256 of ``doc`` without its ``sha256`` field."""
    return hashlib.sha256(canonical({k: v for k, v in doc.items()
                                     if k != "sha256"}).encode()).hexdigest()


def table_of(policy: dict[Hashable, dict[Any, float]],
             actions: dict[Hashable, list[Any]]) -> PolicyTable:
    """A solver's policy (key -> {action: probability}) as a table over ``actions``, each
    set's legal actions in order."""
    return {str(key): [float(policy[key].get(a, 0.0)) for a in acts]
            for key, acts in actions.items() if key in policy}


def save_policy(path: str | Path, game: Game[Any, Any], table: PolicyTable,
                **meta: Any) -> None:
    """Write ``table`` for ``game`` with ``meta`` (algorithm, iterations, ...) to ``path``,
    atomically."""
    doc = {"format": FORMAT, "version": VERSION, "game": game.spec, **meta,
           "information_sets": len(table), "policy": table}
    doc["sha256"] = checksum(doc)
    target = Path(path)
    temp = target.with_name(target.name + f".tmp{os.getpid()}")
    try:
        temp.write_text(json.dumps(doc, indent=None, separators=(",", ":")) + "\n",
                        encoding="utf-8")
        os.replace(temp, target)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise PolicyFileError(f"policy file {echo(str(path))}: cannot write: "
                              f"{exc.strerror or exc}") from None


def load_policy(path: str | Path, game: Game[Any, Any]) -> tuple[PolicyTable, dict[str, Any]]:
    """The table and the header (everything but the policy) of the policy file at
    ``path``, checked to be a whole, unchanged policy of ``game``."""
    name = echo(str(path))

    def fail(fault: str) -> PolicyFileError:
        return PolicyFileError(f"policy file {name}: {fault}")

    try:
        size = Path(path).stat().st_size
        if size > MAX_BYTES:
            raise fail(f"{size:,} bytes is more than a policy file holds "
                       f"({MAX_BYTES:,} at most)")
        doc = json.loads(Path(path).read_bytes().decode("utf-8"))
    except OSError as exc:
        raise fail(f"cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise fail("not a policy file (not JSON)") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise fail(f"not a policy file (no \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise fail(f"version {echo(doc.get('version'), 20)}; this program reads version "
                   f"{VERSION}")
    if doc.get("game") != game.spec:
        raise fail(f"a policy of {echo(doc.get('game'), 40)}, not of {game.spec}")
    table = doc.get("policy")
    if not isinstance(table, dict) or checksum_or_none(doc) != doc.get("sha256"):
        raise fail("damaged: its checksum does not match")
    for key, probs in table.items():
        if not isinstance(probs, list) or not probs or not all(
                isinstance(p, int | float) and not isinstance(p, bool) and math.isfinite(p)
                and p >= 0 for p in probs) or abs(sum(probs) - 1.0) > 1e-6:
            raise fail(f"information set {echo(key, 40)}: expected probabilities (finite, "
                       "non-negative, summing to 1)")
    header = {k: v for k, v in doc.items() if k != "policy"}
    return table, header


def checksum_or_none(table: Any) -> str | None:
    try:
        return checksum(table)
    except (TypeError, ValueError):
        return None
