"""Make tests/data/bridge/pimc_forced.jsonl from DDS (endplay): run from the repository
root, with endplay installed (the dev extra). See README.md beside this file.

Positions late in a deal of seeded random play where the seat to move can infer every
hidden card (its view's sampler counts one consistent deal: the voids play revealed fix
the rest), with DDS's tricks for each of its legal cards (``solve_board``), for the side
to move, from the current trick on."""

import json
import random

from endplay.dds import solve_board
from endplay.types import Card, Deal, Denom, Player

from gamesearch.games.bridge.cards import card_name, format_deal
from gamesearch.games.bridge.rules import Bridge, deal_from_seed

DEN = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
PL = [Player.north, Player.east, Player.south, Player.west]


def dds_card_tricks(game: Bridge, s) -> dict[str, int]:  # type: ignore[no-untyped-def]
    hands = list(s.hands)
    for i, c in enumerate(s.trick):  # the trick's cards back in their hands
        hands[(s.leader + i) % 4] |= 1 << c
    d = Deal(format_deal(hands))
    d.first = PL[s.leader]
    d.trump = DEN[s.strain]
    for c in s.trick:
        d.play(Card(card_name(c)))
    suits = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
    out = {}
    for card, t in solve_board(d):
        text = str(card)
        out[suits.get(text[0], text[0]) + text[1:]] = int(t)
    return out


def main() -> None:
    out = []
    seed = 0
    while len(out) < 12:
        seed += 1
        contract = ["4S", "3N", "4H", "5D", "5C"][seed % 5]
        game = Bridge(contract=contract, declarer="NESW"[seed % 4])
        rng = random.Random(seed)
        s = game.parse_state(format_deal(deal_from_seed(seed)))
        obs = game.observation()
        while not game.is_terminal(s):
            left = sum(h.bit_count() for h in s.hands)
            if left <= 24 and len(game.actions(s)) > 1:
                seat = game.to_move(s)
                view = obs.observe(s, seat)
                if obs.sampler(view)[0].count == 1:
                    tricks = dds_card_tricks(game, s)
                    if len(set(tricks.values())) > 1:
                        out.append({"position": game.format_state(s), "seat": "NESW"[seat],
                                    "dds_tricks": tricks})
                        break
            s = game.result(s, rng.choice(game.actions(s)))
    with open("tests/data/bridge/pimc_forced.jsonl", "w") as f:
        for row in out:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
