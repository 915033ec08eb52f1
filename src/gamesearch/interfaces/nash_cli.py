"""``gamesearch nash``: Nash equilibria of a matrix game given inline or in a JSON file
(:mod:`gamesearch.search.nash` computes them; docs/equilibria.md shows the usage).

The game: ``--matrix A`` (JSON, a list of rows: the row player's payoffs) and optionally
``--matrix-b B`` (the column player's payoffs, same shape; without it the game is zero-sum,
``B = -A``), or ``--file FILE`` holding either such a matrix ``A`` or an object
``{"A": [[...]], "B": [[...]]}``. Every bad input — not JSON, ragged rows, a non-number,
NaN or infinity, an empty matrix, a game too large for the method, a file that is missing,
binary or endless — ends with one line and exit status 2 (the caller, ``cli.main``).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, TextIO

from ..errors import GameError, echo
from ..files import read_text

#: ``--method``'s choices (``search.nash.METHODS``; here so that the parser does not import
#: numpy and scipy, which only this command needs)
METHODS = ("lp", "support", "lemke-howson")
#: The largest matrix file read (a 200x200 bimatrix is well under 2 MiB).
MAX_FILE_BYTES = 4 << 20

HELP = """\
The game is given as JSON. --matrix A: a list of rows, A[i][j] the row player's payoff
when the row player picks row i and the column player column j; alone it is a zero-sum
game (the column player gets -A[i][j]). --matrix-b B: the column player's payoffs, same
shape (a general-sum "bimatrix" game). --file FILE: JSON holding a matrix A, or an object
{"A": [[...]], "B": [[...]]} (B optional); - reads standard input.

Methods: lp (zero-sum or constant-sum games: the value and optimal strategies by linear
programming, HiGHS; up to 200x200), support (support enumeration: every equilibrium of a
nondegenerate game; exponential: at most 200,000 support pairs, C(m+n, m) - 1, e.g. 10x10),
lemke-howson (Lemke-Howson from each of the m+n labels; up to 100x100). Default: lp for a
zero-sum or constant-sum game, else support.

examples:
  gamesearch nash --matrix "[[0,-1,1],[1,0,-1],[-1,1,0]]"
  gamesearch nash --matrix "[[3,0],[0,2]]" --matrix-b "[[2,0],[0,3]]" --json
  gamesearch nash --file game.json --method lemke-howson
