"""Make tests/data/bridge/seed327.jsonl from DDS (endplay): run from the repository root,
with endplay installed (the dev extra). See README.md beside this file.

The deal of the benchmark's seed 327 (``deal_from_seed(327)``), where partition search
once said 3 tricks for diamonds by East and by West and DDS 4, and two positions of its
play (diamonds, East declaring) on which the old solver erred too: a 7-card ending
(South on lead) and, 15 cards later, a 4-trick position with three cards of a heart trick
played (West to play); ``leader`` null: the declarer's left-hand opponent. DDS's tricks
for the declaring side: ``calc_dd_table`` for the deal, ``solve_board`` (the best card of
the side to move) for the positions."""

import json

from endplay.dds import calc_dd_table, solve_board
from endplay.types import Card, Deal, Denom, Player

from gamesearch.games.bridge.cards import card_name, format_deal, parse_card, parse_deal
from gamesearch.games.bridge.dd import DoubleDummy
from gamesearch.games.bridge.rules import deal_from_seed

DEN = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
PL = [Player.north, Player.east, Player.south, Player.west]
STRAIN, DECLARER = 2, 1  # diamonds by East
#: the play from the deal to the 7-card ending (South on lead), then to the 4-trick one
TO_ENDING = ["CA", "C9", "C8", "CQ", "H3", "H9", "HQ", "HJ", "CK", "CJ", "CT", "C7",
             "C2", "C6", "C5", "SK", "HA", "DA", "H2", "HT", "C4", "SQ", "H8", "HK"]
TO_FOUR = ["SA", "SJ", "S7", "S4", "DK", "D9", "D6", "D8", "DT", "D4", "DJ", "D3",
           "H6", "H7", "S3"]


def dds_declarer_tricks(game: DoubleDummy, state) -> int:  # type: ignore[no-untyped-def]
    hands = list(state[:4])
    for i, c in enumerate(state[5]):  # the trick's cards back in their hands
        hands[(state[4] + i) % 4] |= 1 << c
    d = Deal(format_deal(hands))
    d.first = PL[state[4]]
    d.trump = DEN[game.strain]
    for c in state[5]:
        d.play(Card(card_name(c)))
    best = max(int(t) for _, t in solve_board(d))  # the side to move's, from this trick
    n = (sum(h.bit_count() for h in state[:4]) + len(state[5])) // 4
    return best if game.to_move(state) == 0 else n - best


def main() -> None:
    hands = deal_from_seed(327)
    pbn = format_deal(hands)
    t = calc_dd_table(Deal(pbn))
    rows = [{"name": "deal", "pbn": pbn, "leader": None, "trick": [], "strain": "D",
             "declarers": {"E": t[DEN[2], PL[1]], "W": t[DEN[2], PL[3]]}}]
    game = DoubleDummy(STRAIN, DECLARER)
    state = game.start(parse_deal(pbn))
    for name, line in (("ending7", TO_ENDING), ("four_tricks", TO_FOUR)):
        for card in line:
            state = game.result(state, parse_card(card))
        hands_now = list(state[:4])
        for i, c in enumerate(state[5]):
            hands_now[(state[4] + i) % 4] |= 1 << c
        rows.append({"name": name, "pbn": format_deal(hands_now), "leader": "NESW"[state[4]],
                     "trick": [card_name(c) for c in state[5]], "strain": "D",
                     "declarers": {"E": dds_declarer_tricks(game, state)}})
    with open("tests/data/bridge/seed327.jsonl", "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
