"""Make tests/data/bridge from DDS (endplay): run from the repository root, with endplay
installed (the dev extra). See README.md beside this file."""

import json
import random

from endplay.dds import calc_dd_table, solve_board
from endplay.types import Deal, Denom, Player

from gamesearch.games.bridge.cards import format_deal
from gamesearch.games.bridge.rules import deal_from_seed

DEN = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
PL = [Player.north, Player.east, Player.south, Player.west]


def ending(n: int, seed: int) -> list[int]:
    cards = list(range(52))
    random.Random(seed).shuffle(cards)
    hands = [0] * 4
    for i in range(4 * n):
        hands[i % 4] |= 1 << cards[i]
    return hands


def main() -> None:
    with open("tests/data/bridge/dds_endings.jsonl", "w") as f:
        for i in range(40):
            n = 4 + i % 4
            pbn = format_deal(ending(n, 1000 + i))
            strain, declarer = i % 5, (i // 5) % 4
            d = Deal(pbn)
            d.first = PL[(declarer + 1) % 4]
            d.trump = DEN[strain]
            lead_tricks = max(t for _, t in solve_board(d))
            f.write(json.dumps({"pbn": pbn, "strain": "SHDCN"[strain],
                                "declarer": "NESW"[declarer],
                                "declarer_tricks": n - lead_tricks}) + "\n")
    with open("tests/data/bridge/dds_tables.jsonl", "w") as f:
        for seed in range(12):
            pbn = format_deal(deal_from_seed(seed))
            t = calc_dd_table(Deal(pbn))
            table = {"SHDCN"[s]: [t[DEN[s], PL[p]] for p in range(4)] for s in range(5)}
            f.write(json.dumps({"seed": seed, "pbn": pbn, "table": table}) + "\n")
    with open("tests/data/bridge/dds_ending_tables.jsonl", "w") as f:
        for i in range(8):
            n = 7 + i % 2
            pbn = format_deal(ending(n, 2000 + i))
            table = {}
            for strain in range(5):  # (calc_dd_table wants 13 cards a hand: solve_board)
                row = []
                for declarer in range(4):
                    d = Deal(pbn)
                    d.first = PL[(declarer + 1) % 4]
                    d.trump = DEN[strain]
                    row.append(n - max(t for _, t in solve_board(d)))
                table["SHDCN"[strain]] = row
            f.write(json.dumps({"pbn": pbn, "table": table}) + "\n")


if __name__ == "__main__":
    main()
