"""``tournament --export-jsonl`` of a duplicate bridge tournament (issue 22): each table's
row says how it ended -- the contract, the declarer, the tricks and the score -- and the
board's IMPs of each team, beside the arena's own fields; other tournaments' exports are
what they were.

The referees: the tricks are counted again from the exported cards by the rule of play
written out here (the highest trump, else the highest card of the suit led, wins; the
declarer's left-hand opponent leads first), the score is endplay's (DDS's package) for that
contract and those tricks, the IMPs are the Law 78B table of ``tests/data/bridge/
imp_scale.tsv`` applied to the two tables' scores. The exports before this change are
``tests/data/arena/export_main_*.jsonl``, written by ``main`` at commit 3a943f0
(``tests/data/arena/README.md`` has the commands). Each test names the mutation (a line
broken by hand) it was seen to catch.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_runner import cli
from gamesearch.arena.schedule import load_game

TESTS = Path(__file__).resolve().parent
ARENA = TESTS / "data" / "arena"
SEATS = "NESW"
SEAT_NAMES = ("North", "East", "South", "West")
RANKS = "23456789TJQKA"
#: what the run's timing makes different each time
VOLATILE = ("seconds", "finished_at")


def law_imps(difference: float) -> int:
    """The IMPs of a difference by the Law 78B table as the data file holds it."""
    for line in (TESTS / "data" / "bridge" / "imp_scale.tsv").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            low, high, points = (int(x) for x in line.split())
            if low <= abs(difference) <= high:
                return points if difference >= 0 else -points
    raise AssertionError(difference)


def referee_tricks(cards: list[str], trump: str | None, declarer: int) -> int:
    """The declaring side's tricks of a played deal (cards as ``D6``: suit, rank)."""
    leader, won = (declarer + 1) % 4, 0
    for first in range(0, len(cards), 4):
        trick = cards[first:first + 4]
        led = trick[0][0]

        def strength(card: str, led: str = led) -> tuple[int, int]:
            return (2 if card[0] == trump else 1 if card[0] == led else 0,
                    RANKS.index(card[1]))

        leader = (leader + max(range(4), key=lambda k: strength(trick[k]))) % 4
        won += leader % 2 == declarer % 2
    return won


def referee_score(level: int, strain: str, declarer: int, tricks: int) -> int:
    """endplay's score of the contract for the declaring side (not vulnerable)."""
    endplay = pytest.importorskip("endplay.types", reason="ENDPLAY NOT INSTALLED: the "
                                  "referee of the contract scores (pip install endplay)")
    denom = {"S": endplay.Denom.spades, "H": endplay.Denom.hearts,
             "D": endplay.Denom.diamonds, "C": endplay.Denom.clubs,
             "NT": endplay.Denom.nt}[strain]
    return int(endplay.Contract(level=level, denom=denom, declarer=endplay.Player(declarer),
                                penalty=endplay.Penalty.passed,
                                result=tricks - 6 - level).score(endplay.Vul.none))


def export(tmp_path: Path, argv: list[str]) -> list[dict[str, Any]]:
    path = tmp_path / "games.jsonl"
    code, _, err = cli(["tournament", *argv, "--quiet", "--export-jsonl", str(path)])
    assert code == 0, err
    return [json.loads(line) for line in path.read_text().splitlines()]


