"""Double-dummy benchmark: our solver against DDS (the ``endplay`` package) on random deals.

For each deal (seeded: ``random.Random(seed)`` shuffles the pack, 13 cards a seat, seeds
``--first`` on), the full table of 5 strains x 4 declarers, solved by

* DDS through ``endplay.dds.calc_dd_table`` (one call a table, single-threaded here:
  ``endplay`` runs DDS's own table solver), and
* ours: the compiled double-dummy solver by partition search
  (:mod:`gamesearch.games.bridge.partition`, ``compiled.solve_table``: 20 solves a table on
  the process's one table, emptied before each deal so that a deal's figures do not depend
  on the deals before it),

then every entry compared (any disagreement is printed and makes the exit status 1). It
prints, per deal, both times and our nodes, then the agreement, the mean time per table of
each and their ratio. Each deal's record (with the solver's commit and the load
average) is appended to ``--out`` (JSON lines) and a run with ``--resume`` skips the seeds
already there and reports over all of them, so that the 1,000 deals can be measured in
chunks. ``--time S`` stops starting new deals after S
seconds (a bounded run says how many it did and projects the rest). The first compiled
call (numba compiles, about 10-20 s) is made before the clock starts.

``--pimc-time S``: instead, PIMC's opening lead (``pimc:worlds=20,time=S``, double dummy
per world) on the full deals, its wall time per decision against S.

    nice -n 10 .venv/bin/python benchmarks/bridge_dds.py --deals 1000 --time 1800 --resume
    nice -n 10 .venv/bin/python benchmarks/bridge_dds.py --first 1 --deals 3
    nice -n 10 .venv/bin/python benchmarks/bridge_dds.py --deals 100 --dds-only
    nice -n 10 .venv/bin/python benchmarks/bridge_dds.py --deals 5 --pimc-time 1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from gamesearch.games.bridge import compiled, partition
from gamesearch.games.bridge.cards import SEATS, STRAINS, format_deal, parse_deal
from gamesearch.games.bridge.rules import deal_from_seed


def dds_table(pbn: str) -> list[list[int]]:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal, Denom, Player

    denoms = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
    players = [Player.north, Player.east, Player.south, Player.west]
    t = calc_dd_table(Deal(pbn))
    return [[t[denoms[s], players[d]] for d in range(4)] for s in range(5)]


def solver_version() -> str:
    """The commit of the solver's code (``+`` when it has uncommitted changes), so that the
    records of a resumed run say which deals ran with which version."""
    here = Path(__file__).resolve().parent.parent
    src = "src/gamesearch/games/bridge"
    try:
        commit = subprocess.run(["git", "log", "-1", "--format=%h", "--", src], cwd=here,
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", src], cwd=here,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+" if dirty else "")


def ours(hands: tuple[int, int, int, int]) -> tuple[list[list[int]], int]:
    """The 20 solves on the process's table, emptied first."""
    partition.shared_table().clear()
    return compiled.solve_table(hands)


