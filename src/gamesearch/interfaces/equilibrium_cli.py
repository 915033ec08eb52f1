"""The ``equilibrium`` command (wired into ``gamesearch`` by
:func:`add_equilibrium_command`): an approximate or exact equilibrium of a two-player
zero-sum game with hidden information, its exploitability and value, and optionally the
average policy saved to a file (``docs/equilibria_cfr.md``).

``gamesearch equilibrium leduc_poker --algorithm cfr+ --iterations 1000 --json`` prints
``exploitability`` (NashConv / 2), ``value`` (player 0's, both playing the policy),
``iterations``, ``seconds`` (the solver's CPU time, the exploitability not counted),
``information_sets`` and ``nodes`` (histories visited).
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from ..argtypes import argtype, help_range
from ..games import get_game
from ..search.equilibrium import EQUILIBRIUM_ALGORITHMS, solve_equilibrium
from ..search.policy_file import save_policy
from ..spec import GAME_SPEC_HELP


def cmd_equilibrium(args: argparse.Namespace, out: TextIO) -> int:
    game = get_game(args.game)
    result = solve_equilibrium(game, args.algorithm, args.iterations, args.seed)
    report: dict[str, Any] = result.as_dict()
    if args.out:
        save_policy(args.out, game, result.table, algorithm=result.algorithm,
                    iterations=result.iterations, exploitability=result.exploitability,
                    value=result.value)
        report["out"] = args.out
    if args.json:
        json.dump(report, out)
        out.write("\n")
        return 0
    out.write(f"{result.game}: {result.algorithm}, {result.iterations:,} iterations, "
              f"{result.information_sets:,} information sets\n"
              f"exploitability {result.exploitability:.6g} (NashConv/2)\n"
              f"value {result.value:.6f} (player 0, both playing the average policy)\n"
              f"solver CPU {result.seconds:.3f} s\n")
    if args.out:
        out.write(f"policy saved to {args.out}\n")
    return 0


def add_equilibrium_command(sub: Any) -> None:
    s = sub.add_parser("equilibrium", help="an equilibrium of a two-player zero-sum game "
                       "with hidden information (CFR, CFR+, DCFR, MCCFR, sequence-form LP)")
    s.add_argument("game", help=GAME_SPEC_HELP)
    s.add_argument("--algorithm", choices=list(EQUILIBRIUM_ALGORITHMS), default="cfr+",
                   help="; ".join(f"{k}: {v}" for k, v in EQUILIBRIUM_ALGORITHMS.items()))
    s.add_argument("--iterations", type=argtype("cfr_iterations"), default=1000,
                   help="iterations (default 1000) " + help_range("cfr_iterations"))
    s.add_argument("--seed", type=argtype("seed"), default=None,
                   help="the Monte Carlo CFRs' random seed")
    s.add_argument("--out", metavar="FILE", default=None,
                   help="save the average policy (JSON with a checked header)")
    s.add_argument("--json", action="store_true", help="one JSON object")
    s.set_defaults(func=cmd_equilibrium)
