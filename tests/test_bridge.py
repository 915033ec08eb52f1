"""Bridge (``games/bridge``): notation and bad input, the rules (trick winners, follow
suit, dummy played by declarer), the duplicate score against the Law 77 table, what each
seat sees and the worlds sampled from it, and the double-dummy solver: the generic solver
on the double-dummy view against DDS (``tests/data/bridge``, made by endplay's DDS), and the
compiled probe against the generic one node for node.

Mutation checks (each line broken once by hand, the test seen to fail, the line restored)
are named in the docstrings.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gamesearch.errors import GameError, IllegalMoveError, InvalidLimitError, InvalidPositionError
from gamesearch.game import CHANCE, sample_outcome
from gamesearch.games import get_game
from gamesearch.games.bridge import compiled, partition
from gamesearch.games.bridge.cards import (
    card_name,
    format_deal,
    parse_card,
    parse_deal,
    parse_seat,
    parse_strain,
)
from gamesearch.games.bridge.dd import DoubleDummy, trick_winner
from gamesearch.games.bridge.rules import (
    Bridge,
    BridgeState,
    contract_score,
    deal_from_seed,
    par_rule,
)
from gamesearch.interfaces.cli import main
from gamesearch.search.solve import Solver

DATA = Path(__file__).parent / "data" / "bridge"
ENDINGS = [json.loads(line) for line in (DATA / "dds_endings.jsonl").read_text().splitlines()]
TABLES = [json.loads(line) for line in (DATA / "dds_tables.jsonl").read_text().splitlines()]
DEAL = TABLES[0]["pbn"]


def plain_solve(strain: int, declarer: int, hands: Sequence[int], leader: int | None = None,
                trick: Sequence[int] = (), solver: Solver | None = None) -> dict[str, Any]:
    """The library's generic solver on the double-dummy view: the declaring side's tricks
    from here, the best cards and the nodes."""
    game = DoubleDummy(strain, declarer)
    state = game.start(hands, leader, trick)
    r = (solver or Solver(game)).solve(state)
    n = (sum(h.bit_count() for h in state[:4]) + len(state[5])) // 4
    score = int(r.value)
    return {"tricks": score if game.to_move(state) == 0 else n - score,
            "moves": list(r.best_actions), "nodes": r.nodes}


def card(text: str) -> int:
    return parse_card(text)


# ----- notation and bad input -------------------------------------------------------------
def test_cards_and_deals_read_and_write_back() -> None:
    assert [card_name(card(t)) for t in ("SA", "h7", "DT", "D10", "C2", "AS")] == [
        "SA", "H7", "DT", "DT", "C2", "SA"]
    hands = parse_deal(DEAL)
    assert [h.bit_count() for h in hands] == [13] * 4
    assert format_deal(hands) == DEAL
    # another first seat: the same deal
    e_first = "E:" + " ".join(DEAL[2:].split()[1:] + DEAL[2:].split()[:1])
    assert parse_deal(e_first) == hands


@pytest.mark.parametrize("text, words", [
    ("N:AKQ.T98.J5.5432 xx.x.x.x ... ...", "not a rank"),
    (DEAL.replace("A97632", "A9763"), "every hand must hold 13"),
    (DEAL.replace("Q84 ", "Q8A "), "CA"),  # a club ace twice: in two hands, or 14 cards
    ("X:" + DEAL[2:], "first seat"),
    ("N:AKQ", "four hands"),
    (DEAL.replace("A97632", "A97632.5"), "four suits"),
])
def test_malformed_pbn_is_one_line_error(text: str, words: str) -> None:
    """Mutation: dropping the 13-cards check in ``parse_deal`` fails the second case."""
    with pytest.raises(InvalidPositionError) as err:
        parse_deal(text)
    assert words in str(err.value) or "two hands" in str(err.value), str(err.value)
    assert "\n" not in str(err.value)


def test_unknown_strain_or_seat_in_a_spec_is_one_line_error() -> None:
    for spec, words in (("bridge:strain=X", "unknown strain"), ("bridge:declarer=Q",
                        "unknown seat"), ("bridge:contract=8S", "level 1-7"),
                        ("bridge:contract=4S,strain=H", "disagree")):
        with pytest.raises(InvalidLimitError, match=words):
            get_game(spec)
    with pytest.raises(InvalidPositionError):
        parse_seat("north-east")
    with pytest.raises(InvalidPositionError):
        parse_strain("Z")


def test_a_card_not_in_hand_and_a_revoke_are_refused() -> None:
    """Mutation: letting ``check_card`` skip the follow-suit test fails the revoke case."""
    game = Bridge(contract="4S", declarer="S")
    s = game.parse_state(DEAL)  # West leads (South declares)
    with pytest.raises(IllegalMoveError, match="not in West's hand"):
        game.parse_action(s, "SA")
    s = game.result(s, game.parse_action(s, "HA"))  # a heart led; North (dummy) has none
    s = game.result(s, game.parse_action(s, "S2"))
    with pytest.raises(IllegalMoveError, match="revoke: East must follow hearts") as err:
        game.parse_action(s, "SK")
    assert "\n" not in str(err.value)
    with pytest.raises(IllegalMoveError, match="revoke"):
        game.parse_state(DEAL + " HA S2 SK")


# ----- rules -----------------------------------------------------------------------------
def test_trick_winner_follows_suit_and_trumps() -> None:
    """Mutation: ``elif s == strain`` -> ``elif False`` (no ruffs) fails the second case."""
    t = [card("H5"), card("HK"), card("S2"), card("HA")]
    assert trick_winner(t, 0, 4) == 3  # no trump: the highest heart
    assert trick_winner(t, 0, 0) == 2  # spades trumps: the ruff
    assert trick_winner([card("D2"), card("CA"), card("D3"), card("H9")], 1, 4) == 3


def test_a_game_runs_by_the_rules_dummy_by_declarer() -> None:
    game = Bridge(contract="3N", declarer="N", deal=5)
    s = game.initial_state()
    assert s.first_leader == 1 and game.to_move(s) == 1
    rng = random.Random(3)
    movers = set()
    while not game.is_terminal(s):
        seat = game.seat_to_play(s)
        movers.add(game.to_move(s))
        if seat == 2:  # dummy's card is played by declarer
            assert game.to_move(s) == 0
        s = game.result(s, rng.choice(game.actions(s)))
    assert movers == {0, 1, 3}
    assert s.declarer_tricks + s.defender_tricks == 13
    r = game.returns(s)
    assert r[0] == r[2] == -r[1] == -r[3] == contract_score(3, 4, s.declarer_tricks, False)
    assert game.parse_state(game.format_state(s)) == s


def test_duplicate_scores_are_law_77s() -> None:
    """Mutation: the game bonus 300 -> 250 fails."""
    assert contract_score(4, 0, 10, False) == 420
    assert contract_score(3, 4, 9, False) == 400
    assert contract_score(1, 4, 8, False) == 120
    assert contract_score(2, 3, 8, False) == 90
    assert contract_score(5, 2, 11, True) == 600
    assert contract_score(6, 1, 12, True) == 1430
    assert contract_score(7, 4, 13, True) == 2220
    assert contract_score(4, 0, 8, False) == -100
    assert contract_score(4, 0, 8, True) == -200


def test_the_contract_rule_picks_the_best_scoring_makeable_contract() -> None:
    t = TABLES[0]["table"]
    table = [t[s] for s in "SHDCN"]
    # 4S by N or S (10 tricks) scores 420; nothing else scores more
    assert par_rule(table) == (0, 4, 0)
    assert par_rule([[6] * 4 for _ in range(5)]) == (4, 1, 0)  # nothing makes: 1NT by N


# ----- what each seat sees -----------------------------------------------------------------
def test_a_seat_sees_its_hand_then_dummy_and_samples_keep_revealed_voids() -> None:
    """Bridge deals through the shared ``DealSampler`` (``games/cards.py``). Mutation:
    passing it no voids (``[set() for s in unseen]`` in ``Bridge.sampler``) fails the void
    check."""
    game = Bridge(contract="4S", declarer="S")
    obs = game.observation()
    assert obs is not None
    s = game.parse_state(DEAL)
    v = obs.observe(s, 3)  # West, before the lead: only its own hand
    assert v.hands[3] == s.hands[3] and v.hands[0] == v.hands[1] == v.hands[2] == 0
    s = game.parse_state(DEAL + " HA")
    v = obs.observe(s, 1)  # East sees dummy (North) after the lead, not South or West
    assert v.hands[0] == s.hands[0] and v.hands[1] == s.hands[1]
    assert v.hands[2] == v.hands[3] == 0
    # play on until a hand West cannot see (East or South) shows out of a suit
    rng = random.Random(4)
    while True:
        view = obs.observe(s, 3)
        voids = game.revealed_voids(view)
        if voids[1] or voids[2]:
            break
        s = game.result(s, rng.choice(game.actions(s)))
    for _ in range(300):
        w = obs.sample(view, rng)
        assert obs.observe(w, 3) == view  # the same information set
        for seat in (1, 2):
            for suit in range(4):
                if voids[seat] >> suit & 1:
                    assert not w.hands[seat] >> (13 * suit) & ((1 << 13) - 1)
    mover = game.to_move(s)
    assert list(obs.actions(obs.observe(s, mover))) == game.actions(s)


# ----- double dummy: the generic solver against DDS -----------------------------------------
@pytest.mark.parametrize("case", ENDINGS[:24], ids=lambda c: c["pbn"][:20])
def test_generic_double_dummy_agrees_with_dds(case: dict[str, str | int]) -> None:
    """Mutation: the quick-trick count ``q += k`` -> ``q += k + 1`` fails (wrong tricks);
    so does ``trick_winner`` without ruffs."""
    hands = parse_deal(str(case["pbn"]))
    r = plain_solve(parse_strain(str(case["strain"])), parse_seat(str(case["declarer"])), hands)
    assert r["tricks"] == case["declarer_tricks"]


def brute_force(game: Bridge, s: object) -> int:
    """The declaring side's tricks from ``s`` by plain minimax over every legal card of the
    four-seat game (no merging, no bounds, no table): the independent reference."""
    if game.is_terminal(s):  # type: ignore[arg-type]
        return s.declarer_tricks  # type: ignore[attr-defined,no-any-return]
    kids = [brute_force(game, game.result(s, a)) for a in game.actions(s)]  # type: ignore
    declaring = (game.seat_to_play(s) - s.declarer) % 2 == 0  # type: ignore[attr-defined,arg-type]
    return max(kids) if declaring else min(kids)


@pytest.mark.parametrize("seed", range(6))
def test_mid_play_positions_agree_with_brute_force(seed: int) -> None:
    """A full deal after ten tricks of random play and 0-3 cards of the eleventh: the
    double-dummy solver (from the trick in progress) against brute-force minimax.
    Mutation: ``legal_cards`` not following suit fails (the DDS cases too)."""
    game = Bridge(contract=["4S", "3N", "5D"][seed % 3], declarer="NESW"[seed % 4])
    rng = random.Random(seed)
    s = game.parse_state(TABLES[seed]["pbn"])
    on_table = seed % 4
    while s.declarer_tricks + s.defender_tricks < 10 or len(s.trick) < on_table:
        s = game.result(s, rng.choice(game.actions(s)))
    dd, view = game.view(s)
    fast = plain_solve(dd.strain, dd.declarer, view[:4], view[4], view[5])
    assert s.declarer_tricks + fast["tricks"] == brute_force(game, s)


# ----- the compiled probe, node for node ------------------------------------------------------
needs_numba = pytest.mark.skipif(not compiled.available(), reason="numba is not installed "
                                 "(the fast extra): the compiled solver cannot be tested")


@needs_numba
def test_compiled_solver_matches_the_generic_one_node_for_node() -> None:
    """Every ending: the same tricks, best cards and node count as the generic solver with
    a table of the same capacity. Mutations: ``_order`` without the sort (nodes differ);
    the undo of the trick's cards removed (tricks differ)."""
    for case in ENDINGS:
        hands = parse_deal(str(case["pbn"]))
        strain, decl = parse_strain(str(case["strain"])), parse_seat(str(case["declarer"]))
        game = DoubleDummy(strain, decl)
        plain = plain_solve(strain, decl, hands, solver=Solver(game, tt=1 << 20))
        fast = compiled.CompiledSolver(game).solve(game.start(hands), best_moves=True)
        assert (fast["tricks"], fast["nodes"], fast["moves"]) == (
            plain["tricks"], plain["nodes"], plain["moves"]), case
        assert fast["tricks"] == case["declarer_tricks"]