def pimc_times(first: int, deals: int, seconds: float) -> int:
    """PIMC's opening lead on each deal under ``time=seconds``: the wall time of each."""
    from gamesearch.agents import make_agent
    from gamesearch.games.bridge.rules import Bridge

    print(f"{'seed':>6} {'limit s':>8} {'wall s':>8} {'worlds':>7} {'nodes':>10}")
    worst = 0.0
    for seed in range(first, first + deals):
        game = Bridge(contract="3N", declarer="S", deal=seed)
        state = game.initial_state()
        seat = game.to_move(state)
        view = game.observation().observe(state, seat)
        agent = make_agent(game, f"pimc:worlds=20,time={seconds},seed={seed}")
        t = time.perf_counter()
        agent.choose(game, view)
        wall = time.perf_counter() - t
        worst = max(worst, wall)
        print(f"{seed:>6} {seconds:>8.2f} {wall:>8.3f} {len(agent.last.worlds):>7} "
              f"{agent.last.nodes:>10}", flush=True)
    print(f"worst wall time {worst:.3f} s for a limit of {seconds} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--first", type=int, default=0, help="the first deal's seed")
    ap.add_argument("--time", type=float, default=None,
                    help="start no new deal after this many seconds")
    ap.add_argument("--out", default="benchmarks/results/bridge_dds.jsonl",
                    help="JSON lines, one record a deal (appended)")
    ap.add_argument("--resume", action="store_true",
                    help="skip the seeds already in --out and report over all of them")
    ap.add_argument("--dds-only", action="store_true", help="time DDS alone on the deals")
    ap.add_argument("--pimc-time", type=float, default=None,
                    help="time PIMC's opening lead under this limit instead")
    args = ap.parse_args(argv)
    if args.dds_only:
        t = time.perf_counter()
        for seed in range(args.first, args.first + args.deals):
            dds_table(format_deal(deal_from_seed(seed)))
        print(f"DDS: {args.deals} tables, {(time.perf_counter() - t) / args.deals:.4f} s a "
              "table")
        return 0
    if not compiled.available():
        sys.exit("numba is not installed: pip install 'gamesearch[fast]'")
    compiled.solve(4, 0, parse_deal("N:A... K... Q... J..."))  # compile before the clock
    if args.pimc_time is not None:
        return pimc_times(args.first, args.deals, args.pimc_time)
    out = Path(args.out)
    records: dict[int, dict[str, object]] = {}
    if args.resume and out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            records[int(r["seed"])] = r
    out.parent.mkdir(parents=True, exist_ok=True)
    solver = solver_version()
    started = time.perf_counter()
    print(f"{'seed':>6} {'DDS s':>8} {'ours s':>9} {'ratio':>7} {'our nodes':>12}")
    wanted = range(args.first, args.first + args.deals)
    for seed in wanted:
        if seed in records:
            continue
        if args.time is not None and time.perf_counter() - started > args.time:
            break
        hands = deal_from_seed(seed)
        pbn = format_deal(hands)
        t = time.perf_counter()
        reference = dds_table(pbn)
        dds_s = time.perf_counter() - t
        t = time.perf_counter()
        table, nodes = ours(hands)
        our_s = time.perf_counter() - t
        wrong = [f"{STRAINS[s]} by {SEATS[d]}: ours {table[s][d]}, DDS {reference[s][d]}"
                 for s in range(5) for d in range(4) if table[s][d] != reference[s][d]]
        for w in wrong:
            print(f"DISAGREE seed {seed} {w} ({pbn})")
        records[seed] = {"seed": seed, "dds_s": round(dds_s, 4), "ours_s": round(our_s, 4),
                         "nodes": nodes, "agree": 20 - len(wrong), "solver": solver,
                         "load": round(os.getloadavg()[0], 2)}
        with out.open("a") as f:
            f.write(json.dumps(records[seed]) + "\n")
        print(f"{seed:>6} {dds_s:>8.3f} {our_s:>9.2f} {our_s / dds_s:>7.1f} {nodes:>12}",
              flush=True)
    done = [records[s] for s in wanted if s in records]
    if not done:
        return 1
    agree = sum(int(str(r["agree"])) for r in done)
    entries = 20 * len(done)
    dds_total = sum(float(str(r["dds_s"])) for r in done)
    ours_total = sum(float(str(r["ours_s"])) for r in done)
    nodes = sorted(int(str(r["nodes"])) for r in done)
    print(f"\n{len(done)} deals x 20 = {entries} results, agreement {agree}/{entries} "
          f"({100 * agree / entries:.2f} %)")
    print(f"time per full table: DDS {dds_total / len(done):.3f} s, ours "
          f"{ours_total / len(done):.3f} s, ratio {ours_total / dds_total:.1f}x; our nodes "
          f"a table: median {nodes[len(nodes) // 2]}, max {nodes[-1]}, total {sum(nodes)}")
    ratios = sorted(float(str(r["ours_s"])) / max(float(str(r["dds_s"])), 1e-9) for r in done)
    within = sum(1 for x in ratios if x <= 10)
    print(f"ratio per deal: min {ratios[0]:.1f}x, quartiles {ratios[len(ratios) // 4]:.1f}x / "
          f"{ratios[len(ratios) // 2]:.1f}x / {ratios[3 * len(ratios) // 4]:.1f}x, max "
          f"{ratios[-1]:.1f}x; within 10x on {within} of {len(done)} deals")
    loads = [float(str(r["load"])) for r in done if "load" in r]
    if loads:
        print(f"load average (1 min) at the end of each deal: {min(loads):.1f}-{max(loads):.1f}")
    if len(done) < args.deals:
        print(f"bounded run: {len(done)} of {args.deals} deals; the other "
              f"{args.deals - len(done)} would take about "
              f"{ours_total / len(done) * (args.deals - len(done)) / 3600:.1f} h of ours")
    return 0 if agree == entries else 1


if __name__ == "__main__":
    sys.exit(main())
