"""The live lines of a duplicate tournament (issue 22): after each board whose two tables
are stored, the board, its two tables (contract, tricks, score) and its IMPs, and the
running IMPs head to head (and against the field); no Elo, no wins/draws/losses. The
IMPs are recomputed here from the stored scores with the Law's table
(``tests/data/bridge/imp_scale.tsv``) and the table scores from the printed tricks by
endplay (the referee); a killed tournament's lines after its resume are an uninterrupted
run's; the lines of other tournaments are those of before.

Each test names the mutation (a line broken by hand) it was seen to catch.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import re
import statistics
from pathlib import Path
from typing import Any

import pytest

from arena_agents import KillAfter, Killed
from cli_runner import cli
from gamesearch.arena import (
    RunOptions,
    Store,
    TournamentConfig,
    parse_agents,
    play_job,
    run_tournament,
)
from gamesearch.arena.errors import ArenaError
from gamesearch.arena.ratings import SPRT
from gamesearch.arena.store import Owner

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data" / "bridge"
#: a fixed contract: the boards start at once (no double-dummy table to compute)
GAME = "bridge:contract=3N,declarer=S"

HEAD = re.compile(r"^board (\d+)/(\d+), (\w+) vs (\w+): (\w+) ([+-]\d+) = ([+-]\d+) IMPs$")
TABLE = re.compile(r"^  table ([12]), (\w+) (N-S|E-W): 3NT by South, (\d+) tricks "
                   r"\((=|[+-]\d+)\), (N-S|E-W) \+(\d+), (\w+) ([+-]\d+)$")
RUNNING = re.compile(r"^  (\w+) vs (\w+) after (\d+) boards?: (\w+) ([+-]\d+) IMPs, "
                     r"([+-]\d+\.\d\d)(?: ± (\d+\.\d\d) IMPs/board \(95 %\)| IMPs/board)$")
FIELD = re.compile(r"(\w+) ([+-]\d+) IMPs in (\d+) boards?")
WDL = re.compile(r"\+\d+ =\d+ -\d+")


@pytest.fixture(autouse=True)
def _tests_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))  # (tests/arena_agents.py, in the workers too)
    monkeypatch.setenv("PYTHONPATH", str(TESTS))


def law_imps(difference: int) -> int:
    """The IMPs of a difference by the Law 78B table as the data file holds it."""
    for line in (DATA / "imp_scale.tsv").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            low, high, points = (int(x) for x in line.split())
            if low <= abs(difference) <= high:
                return points if difference >= 0 else -points
    raise AssertionError(difference)


def margin95(values: list[int]) -> float:
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def blocks(text: str) -> list[list[str]]:
    """The lines of each board, from its head line to the next."""
    out: list[list[str]] = []
    for line in text.splitlines():
        if HEAD.match(line):
            out.append([line])
        elif line.startswith("  ") and out:
            out[-1].append(line)
    return out


def test_the_live_lines_give_each_board_and_its_imps_from_the_stored_scores(
        tmp_path: Path) -> None:
    """Five boards of a random pair against another: a block of lines a board, in order;
    each table's score is the first agent's stored return (``--export-jsonl``) and
    endplay's score of the printed tricks; the board's IMPs are the Law's table applied to
    the stored returns; the running total, mean and 95 % margin are recomputed from those
    IMPs; each table's score is given to the side that earned it; no Elo and no +W =D -L
    anywhere. Mutations caught: ``score < 0`` as ``score > 0`` in
    ``Bridge.contract_result`` (the score given to the wrong side); ``names[t]`` as ``names[0]``
    in ``board_lines`` (table 2 said N-S); ``t0 + t1`` as ``t0 - t1`` in
    ``board_results``; ``if config.duplicate`` dropped in ``run_tournament`` (the W/D/L
    and Elo line again)."""
    endplay = pytest.importorskip("endplay.types", reason="ENDPLAY NOT INSTALLED: the "
                                  "referee of the contract scores (pip install endplay)")
    jsonl = tmp_path / "games.jsonl"
    code, out, err = cli(["tournament", GAME, "--agents", "r1=random:seed=1",
                          "r2=random:seed=2", "--duplicate", "--boards", "5", "--seed", "3",
                          "--export-jsonl", str(jsonl)])
    assert code == 0, err
    assert "Elo" not in err and not WDL.search(err), err
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(records) == 10 and all(r["termination"] == "normal" for r in records)
    by_slot = {(r["pair"], r["game_no"]): r for r in records}
    found = blocks(err)
    assert [HEAD.match(b[0]).group(1) for b in found] == ["1", "2", "3", "4", "5"]  # type: ignore[union-attr]
    imps_so_far: list[int] = []
    for number, block in enumerate(found):
        assert len(block) == 4, block
        head = HEAD.match(block[0])
        assert head is not None and head.group(2) == "5" and head.group(3, 4, 5) == (
            "r1", "r2", "r1")
        difference = 0
        for t in (0, 1):
            m = TABLE.match(block[1 + t])
            assert m is not None, block[1 + t]
            record = by_slot[(0, 2 * number + t)]
            r1_return = record["returns"][record["agents"].index("r1")]
            assert m.group(1) == str(t + 1) and m.group(2) == m.group(8) == "r1"
            assert m.group(3) == ("N-S" if t == 0 else "E-W")
            assert record["agents"][0] == ("r1" if t == 0 else "r2")  # (North's agent)
            assert int(m.group(9)) == r1_return
            tricks = int(m.group(4))
            assert m.group(5) == ("=" if tricks == 9 else f"{tricks - 9:+d}")
            north_south = int(endplay.Contract(
                level=3, denom=endplay.Denom.nt, declarer=endplay.Player.south,
                penalty=endplay.Penalty.passed, result=tricks - 9).score(endplay.Vul.none))
            assert r1_return == (north_south if t == 0 else -north_south)
            # (the table's score, to the side that earned it)
            assert m.group(6, 7) == ("N-S" if north_south > 0 else "E-W", str(abs(north_south)))
            difference += int(r1_return)
        assert int(head.group(6)) == difference
        assert int(head.group(7)) == law_imps(difference)
        imps_so_far.append(law_imps(difference))
        run = RUNNING.match(block[3])
        assert run is not None, block[3]
        assert int(run.group(3)) == len(imps_so_far)
        assert int(run.group(5)) == sum(imps_so_far)
        assert float(run.group(6)) == pytest.approx(statistics.mean(imps_so_far), abs=0.005)
        if len(imps_so_far) == 1:
            assert run.group(7) is None
        else:
            assert float(run.group(7)) == pytest.approx(margin95(imps_so_far), abs=0.005)
    assert any(imps_so_far)  # (random play: some board is not a push)
    assert err.splitlines()[-1] == "games 10/10, boards 5/5 complete"
    # the end-of-run report: the same total and mean, no Elo, no W/D/L
    row = re.search(r"^ *\d+  r1 +5 +([+-]\d+) +([+-]\d+\.\d\d) ± (\d+\.\d\d) +0$", out,
                    re.MULTILINE)
    assert row is not None, out
    assert int(row.group(1)) == sum(imps_so_far)
    assert float(row.group(2)) == pytest.approx(statistics.mean(imps_so_far), abs=0.005)
    assert float(row.group(3)) == pytest.approx(margin95(imps_so_far), abs=0.005)
    assert "Elo" not in out and not WDL.search(out)


def _lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def test_a_killed_duplicate_tournament_resumes_with_the_lines_of_an_uninterrupted_run(
        tmp_path: Path) -> None:
    """Three agents (three tables of agents), two boards: the run killed after four
    tables, then resumed: the lines before the kill and after the resume (but its
    "resumed" line) are the uninterrupted run's, every board once; each field line's
    totals are the sums of the board lines' IMPs so far. Mutations caught:
    ``self.records = list(records)`` as ``[]`` in ``DuplicateProgress`` (the running totals
    after the resume restart at 0); ``record.game_no ^ 1`` as ``record.game_no + 1`` (a
    board's lines when its first table is stored, or never)."""
    cfg = TournamentConfig(GAME, tuple(parse_agents(["p=random:seed=1", "q=random:seed=2",
                                                     "r=random:seed=3"])),
                           games_per_pair=4, seed=5, duplicate=True)
    db = str(tmp_path / "dup.sqlite")

    stop = KillAfter(4)

    before, after, whole = io.StringIO(), io.StringIO(), io.StringIO()
    with pytest.raises(Killed):
        run_tournament(cfg, RunOptions(db=db, on_record=stop, progress=before))
    run_tournament(cfg, RunOptions(db=db, progress=after))
    run_tournament(cfg, RunOptions(progress=whole))
    resumed = _lines(after)
    assert resumed[0] == "resumed: 4/12 games stored, 1 board complete"
    assert _lines(before) + resumed[1:] == _lines(whole)
    found = blocks(whole.getvalue())
    heads = [HEAD.match(b[0]) for b in found]
    assert sorted((h.group(3), h.group(4), h.group(1)) for h in heads if h) == [
        (a, b, n) for a, b in (("p", "q"), ("p", "r"), ("q", "r")) for n in ("1", "2")]
    totals = {"p": 0, "q": 0, "r": 0}
    boards = {"p": 0, "q": 0, "r": 0}
    for head, block in zip(heads, found, strict=True):
        assert head is not None and len(block) == 5
        first, second, points = head.group(3), head.group(4), int(head.group(7))
        totals[first] += points
        totals[second] -= points
        boards[first] += 1
        boards[second] += 1
        field = {m.group(1): (int(m.group(2)), int(m.group(3)))
                 for m in FIELD.finditer(block[4])}
        assert field == {k: (totals[k], boards[k]) for k in totals}, block[4]
    assert "Elo" not in whole.getvalue() and not WDL.search(whole.getvalue())


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_board_lines_stay_and_the_bar_is_redrawn() -> None:
    """On a terminal: each board's lines once, the bar of games below them redrawn, no Elo.
    Mutation caught: ``if self.tty: super().show(final)`` dropped (no bar)."""
    cfg = TournamentConfig(GAME, tuple(parse_agents(["a=random:seed=1", "b=random:seed=2"])),
                           games_per_pair=4, seed=1, duplicate=True)
    screen = _Terminal()
    run_tournament(cfg, RunOptions(progress=screen))
    text = screen.getvalue()
    assert text.count("board 1/2, a vs b") == 1 and text.count("board 2/2, a vs b") == 1
    assert "[##########----------] games 2/4, boards 1/2 complete" in text
    assert text.endswith("[####################] games 4/4, boards 2/2 complete\n")
    assert "Elo" not in text and not WDL.search(text)


@pytest.mark.parametrize(("argv", "last"), [
    (["tictactoe", "--agents", "r1=random:seed=1", "r2=random:seed=2", "--games-per-pair",
      "4"], "games 4/4  r1 vs r2: +1 =1 -2 (37.5%)  Elo -88.7 ± inf"),
    (["tictactoe", "--agents", "r1=random:seed=1", "r2=random:seed=2", "r3=random:seed=3",
      "--games-per-pair", "2"], "games 6/6  leader r1 3.5/4 Elo +338.0 ± inf"),
    (["rolit:players=3", "--agents", "r1=random:seed=1", "r2=random:seed=2",
      "r3=random:seed=3", "--games-per-pair", "3"], "games 3/3  leader r3 66.7% of 3 games"),
])
def test_other_tournaments_keep_their_lines(argv: list[str], last: str) -> None:
    """Two seats (a match, a field) and three seats: the last progress line is the one the
    code before this change printed for the same seeded run (taken from ``main``).
    Mutation caught: ``if config.duplicate`` as ``if True`` in ``run_tournament``."""
    code, _, err = cli(["tournament", *argv])
    assert code == 0, err
    assert err.splitlines()[-1] == last


def test_sprt_is_refused_for_a_duplicate_tournament() -> None:
    """SPRT reads wins and losses of single games: meaningless for duplicate. Mutation
    caught: the check dropped (the run starts)."""
    cfg = TournamentConfig(GAME, tuple(parse_agents(["random:seed=1", "random:seed=2"])),
                           games_per_pair=2, duplicate=True)
    with pytest.raises(ArenaError, match="duplicate tournament scores boards"):
        run_tournament(cfg, RunOptions(sprt=SPRT(0, 10, 0.05, 0.05)))


def test_json_and_plot_speak_imps_and_a_forfeited_table_leaves_its_board_unscored(
        tmp_path: Path) -> None:
    """``--json`` gives each board's two tables' outcomes, the ones the live lines print;
    ``--plot`` draws each pair's IMPs per board with the JSON's mean and margin (no
    openskill rating, no Elo); a pair that crashes at its first card forfeits its tables:
    the live line says ``unscored`` and why, and the JSON counts the boards unscored.
    Each outcome carries its facts (contract, declarer, tricks, the declaring side's
    score: N-S's stored return here). Mutations caught: ``outcomes=True`` dropped in
    ``_summary`` (no outcomes in the JSON); ``**outcome.facts`` dropped in
    ``outcome_json`` (no contract);
    ``if config.duplicate else`` dropped in the plot's writer (the openskill picture of
    the tables again)."""
    plot = tmp_path / "dup.svg"
    code, out, err = cli(["tournament", GAME, "--agents", "r1=random:seed=1",
                          "r2=random:seed=2", "--duplicate", "--boards", "2", "--seed", "4",
                          "--json", "--plot", str(plot)])
    assert code == 0, err
    data = json.loads(out)
    printed = [[TABLE.match(line).group(0).split(": ", 1)[1].rsplit(", r1 ", 1)[0]  # type: ignore[union-attr]
                for line in block[1:3]] for block in blocks(err)]
    assert [[o["text"] for o in b["outcomes"]] for b in data["board_results"]] == printed
    assert all(re.fullmatch(r"3NT by South, \d+ tricks \((=|[+-]\d)\), (N-S|E-W) \+\d+", text)
               for pair in printed for text in pair)
    for b in data["board_results"]:  # (the facts behind the words; the score: N-S's)
        for o, ns in zip(b["outcomes"], (b["tables"][0], -b["tables"][1]), strict=True):
            assert (o["contract"], o["declarer"], o["score"]) == ("3NT", "S", ns), o
            assert o["text"].startswith(f"3NT by South, {o['tricks']} tricks")
    svg = plot.read_text()
    assert "IMPs per board" in svg and "openskill" not in svg and "Elo" not in svg
    for p in data["pairs"]:
        assert f">{p['mean']:+.2f} ± {p['margin']:.2f} over 2 boards</text>" in svg, p
    code, out, err = cli(["tournament", GAME, "--agents", "r1=random:seed=1",
                          "bad=py:arena_agents:Crash", "--duplicate", "--boards", "1",
                          "--json"])
    assert code == 0, err
    assert not any(HEAD.match(line) for line in err.splitlines())  # (no IMPs: unscored)
    why = "crash (py:arena_agents:Crash raised RuntimeError: deliberate crash)"
    assert err.splitlines() == [
        "board 1/1, r1 vs bad: unscored (a table did not end by the rules)",
        f"  table 1, r1 N-S: {why}", f"  table 2, r1 E-W: {why}",
        "  r1 vs bad after 0 boards: r1 +0 IMPs, no board scored",
        "games 2/2, boards 1/1 complete"]
    data = json.loads(out)
    assert [p["unscored"] for p in data["pairs"]] == [1, 1]
    assert data["board_results"][0]["points"] is None
    assert data["board_results"][0]["outcomes"] == [{"text": why}, {"text": why}]


@pytest.mark.parametrize("race", ["stored before the claim", "stored while played"])
def test_a_table_another_process_stored_counts_in_the_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, race: str) -> None:
    """Two processes on one results file: another one stores board 2's second table just
    before this run's claim reaches it (the claim finds it stored), or while this run plays
    it too (this run's copy is not stored): either way this run's lines are an
    uninterrupted run's, every board once, and its last line counts every game. Mutations
    caught: ``self.refresh()`` dropped after the claim in ``LeasedSchedule.take`` (board
    2's lines missing, "games 5/6"); ``queue.refresh()`` dropped in ``run_tournament``'s
    ``on_record`` (the same)."""
    cfg = TournamentConfig(GAME, tuple(parse_agents(["a=random:seed=1", "b=random:seed=2"])),
                           games_per_pair=6, seed=7, duplicate=True)
    slot, other, raced = (0, 3), Owner(token="another process"), []
    theirs = play_job(cfg.job(*slot))  # (the same game: the job's seeds are the slot's)
    real_claim, real_add = Store.claim, Store.add_game

    def claim(self: Store, tid: int, candidates: Any, want: int, owner: Owner,
              seconds: float = 60.0) -> Any:
        candidates = iter(candidates)
        first = next(candidates, None)
        if race == "stored before the claim" and first == slot and not raced:
            raced.append(first)
            assert real_claim(self, tid, iter([slot]), 1, other, seconds)[0] == [slot]
            assert real_add(self, tid, theirs, other)
        rest = candidates if first is None else itertools.chain([first], candidates)
        return real_claim(self, tid, rest, want, owner, seconds)

    def add_game(self: Store, tid: int, record: Any, owner: Any = None) -> bool:
        if race == "stored while played" and record.slot == slot and not raced:
            raced.append(slot)
            assert real_add(self, tid, theirs, other)
        return real_add(self, tid, record, owner)

    monkeypatch.setattr(Store, "claim", claim)
    monkeypatch.setattr(Store, "add_game", add_game)
    mine, whole = io.StringIO(), io.StringIO()
    result = run_tournament(cfg, RunOptions(db=str(tmp_path / "two.sqlite"), progress=mine))
    assert raced == [slot] and len(result.records) == 6
    assert result.played == 5  # (the sixth table is the other process's)
    run_tournament(cfg, RunOptions(progress=whole))
    assert _lines(mine) == _lines(whole)
    assert _lines(mine)[-1] == "games 6/6, boards 3/3 complete"


