"""PIMC on bridge with a double-dummy solve per world (GIB's averaging over clairvoyance,
:mod:`gamesearch.search.pimc`'s ``perfect`` world search): each card valued in each world
by the tricks the seat's side takes, checked against DDS (endplay, ``tests/data/bridge/
pimc_forced.jsonl``) and against brute-force minimax; PIMC is handed views only."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from gamesearch.agents import Agent, PimcAgent, make_agent, play_game
from gamesearch.capabilities import PerfectView
from gamesearch.games.bridge import compiled
from gamesearch.games.bridge.cards import card_name, format_deal
from gamesearch.games.bridge.rules import Bridge, BridgeState, BridgeView, deal_from_seed
from gamesearch.search.pimc import perfect_world_values, pimc

DATA = Path(__file__).parent / "data" / "bridge"
FORCED = [json.loads(line) for line in (DATA / "pimc_forced.jsonl").read_text().splitlines()]


class GenericBridge(Bridge):
    """Bridge whose perfect view has no compiled solver: the generic solver solves it."""

    def perfect_view(self) -> PerfectView[BridgeState]:
        return dataclasses.replace(super().perfect_view(), solve=None)


def brute_force(game: Bridge, s: BridgeState) -> int:
    """The declaring side's tricks at the end from ``s``, by plain minimax over every legal
    card of the four-seat game (no merging, bounds or table): the independent truth."""
    if game.is_terminal(s):
        return s.declarer_tricks
    kids = [brute_force(game, game.result(s, a)) for a in game.actions(s)]
    declaring = (game.seat_to_play(s) - s.declarer) % 2 == 0
    return max(kids) if declaring else min(kids)


@pytest.mark.parametrize("case", FORCED, ids=[c["position"][:6] for c in FORCED])
@pytest.mark.parametrize("kind", ["compiled", "generic"])
def test_pimc_where_every_world_is_the_same_plays_the_dds_best(case: dict[str, Any],
                                                                kind: str) -> None:
    """Positions where the view allows one deal only (the voids play revealed fix every
    hidden card): PIMC's average for each card is DDS's tricks for it and its card is
    DDS's best. Mutation: not flipping the child's value to the seat's side
    (``value = -value``) fails; so does dropping the trick completed by the card."""
    if kind == "compiled" and not compiled.available():
        pytest.skip("numba is not installed (the fast extra): no compiled solver to test")
    game = Bridge() if kind == "compiled" else GenericBridge()
    s = game.parse_state(case["position"])
    seat = game.to_move(s)
    assert "NESW"[seat] == case["seat"]
    view = game.observation().observe(s, seat)
    assert game.sampler(view)[0].count == 1  # the premise: one consistent deal
    r = pimc(game, view, seat, worlds=3, rng=random.Random(1))
    averages = {card_name(a): v for a, v in r.averages.items()}
    for name, tricks in case["dds_tricks"].items():
        assert averages[name] == tricks, (name, averages, case["dds_tricks"])
    best = max(case["dds_tricks"].values())
    assert averages[card_name(r.action)] == best
    assert len(r.worlds) == 3 and all(w == r.worlds[0] for w in r.worlds)


@pytest.mark.parametrize("seed", range(6))
def test_each_cards_value_in_a_world_is_its_brute_force_tricks(seed: int) -> None:
    """A full deal after ten tricks of random play and 0-3 cards of the eleventh (so that
    some cards complete a trick): each legal card's value in that world, by the generic
    and the compiled double-dummy solver, is the seat's side's tricks from here by brute
    force."""
    rng = random.Random(seed)
    options = {"contract": ["4S", "3N", "5D"][seed % 3], "declarer": "NESW"[seed % 4]}
    game = GenericBridge(**options)
    s = game.parse_state(format_deal(deal_from_seed(seed)))
    while s.declarer_tricks + s.defender_tricks < 10 or len(s.trick) < seed % 4:
        s = game.result(s, rng.choice(game.actions(s)))
    seat = game.to_move(s)
    declaring = (seat - s.declarer) % 2 == 0
    truth = {}
    for a in game.actions(s):
        total = brute_force(game, game.result(s, a))
        left = 13 - s.declarer_tricks - s.defender_tricks
        mine = total - s.declarer_tricks
        truth[a] = float(mine if declaring else left - mine)
    games: list[Bridge] = [game] + ([Bridge(**options)] if compiled.available() else [])
    for g in games:
        values, _ = perfect_world_values(g, s, seat, game.actions(s))
        assert values == truth, (type(g).__name__, values, truth)


class RecordingPimc(PimcAgent):
    """A PIMC agent that records every view it is handed."""

    def __init__(self, game: Bridge, spec: str) -> None:
        super().__init__(game, spec)
        self.seen: list[Any] = []

    def choose(self, game: Any, state: Any, limit: Any = None) -> Any:
        self.seen.append(state)
        return super().choose(game, state, limit)


def test_pimc_agents_are_handed_their_seats_view_only() -> None:
    """The last four tricks of a deal played by four PIMC agents (double dummy per world):
    each is handed a :class:`BridgeView` of its own seat (declarer's agent plays dummy's
    cards from declarer's view) holding no card of a hand its seat may not see."""
    game = Bridge(contract="4S", declarer="S")
    rng = random.Random(5)
    s = game.parse_state(format_deal(deal_from_seed(3)))
    while s.declarer_tricks + s.defender_tricks < 9:
        s = game.result(s, rng.choice(game.actions(s)))
    agents = [RecordingPimc(game, "pimc:worlds=3,seed=1") for _ in range(4)]
    final, moves = play_game(game, list[Agent](agents), state=s)
    assert game.is_terminal(final) and len(moves) == 16
    assert agents[0].seen == []  # North is dummy: declarer plays its cards
    for seat, agent in enumerate(agents):
        for view in agent.seen:
            assert isinstance(view, BridgeView) and view.seat == seat
            for other in range(4):
                if not view.seen[other]:
                    assert view.hands[other] == 0
            # its own hand and dummy's (North's), nothing else
            assert {o for o in range(4) if view.seen[o]} == {seat, 0}


def test_pimc_defaults_to_double_dummy_on_bridge_and_maxn_elsewhere() -> None:
    assert make_agent(Bridge(), "pimc:worlds=2").search == "perfect"  # type: ignore[attr-defined]
    from gamesearch.games import get_game
    assert make_agent(get_game("ohhell"), "pimc:worlds=2").search == "maxn"  # type: ignore[attr-defined]


def late_position() -> str:
    """Deal 3, 4S by South, after nine tricks of seeded random play."""
    game = Bridge(contract="4S", declarer="S")
    rng = random.Random(5)
    s = game.parse_state(format_deal(deal_from_seed(3)))
    while s.declarer_tricks + s.defender_tricks < 9:
        s = game.result(s, rng.choice(game.actions(s)))
    return game.format_state(s)


def test_terminal_play_a_person_declares_and_sees_own_hand_and_dummy_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``gamesearch play bridge`` driven through stdin (in this process, so that the
    compiled solver is built once): the person is South (declarer, so it plays dummy's
    cards too), the defenders are the game's default agent (PIMC, double dummy per world).
    Every card of North and South is offered in turn (an illegal one is refused and asked
    again) until the play ends. The person is shown South's and North's cards, never a
    card of East or West before it is played. Mutation: ``observe`` showing every hand
    (``seen`` all true) fails."""
    import io

    from gamesearch.interfaces.cli import main

    game = Bridge()
    position = late_position()
    s = game.parse_state(position)
    ours = [card_name(c) for seat in (0, 2) for c in range(52) if s.hands[seat] >> c & 1]
    theirs = [card_name(c) for seat in (1, 3) for c in range(52) if s.hands[seat] >> c & 1]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(ours * 4) + "\n"))
    out = io.StringIO()
    code = main(["play", "bridge", "--position", position, "--first", "pimc:worlds=2",
                 "--seat", "3=human", "--seed", "1", "--time", "5"], out)
    text = out.getvalue()
    assert code == 0, text
    assert "game over" in text
    assert "pimc:worlds=10,time=2 (player 2) plays" in text  # the default agent
    assert "South sees (4S by South)" in text
    assert "North: 5.-.542.-" in text and "South: -.5.-.542" in text
    assert "  East:" not in text and "  West:" not in text  # no defender's hand shown
    shown = text.split("\n")
    for card in theirs:
        first_play = next(i for i, line in enumerate(shown) if f"plays {card}" in line)
        for line in shown[:first_play]:  # before it is played, the card shows nowhere
            assert card not in line, (card, line)


def test_the_simple_player_plays_legal_cards_by_its_rules() -> None:
    """The rule-based baseline (``simple_play``), every seat, ten deals: each card legal;
    second hand following suit plays its lowest; third and fourth hand, an opponent
    winning, play the cheapest card that wins when one does. Mutation: ``winners[0]`` ->
    ``winners[-1]`` (win dearly) fails; so does second hand playing high."""
    from gamesearch.games.bridge.dd import trick_winner
    from referees.bridge_simple_play import _beats, simple_card

    checked = {"second": 0, "cheap": 0}
    for seed in range(10):
        game = Bridge(contract=["4S", "3N"][seed % 2], declarer="NESW"[seed % 4])
        s = game.parse_state(format_deal(deal_from_seed(seed)))
        obs = game.observation()
        while not game.is_terminal(s):
            card = simple_card(obs.observe(s, game.to_move(s)))
            legal = game.actions(s)
            assert card in legal
            seat = game.seat_to_play(s)
            if len(s.trick) == 1 and legal[0] // 13 == s.trick[0] // 13:
                assert card % 13 == min(c % 13 for c in legal)
                checked["second"] += 1
            elif len(s.trick) >= 2:
                winner = trick_winner(s.trick, s.leader, s.strain)
                best = s.trick[(winner - s.leader) % 4]
                beaters = [c for c in legal if _beats(c, best, s.strain)]
                if (winner - seat) % 2 and beaters:
                    assert card == min(beaters, key=lambda c: c % 13)
                    checked["cheap"] += 1
            s = game.result(s, card)
    assert checked["second"] > 50 and checked["cheap"] > 30, checked


def test_a_bridge_tournament_hands_each_seat_its_own_view_only() -> None:
    """A bridge tournament (four seats rotated over four games at one table) with an agent
    that crashes -- a forfeit -- on anything but its seat's own view holding no hand its
    seat may not see: no forfeit, every game played, the agent once in each seat."""
    from gamesearch.arena import TournamentConfig, parse_agents, run_tournament

    cfg = TournamentConfig("bridge", tuple(parse_agents(
        ["py:arena_agents:SeatViewOnly", "random:seed=1", "random:seed=2", "random:seed=3"])),
        games_per_pair=4)
    result = run_tournament(cfg)
    assert len(result.records) == 4
    for r in result.records:
        assert r.termination == "normal", r.detail
    assert sorted(r.seats.index(0) for r in result.records) == [0, 1, 2, 3]