"""


class NashInputError(GameError, ValueError):
    """Bad input to ``gamesearch nash`` (which matrices, which method)."""


def add_nash_command(sub: Any) -> None:
    """Add ``nash`` to the ``gamesearch`` sub-command parsers."""
    s = sub.add_parser("nash", help="Nash equilibria of a matrix game (zero-sum or bimatrix)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = s.add_mutually_exclusive_group()
    g.add_argument("--matrix", metavar="A", help="the row player's payoffs, JSON rows: "
                   "\"[[0,-1,1],[1,0,-1],[-1,1,0]]\" (zero-sum unless --matrix-b is given)")
    g.add_argument("--file", metavar="FILE", help="a JSON file: matrix A, or "
                   "{\"A\": ..., \"B\": ...} (- for standard input)")
    s.add_argument("--matrix-b", metavar="B", help="the column player's payoffs, JSON rows of "
                   "the same shape as A (a general-sum game)")
    s.add_argument("--method", choices=METHODS, default=None,
                   help="lp, support or lemke-howson (default: lp for a zero-sum or "
                   "constant-sum game, else support)")
    s.add_argument("--json", action="store_true", help="one JSON object: value, strategies, "
                   "every equilibrium found with both payoffs")
    s.set_defaults(func=cmd_nash)


def _nash() -> Any:
    """:mod:`gamesearch.search.nash`, or a one-line error naming the extra it needs."""
    try:
        from ..search import nash
    except ImportError as exc:
        raise NashInputError(f"gamesearch nash needs numpy and scipy ({exc}): pip install "
                             "'gamesearch[equilibria]'") from None
    return nash


def read_game(args: argparse.Namespace) -> tuple[Any, Any | None]:
    """The matrices ``(A, B or None)`` as parsed JSON, from ``--matrix``/``--matrix-b`` or
    ``--file``."""
    nash = _nash()
    if args.file is not None:
        if args.matrix_b is not None:
            raise NashInputError("--matrix-b goes with --matrix; in --file give "
                                 "{\"A\": ..., \"B\": ...}")
        data = nash.parse_json(read_text(args.file, "matrix file", MAX_FILE_BYTES),
                               f"matrix file {echo(args.file)}")
        if isinstance(data, dict):
            unknown = sorted(set(data) - {"A", "B"})
            if unknown or "A" not in data:
                raise NashInputError(f"matrix file {echo(args.file)}: an object needs key \"A\""
                                     f" and may have \"B\" (got keys {echo(sorted(data))})")
            return data["A"], data.get("B")
        return data, None
    if args.matrix is None:
        raise NashInputError("give the game: --matrix A [--matrix-b B] or --file FILE")
    a = nash.parse_json(args.matrix, "--matrix")
    b = None if args.matrix_b is None else nash.parse_json(args.matrix_b, "--matrix-b")
    return a, b


def solve(a: Any, b: Any | None, method: str | None) -> dict[str, Any]:
    """The answer as the JSON object ``--json`` prints (docs/equilibria.md)."""
    nash = _nash()
    A, B = nash.check_game(a, b, method or "lp")  # the shape checks of the widest method
    constant = nash.constant_sum(A, B)
    method = method or ("lp" if constant is not None else "support")
    nash.check_game(A, B, method)
    if method == "lp":
        nash.lp_solver()  # (scipy's import is not the solver's time)
    start = time.process_time()
    extra: dict[str, Any] = {}
    if method == "lp":
        if constant is None:
            raise NashInputError("lp solves zero-sum and constant-sum games (A + B the same "
                                 "everywhere); this game is general-sum: use --method support "
                                 "or lemke-howson")
        equilibria = [nash.solve_zero_sum(A).as_equilibrium(constant)]
    elif method == "support":
        found = nash.support_enumeration(A, B)
        equilibria = list(found.equilibria)
        extra = {"support_pairs": found.pairs, "degenerate": found.degenerate}
    else:
        equilibria, labels = [], []
        for label in range(sum(A.shape)):
            eq = nash.lemke_howson(A, B, label)
            index = next((i for i, f in enumerate(equilibria) if nash.same_equilibrium(eq, f)),
                         None)
            if index is None:
                equilibria.append(eq)
                labels.append([label])
            else:
                labels[index].append(label)
        extra = {"labels": labels}
    seconds = time.process_time() - start
    first = equilibria[0] if equilibria and constant is not None else None
    return {
        "rows": A.shape[0], "columns": A.shape[1], "method": method,
        "zero_sum": constant == 0, "constant_sum": constant,
        "value": first.row_payoff if first else None,
        "row_strategy": list(first.row) if first else None,
        "column_strategy": list(first.column) if first else None,
        "equilibria": [e.as_dict() for e in equilibria], **extra, "seconds": seconds,
    }


def _numbers(xs: list[float]) -> str:
    return " ".join(f"{x:.6g}" for x in xs)


def cmd_nash(args: argparse.Namespace, out: TextIO) -> int:
    a, b = read_game(args)
    answer = solve(a, b, args.method)
    if args.json:
        out.write(json.dumps(answer) + "\n")
        return 0
    kind = ("zero-sum" if answer["zero_sum"] else "constant-sum" if answer["constant_sum"]
            is not None else "general-sum")
    eqs = answer["equilibria"]
    out.write(f"{kind} {answer['rows']}x{answer['columns']} game, {answer['method']}: "
              f"{len(eqs)} equilibri{'um' if len(eqs) == 1 else 'a'}\n")
    if answer["value"] is not None:
        out.write(f"value {answer['value']:.6g} (the row player's payoff)\n")
    for i, e in enumerate(eqs, 1):
        out.write(f"{i}. row player {_numbers(e['row_strategy'])} | column player "
                  f"{_numbers(e['column_strategy'])} | payoffs {e['row_payoff']:.6g}, "
                  f"{e['column_payoff']:.6g}\n")
    if answer.get("degenerate"):
        out.write("note: the game is degenerate (an even number of equilibria, or supports "
                  "with many indifferent strategies): support enumeration may miss some\n")
    return 0