def test_a_sampling_agents_resumed_tournament_is_its_uninterrupted_run(tmp_path: Path) -> None:
    """ISMCTS (no seed in its spec) against random, two boards: killed after one table and
    resumed, the lines and records are those of an uninterrupted run, because the arena
    seeds a sampling agent's worlds from the game's seed as it does a random agent's.
    Mutation caught: ``sampler.rng = ...`` dropped in ``make_arena_agent`` (the agent's
    own unseeded generator: another card play every run)."""
    cfg = TournamentConfig(GAME, tuple(parse_agents(["i=ismcts:iterations=10",
                                                     "r=random:seed=1"])),
                           games_per_pair=4, seed=2, duplicate=True)
    db = str(tmp_path / "ismcts.sqlite")

    stop = KillAfter(1)

    before, after, whole = io.StringIO(), io.StringIO(), io.StringIO()
    with pytest.raises(Killed):
        run_tournament(cfg, RunOptions(db=db, on_record=stop, progress=before))
    resumed = run_tournament(cfg, RunOptions(db=db, progress=after))
    reference = run_tournament(cfg, RunOptions(progress=whole))
    assert sorted(r.outcome_key() for r in resumed.records) == sorted(
        r.outcome_key() for r in reference.records)
    assert _lines(before) == [] and _lines(after)[0].startswith("resumed: 1/4 games")
    assert _lines(after)[1:] == _lines(whole) and len(blocks(whole.getvalue())) == 2