def check_tables(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every duplicate row's outcome and IMPs against the referees (module docstring);
    the outcomes, checked."""
    assert rows
    tables = {(r["pair"], r["game_no"]): r for r in rows}
    outcomes = []
    for r in rows:
        dup = r["duplicate"]
        assert (dup["board"], dup["table"]) == divmod(r["game_no"], 2)
        # the board's game names no deal: the deal is chance's, the table's opening
        assert dup["unit"] == "IMPs" and "deal=" not in dup["board_game"]
        assert r["opening_plies"] == 52
        out = dup["outcome"]
        contract, seat = out["contract"], SEATS.index(out["declarer"])
        level, strain = int(contract[0]), contract[1:]
        # (the contract is the board's: the one its deal starts with, the same at both
        # tables; what the export must then get right is the play's result)
        game = load_game(dup["board_game"])
        start = game.initial_state()
        for move in r["moves"][:52]:
            start = game.play(start, move)
        assert (start.level, "SHDCN"[start.strain], start.declarer) == (
            level, strain[0], seat)
        tricks = referee_tricks(r["moves"][52:], None if strain == "NT" else strain, seat)
        assert out["tricks"] == tricks, (r["moves"], out)
        score = referee_score(level, strain, seat, tricks)
        assert out["score"] == score == r["returns"][seat]
        over = tricks - 6 - level
        earned = "N-S" if (seat % 2 == 0) == (score > 0) else "E-W"
        assert out["text"] == r["result"] == (
            f"{contract} by {SEAT_NAMES[seat]}, {tricks} tricks "
            f"({'=' if over == 0 else f'{over:+d}'}), {earned} +{abs(score)}")
        # each team: its agent (North's and East's), its score there, the board's IMPs
        other = tables[(r["pair"], r["game_no"] ^ 1)]
        ns_difference = r["returns"][0] + other["returns"][1]  # (this N-S agent's)
        assert [t["name"] for t in dup["teams"]] == ["N-S", "E-W"]
        assert [t["agent"] for t in dup["teams"]] == r["agents"][:2]
        assert [t["score"] for t in dup["teams"]] == r["returns"][:2]
        assert [t["points"] for t in dup["teams"]] == [law_imps(ns_difference),
                                                      -law_imps(ns_difference)]
        outcomes.append(out)
    return outcomes


def test_a_duplicate_export_gives_each_tables_contract_tricks_score_and_imps(
        tmp_path: Path) -> None:
    """Three boards of 1C by the declarer DDS's table picks (random pairs: contracts made
    and beaten, by North and by East, overtricks and undertricks): every table's row
    carries the contract, declarer, tricks and score and each team's IMPs, all equal to
    the referees'; ``result`` is the outcome's words, not the per-seat ranks. Mutations
    caught: ``score < 0`` as ``score > 0`` in ``Bridge.contract_result`` (the side that
    earned the score); ``0.0 - points`` as ``points`` in ``table_views`` (both teams the
    same IMPs); ``"result": view["outcome"]["text"]`` dropped in ``_duplicate_extras``
    (the ranks ``1-3-1-3`` again)."""
    rows = export(tmp_path, ["bridge:contract=1C", "--agents", "r1=random:seed=1",
                             "r2=random:seed=2", "--duplicate", "--boards", "3",
                             "--seed", "1"])
    assert len(rows) == 6
    outcomes = check_tables(rows)
    assert {o["declarer"] for o in outcomes} == {"N", "E"}
    assert any(o["score"] > 0 for o in outcomes) and any(o["score"] < 0 for o in outcomes)
    assert any(o["tricks"] == 7 for o in outcomes) and any(o["tricks"] > 7 for o in outcomes)
    assert any(r["duplicate"]["teams"][0]["points"] for r in rows)  # (not all pushes)


def _without(row: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in keys}


#: the fields of a duplicate row that do not depend on the deal (main's boards were
#: ``deal=`` options; since boards are dealt by chance the deals, the tournament's key, the
#: moves and what follows from them are new)
DEAL_FREE = ("game", "pair", "game_no", "round", "agents", "specs", "opening",
             "start_position", "termination")


def test_the_duplicate_export_keeps_every_field_main_wrote(tmp_path: Path) -> None:
    """The same seeded duplicate run as ``export_main_bridgedup.jsonl``: every field main
    wrote is there, with the same value where it does not depend on the deal
    (:data:`DEAL_FREE`), ``result`` now the table's outcome, and ``duplicate`` added.
    Mutation caught: ``row.update(extras[k])`` as ``row = dict(extras[k])`` in
    ``write_jsonl`` (the arena's fields gone)."""
    rows = export(tmp_path, ["bridge:contract=3N,declarer=S", "--agents", "r1=random:seed=1",
                             "r2=random:seed=2", "--duplicate", "--boards", "2",
                             "--seed", "3"])
    main = [json.loads(line) for line in
            (ARENA / "export_main_bridgedup.jsonl").read_text().splitlines()]
    assert len(rows) == len(main)
    for new, old in zip(rows, main, strict=True):
        assert set(old) <= set(new)
        assert {k: new[k] for k in DEAL_FREE} == {k: old[k] for k in DEAL_FREE}
    assert all(r["result"] == "3-1-3-1" for r in main)  # (main: the ranks by seat)
    check_tables(rows)


@pytest.mark.parametrize(("name", "argv"), [
    ("ttt", ["tictactoe", "--agents", "r1=random:seed=1", "r2=random:seed=2",
             "--games-per-pair", "4", "--seed", "2"]),
    ("rolit3", ["rolit:players=3", "--agents", "r1=random:seed=1", "r2=random:seed=2",
                "r3=random:seed=3", "--games-per-pair", "3", "--seed", "2"]),
])
def test_other_exports_are_what_main_wrote(tmp_path: Path, name: str,
                                           argv: list[str]) -> None:
    """Two seats and three seats: the export is main's, field for field (but the
    timings). Mutation caught: ``if not config.duplicate: return None`` dropped in
    ``_duplicate_extras`` (a one-line error: tictactoe has no teams)."""
    rows = export(tmp_path, argv)
    main = [json.loads(line) for line in
            (ARENA / f"export_main_{name}.jsonl").read_text().splitlines()]
    assert [_without(r, *VOLATILE) for r in rows] == main
