"""The ``equilibrium`` command (wired into ``gamesearch`` by
:func:`add_equilibrium_command`): an approximate or exact equilibrium of a two-player
zero-sum game with hidden information, its exploitability and value, and optionally the
average policy saved to a file (``docs/equilibria_cfr.md``).

``gamesearch equilibrium leduc_poker --algorithm cfr+ --iterations 1000 --json`` prints
``exploitability`` (NashConv / 2), ``value`` (player 0's, both playing the policy),
``iterations``, ``seconds`` (the solver's CPU time, the exploitability not counted),
``information_sets`` and ``nodes`` (histories visited).

``gamesearch equilibrium leduc_poker --agent pimc:worlds=20 --json`` measures an agent
instead: its decision at every information set as a policy, and that policy's
``exploitability`` (docs/results/clairvoyance.md); ``gamesearch equilibrium tictactoe
--agent minimax`` its move at every state of a perfect-information game, and the profile's
NashConv exactly (``nash_conv_exact``: ``"0"`` for minimax).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, TextIO

from ..agents import DECISION_KINDS, agent_decider, make_agent
from ..argtypes import argtype, help_range
from ..errors import InvalidLimitError, UnsupportedGameError
from ..game import Game
from ..games import get_game
from ..search.agent_policy import decisions_policy
from ..search.cfr import nash_conv
from ..search.equilibrium import EQUILIBRIUM_ALGORITHMS, solve_equilibrium
from ..search.perfect_profile import nash_conv_exact, search_profile
from ..search.policy_file import save_policy
from ..spec import GAME_SPEC_HELP


def agent_exploitability(game: Game[Any, Any], spec: str, kind: str = "choice",
                         seed: int = 0) -> dict[str, Any]:
    """How far the agent ``spec`` plays from an equilibrium: its decision at every
    information set of a two-player zero-sum game with hidden information, as a policy
    (:func:`gamesearch.search.agent_policy.decisions_policy`, ``kind`` as
    :data:`gamesearch.agents.DECISION_KINDS`), measured by its exploitability; or, in a
    two-player game of perfect information, its move at every state as a profile and its
    NashConv exactly (:func:`gamesearch.search.perfect_profile.nash_conv_exact`: 0 for
    minimax). ``seconds``: the CPU time of the decisions."""
    with make_agent(game, spec) as probe:  # (a bad spec is refused before any walk)
        if probe.interactive:
            raise InvalidLimitError(f"equilibrium --agent {spec!r}: an agent that asks a "
                                    "person cannot be asked at every decision")
    if game.observation() is None:
        if game.num_players != 2:
            raise UnsupportedGameError(f"equilibrium --agent: {game.name} has "
                                       f"{game.num_players} players; NashConv here is "
                                       "two players'")
        start = time.process_time()
        with make_agent(game, spec) as agent:
            profile = search_profile(game, lambda state: agent.choose(game, state))
        seconds = time.process_time() - start
        exact = nash_conv_exact(game, profile)
        return {"game": game.spec, "agent": spec, "decision": "choice",
                "nash_conv": float(exact.nash_conv), "nash_conv_exact": str(exact.nash_conv),
                "exploitability": float(exact.nash_conv) / 2, "states": len(profile),
                "seconds": seconds}
    made = decisions_policy(game, agent_decider(game, spec, kind), seed=seed)
    gap = nash_conv(game, made.policy)
    return {"game": game.spec, "agent": spec, "decision": kind, "nash_conv": gap,
            "exploitability": gap / 2, "information_sets": made.information_sets,
            "seconds": made.seconds}


def cmd_agent(args: argparse.Namespace, game: Game[Any, Any], out: TextIO) -> int:
    report = agent_exploitability(game, args.agent, args.decision,
                                  0 if args.seed is None else args.seed)
    if args.json:
        json.dump(report, out)
        out.write("\n")
        return 0
    sets = (f"{report['information_sets']:,} information sets" if "information_sets" in report
            else f"{report['states']:,} states, NashConv {report['nash_conv_exact']} exactly")
    out.write(f"{report['game']}: {report['agent']} ({report['decision']}) at every "
              f"decision, {sets}\nexploitability {report['exploitability']:.6g} "
              f"(NashConv/2)\ndecisions CPU {report['seconds']:.3f} s\n")
    return 0


def cmd_equilibrium(args: argparse.Namespace, out: TextIO) -> int:
    game = get_game(args.game)
    if args.agent is not None:
        if args.out:
            raise InvalidLimitError("equilibrium: --out saves a solver's policy; --agent "
                                    "measures an agent's (give one or the other)")
        return cmd_agent(args, game, out)
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
    s.add_argument("--agent", metavar="SPEC", default=None,
                   help="instead of solving: the exploitability of this agent's play, its "
                        "decision at every information set (pimc:worlds=20, "
                        "ismcts:iterations=1000); in a two-player game of perfect "
                        "information its move at every state, NashConv exactly "
                        "(tictactoe with minimax: 0)")
    s.add_argument("--decision", choices=list(DECISION_KINDS), default="choice",
                   help="with --agent: " + "; ".join(f"{k}: {v}"
                                                    for k, v in DECISION_KINDS.items()))
    s.add_argument("--json", action="store_true", help="one JSON object")
    s.set_defaults(func=cmd_equilibrium)