ENDING_TABLES = [json.loads(line) for line in
                 (DATA / "dds_ending_tables.jsonl").read_text().splitlines()]


@needs_numba
@pytest.mark.parametrize("case", ENDING_TABLES, ids=lambda c: c["pbn"][:20])
def test_compiled_table_shares_one_table_and_agrees_with_dds(case: dict[str, Any]) -> None:
    """The full table of an ending (20 results) by partition search on the process's one
    table equals DDS's, in fewer nodes than 20 solves each on an emptied table (entries
    hold the leader's side's tricks to come, which do not depend on who declared).
    Mutations: storing the declarer's tricks to come for a defending leader fails (wrong
    tricks); emptying the table before each declarer fails the node count."""
    hands = parse_deal(case["pbn"])
    partition.shared_table().clear()
    table, nodes = compiled.solve_table(hands)
    assert table == [case["table"][s] for s in "SHDCN"]
    cold = 0
    for s in range(5):
        for d in range(4):
            partition.shared_table().clear()
            cold += compiled.solve(s, d, hands)["nodes"]
    assert nodes < cold


def test_the_table_keeps_tricks_to_come_so_lines_with_other_scores_share_an_entry() -> None:
    """The view's key leaves the tricks won out and its bounds give them as ``banked``: two
    positions with the same cards left and leader but different tricks won share a key,
    and the generic solver (whose table is warm from the first) still solves the second
    right. Mutation: the engine's read without ``+ banked`` fails."""
    case = ENDINGS[5]
    hands = parse_deal(str(case["pbn"]))
    strain, decl = parse_strain(str(case["strain"])), parse_seat(str(case["declarer"]))
    game = DoubleDummy(strain, decl)
    first = game.start(hands)
    second = (*first[:6], 2, 1)  # (2 tricks won already, 1 lost)
    assert game.key(first) == game.key(second)
    bounds = game.value_bounds()
    assert bounds is not None and bounds.banked is not None
    assert bounds.banked(second, 0) == 1 and bounds.banked(second, 1) == -1
    solver = Solver(game)
    a = solver.solve(first)
    b = solver.solve(second)
    assert b.nodes < a.nodes  # the second solve read the first one's entries
    assert int(a.value) == int(b.value)  # (the score: tricks to come for the side to move)
    assert plain_solve(strain, decl, hands)["tricks"] == case["declarer_tricks"]


