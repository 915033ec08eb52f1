"""Make tests/data/bridge/length_tricks.jsonl from DDS (endplay): run from the repository
root, with endplay installed (the dev extra). See README.md beside this file.

Where partition search erred by a trick because its length tricks did not record the
top cards they read (the agreement run of 1,000 deals, 2026-11-27: 6 of 9,580 results
wrong): the deals of the benchmark's seeds 88, 580, 625 and 646 with the results that
were wrong (``calc_dd_table``), and two positions of seed 88's play, diamonds by North,
found by random descents from the deal (each the smallest where the solver, on an
emptied table, disagreed with DDS; ``solve_board``): a 7-card ending, West on lead, and
a 5-card one, South on lead."""

import json

from endplay.dds import calc_dd_table, solve_board
from endplay.types import Deal, Denom, Player

from gamesearch.games.bridge.cards import format_deal, parse_deal
from gamesearch.games.bridge.rules import deal_from_seed

DEN = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
PL = [Player.north, Player.east, Player.south, Player.west]
#: seed -> (strain, declarers) of the results that were wrong
WRONG = {88: ("D", "N"), 580: ("H", "EW"), 625: ("D", "NS"), 646: ("H", "E")}
#: positions of seed 88's play, diamonds by North: (name, PBN, leader)
ENDINGS = [("ending7", "N:.Q7654.QJ. Q63.J.87.4 J75..KT32. KT2.AT.5.Q", "W"),
           ("ending5", "N:.Q654.J. Q63..7.4 J75..T2. KT2.A..Q", "S")]


def main() -> None:
    rows = []
    for seed, (strain, declarers) in WRONG.items():
        pbn = format_deal(deal_from_seed(seed))
        t = calc_dd_table(Deal(pbn))
        s = "SHDCN".index(strain)
        rows.append({"name": f"seed{seed}", "pbn": pbn, "leader": None, "strain": strain,
                     "declarers": {d: t[DEN[s], PL["NESW".index(d)]] for d in declarers}})
    for name, pbn, leader in ENDINGS:
        d = Deal(pbn)
        d.first = PL["NESW".index(leader)]
        d.trump = DEN[2]
        n = parse_deal(pbn)[0].bit_count()
        best = max(int(t) for _, t in solve_board(d))  # the side on lead's
        on_lead_declares = "NESW".index(leader) % 2 == 0  # North declares
        rows.append({"name": name, "pbn": pbn, "leader": leader, "strain": "D",
                     "declarers": {"N": best if on_lead_declares else n - best}})
    with open("tests/data/bridge/length_tricks.jsonl", "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