def test_errors_are_game_errors() -> None:
    assert issubclass(IllegalMoveError, GameError)
    assert deal_from_seed(3) == deal_from_seed(3) != deal_from_seed(4)


# ----- the command line ----------------------------------------------------------------------
@needs_numba
def test_cli_solve_gives_declarers_tricks_best_cards_and_the_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``solve bridge:strain=S,declarer=N --position ... --json``: ``tricks`` equal DDS's,
    the best cards in full (equivalent cards too), ``value`` for the side to move; the
    compiled (partition search) and the generic (``--pure``) solvers agree on both (not on
    nodes: they search differently); without strain and
    declarer, the 20 results. Mutation: ``solve_result`` without the ``left - score``
    conversion for the defenders on lead fails."""
    from gamesearch.interfaces.cli import main

    case = ENDINGS[1]
    spec = f"bridge:strain={case['strain']},declarer={case['declarer']}"
    records = []
    for extra in ([], ["--pure"]):
        assert main(["solve", spec, "--position", str(case["pbn"]), "--json", *extra]) == 0
        records.append(json.loads(capsys.readouterr().out))
    fast, pure = records
    assert fast["tricks"] == case["declarer_tricks"]
    assert (fast["value"], fast["moves"]) == (pure["value"], pure["moves"])
    assert main(["solve", "bridge", "--position", str(case["pbn"]), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)["table"]
    assert len(table) == 20
    assert table[f"{case['strain']}/{case['declarer']}"]["tricks"] == case["declarer_tricks"]
    assert main(["solve", spec, "--position", str(case["pbn"]) + " S2"]) == 2
    assert "not in" in capsys.readouterr().err


def test_the_default_game_starts_at_once_and_positions_carry_the_contract() -> None:
    """``bridge:deal=1``: the deal's table is kept with the package (DDS's, equal to
    ``tests/data``'s), so the rule picks its contract without solving; positions are
    written ``4S/S N:... cards`` and read back. Mutation: ``format_state`` without the
    contract fails the round trip of another contract."""
    game = get_game("bridge:deal=1")
    s = game.initial_state()
    t = TABLES[1]["table"]
    assert (s.strain, s.level, s.declarer) == par_rule([t[x] for x in "SHDCN"])
    text = game.format_state(s)
    assert text.startswith(f"{s.level}{'SHDCN'[s.strain]}/{'NESW'[s.declarer]} N:")
    assert game.parse_state(text) == s
    other = game.parse_state("3N/W " + DEAL + " SA")  # North leads (West declares)
    assert (other.strain, other.level, other.declarer) == (4, 3, 3)
    assert game.parse_state(game.format_state(other)) == other
    assert game.split_position_line("3N/W " + DEAL + " SA 9 # comment") == (
        "3N/W " + DEAL + " SA", "9 # comment")
    with pytest.raises(InvalidPositionError, match="disagrees"):
        get_game("bridge:declarer=N").parse_state("3N/W " + DEAL)


def test_the_drawing_marks_the_legal_cards_and_hides_what_a_seat_may_not_see() -> None:
    """Mutation: drawing every card as a target (``legal`` ignored) fails the count."""
    game = Bridge(contract="4S", declarer="S")
    s = game.parse_state(DEAL + " HA")  # North (dummy, void in hearts) to play: any card
    svg = game.render_svg(s, seat="all")
    assert svg is not None
    assert svg.count("data-move=") == len(game.actions(s)) == 13
    hidden = game.drawing().render_svg(s, hidden={1, 3}, seat="all")  # type: ignore[union-attr]
    assert hidden.count('fill="#34495e"') == 25  # East 13 and West 12 cards face down
    # the seat is part of the drawing's contract: a spectator (the default) sees dummy
    # (North, after the lead) and nothing else; South (declarer) its own hand and dummy's
    spectator = game.render_svg(s)
    assert spectator is not None and spectator.count('fill="#34495e"') == 13 + 12 + 13
    assert "data-move=" not in spectator
    south = game.render_svg(s, seat=2)
    assert south is not None and south.count('fill="#34495e"') == 13 + 12
    assert south.count("data-move=") == 13  # declarer plays dummy's cards


def test_every_new_game_is_a_new_deal_dealt_by_chance() -> None:
    """``bridge`` starts before the deal: chance deals 52 cards, the k-th to seat k % 4,
    each undealt card equally likely; the last card fixes the contract (the rule). Two
    seeds give two deals, one seed the same; a deal in progress is written and read back
    (``dealing dealt=...``). Mutations: ``deal=`` defaulting to a seed fails the first
    assertion; dealing to seat ``k // 13`` fails the hands' check."""
    game = get_game("bridge")
    start = game.initial_state()
    assert game.to_move(start) == CHANCE and not game.is_terminal(start)
    outcomes = game.chance_outcomes(start)
    assert len(outcomes) == 52 and abs(sum(p for _, p in outcomes) - 1) < 1e-12

    def deal(seed: int) -> BridgeState:
        rng = random.Random(seed)
        s = game.initial_state()
        dealt: list[int] = []
        while game.to_move(s) == CHANCE:
            if len(dealt) == 7:
                again = game.parse_state(game.format_state(s))
                assert again == s and game.format_state(s).startswith("dealing dealt=")
            card = sample_outcome(game, s, rng)
            dealt.append(card)
            s = game.result(s, card)
        for k, card in enumerate(dealt):
            assert game.original_hands(s)[k % 4] >> card & 1
        return s

    a, b, again = deal(1), deal(2), deal(1)
    assert a.hands != b.hands and a == again
    assert all(h.bit_count() == 13 for h in a.hands) and a.level >= 1
    assert game.spec == "bridge" and get_game("bridge:deal=random").spec == "bridge"
    with pytest.raises(InvalidLimitError, match="seed"):
        get_game("bridge:deal=²")


def test_play_twice_shows_two_deals_and_seed_reproduces_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``gamesearch play bridge`` with agents at every seat: two runs without a seed deal
    two different hands, ``--seed`` the same hand twice."""
    def north(*extra: str) -> str:
        assert main(["play", "bridge:contract=3N,declarer=S", "--agents", "random",
                     "random", "random", "random", *extra]) == 0
        text = capsys.readouterr().out
        return " ".join(line for line in text.splitlines() if line.startswith("chance plays"))

    first = north()
    assert first.count("chance plays") == 52 and first != north()
    assert north("--seed", "5") == north("--seed", "5")
