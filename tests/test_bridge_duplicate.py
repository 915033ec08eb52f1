"""Duplicate bridge in the arena (issue 22): the IMP scale, the schedule (each board at two
tables with the pairs turned), board scores checked against endplay's contract scores, the
resume of a killed tournament, the seat views (no leak) on the process pool, the CLI.

Each test names the mutation (a line broken by hand) it was seen to catch.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena_agents import KillAfter, Killed
from cli_runner import cli
from gamesearch.arena import RunOptions, Store, TournamentConfig, parse_agents, run_tournament
from gamesearch.arena.duplicate import board_results, pair_standings
from gamesearch.arena.errors import ArenaError
from gamesearch.arena.schedule import load_game
from gamesearch.games.bridge.rules import imps

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data" / "bridge"
#: a fixed contract: the boards start at once (the rule's table is tested apart)
GAME = "bridge:contract=3N,declarer=S"


@pytest.fixture(autouse=True)
def _tests_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.setenv("PYTHONPATH", str(TESTS))




def config(agents: list[str], boards: int, game: str = GAME, seed: int = 3) -> TournamentConfig:
    return TournamentConfig(game, tuple(parse_agents(agents)), games_per_pair=2 * boards,
                            seed=seed, duplicate=True)


def imp_rows() -> list[tuple[int, int, int]]:
    rows = []
    for line in (DATA / "imp_scale.tsv").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            low, high, points = (int(x) for x in line.split())
            rows.append((low, high, points))
    return rows


def test_the_imp_scale_is_the_laws_table() -> None:
    """Every step of Law 78B's table (tests/data/bridge/imp_scale.tsv), both ends and the
    middle, both signs. Mutation caught: ``1100`` as ``1200`` in ``IMP_STEPS``; ``>=`` as
    ``>`` in ``imps``."""
    rows = imp_rows()
    assert len(rows) == 25
    for low, high, points in rows:
        for diff in range(low, min(high, 6000) + 1, 10):  # (scores are multiples of 10)
            assert imps(diff) == points, diff
            assert imps(-diff) == -points, -diff


def test_each_board_is_played_at_two_tables_with_the_pairs_turned() -> None:
    """Three agents (three tables of agents), two boards: both tables of a board hold the
    same deal, the boards differ, every pair of agents plays the same boards, and the first
    agent sits North-South at table 0 and East-West at table 1. Mutation caught: the swap
    ``if table:`` dropped (the same seats at both tables); the board's seed taken from the
    slot's seed (other deals for other pairs)."""
    cfg = config(["a=random:seed=1", "b=random:seed=2", "c=random:seed=3"], boards=2)
    jobs = cfg.schedule()
    assert len(jobs) == cfg.total == 3 * 2 * 2
    deals: dict[int, set[str]] = {0: set(), 1: set()}
    for job in jobs:
        first, second = cfg.pairs()[job.pair]
        board, table = divmod(job.game_no, 2)
        ns, ew = (first, second) if table == 0 else (second, first)
        assert job.seats == (ns, ew, ns, ew)
        assert job.specs == tuple(cfg.agents[i].spec for i in job.seats)
        game = load_game(job.game)
        assert job.game == GAME  # the agents' game names no deal: the board is chance's
        assert job.opening is not None and len(job.opening.moves) == 52
        deals[board].add(game.format_state(job.opening.state(game)))
    assert len(deals[0]) == len(deals[1]) == 1 and deals[0] != deals[1]
    assert "3N/S" in next(iter(deals[0]))  # (the game's own options kept)
    # the rule of the double-dummy table picks the same contract at both tables
    rule = config(["random:seed=1", "random:seed=2"], boards=1, game="bridge")
    states = {j.opening.state(load_game(j.game)) for j in rule.schedule()
              if j.opening is not None}
    assert len(states) == 1


def test_board_points_are_the_imps_of_the_contract_scores() -> None:
    """Every board of a short match between two random pairs: each table's score for
    North-South recomputed by endplay (``Contract.score``, the referee) from the tricks of
    the stored card play, the difference turned to IMPs by the Law's table; and the
    standings are the sums and means of those. Mutation caught: ``t0 + t1`` as ``t0 - t1``
    in ``board_results``; ``-b.points`` as ``b.points`` in ``pair_standings``."""
    endplay = pytest.importorskip("endplay.types", reason="ENDPLAY NOT INSTALLED: "
                                  "the referee of the contract scores (pip install endplay)")
    cfg = config(["x=random:seed=7", "y=random:seed=8"], boards=6)
    result = run_tournament(cfg)
    assert len(result.records) == 12 and all(r.termination == "normal"
                                             for r in result.records)
    scale = imp_rows()

    def table_imps(diff: int) -> int:
        size = next(p for lo, hi, p in scale if lo <= abs(diff) <= hi)
        return size if diff >= 0 else -size

    def ns_score(record: Any) -> int:
        game = load_game(cfg.board_spec(record.game_no // 2))
        state = game.initial_state()
        for text in record.moves:
            state = game.play(state, text)
        contract = endplay.Contract(level=3, denom=endplay.Denom.nt,
                                    declarer=endplay.Player.south,
                                    penalty=endplay.Penalty.passed,
                                    result=state.declarer_tricks - 9)
        return int(contract.score(endplay.Vul.none))

    by_slot = {(r.pair, r.game_no): r for r in result.records}
    boards = board_results(cfg, result.records)
    assert [b.board for b in boards] == list(range(6))
    for b in boards:
        diff = ns_score(by_slot[(0, 2 * b.board)]) - ns_score(by_slot[(0, 2 * b.board + 1)])
        assert b.difference == diff and b.points == table_imps(diff), b
    rows = {r.name: r for r in pair_standings(cfg, result.records)}
    total = sum(b.points or 0 for b in boards)
    assert rows["x"].total == total and rows["y"].total == -total
    assert rows["x"].points.games == 6 and rows["x"].points.mean == pytest.approx(total / 6)
    assert any(b.points for b in boards)  # (random play: some board is not a push)


def test_a_killed_duplicate_tournament_resumes_to_the_same_results(tmp_path: Path) -> None:
    """A run stopped after three tables, then the same command: every table once, the
    records and board results of an uninterrupted run; the key of every other tournament
    is unchanged. Mutation caught: ``del data["duplicate"]`` dropped (other tournaments'
    keys change); the job's seed from ``id(self)`` (the resumed tables play otherwise)."""
    cfg = config(["p=random:seed=1", "q=random:seed=2", "r=random:seed=3"], boards=2)
    db = str(tmp_path / "dup.sqlite")

    stop = KillAfter(3)

    with pytest.raises(Killed):
        run_tournament(cfg, RunOptions(db=db, on_record=stop))
    resumed = run_tournament(cfg, RunOptions(db=db))
    assert resumed.played == cfg.total - 3 and len(resumed.records) == cfg.total == 12
    reference = run_tournament(cfg)
    assert sorted(r.outcome_key() for r in resumed.records) == sorted(
        r.outcome_key() for r in reference.records)
    assert board_results(cfg, resumed.records) == board_results(cfg, reference.records)
    with Store(db) as store:
        assert store.count_duplicates(resumed.tournament_id) == 0
    # a duplicate tournament is another tournament than the same agents without it, and
    # the key of every other tournament is the key of before (no "duplicate" in it)
    plain = TournamentConfig(GAME, cfg.agents, games_per_pair=4, seed=3)
    assert "duplicate" not in plain.as_json() and plain.key != cfg.key


def test_no_seat_receives_a_hand_it_may_not_see_in_duplicate() -> None:
    """The agent that crashes (a forfeit) on anything but its own seat's view, seated as a
    pair against random, on the process pool: no forfeit, and it played North-South at one
    table and East-West at the other of every board. Mutation caught: ``seat_view(game, s,
    player)`` as ``s`` in ``play_job`` (every game a crash)."""
    cfg = config(["py:arena_agents:SeatViewOnly", "random:seed=4"], boards=2)
    result = run_tournament(cfg, RunOptions(workers=2))
    assert len(result.records) == 4
    for r in result.records:
        assert r.termination == "normal", r.detail
    assert sorted(r.seats for r in result.records) == [[0, 1, 0, 1]] * 2 + [[1, 0, 1, 0]] * 2


def test_the_cli_plays_a_small_duplicate_match() -> None:
    """``gamesearch tournament bridge --agents A B --duplicate --boards N --json``: the pairs'
    IMP totals are opposite, the head to head is the first pair's mean; a tournament
    without ``--duplicate`` runs as before. Mutation caught: ``2 * args.boards`` as
    ``args.boards`` (half the boards, each at one table); ``args.boards is not None and``
    dropped (every plain tournament refused)."""
    code, out, err = cli(["tournament", GAME, "--agents", "r1=random:seed=1",
                          "r2=random:seed=2", "--duplicate", "--boards", "3", "--json",
                          "--quiet"])
    assert code == 0, err
    data = json.loads(out)
    assert data["duplicate"] is True and data["boards"] == 3
    assert data["games"] == data["scheduled"] == 6
    pairs = {p["agent"]: p for p in data["pairs"]}
    assert pairs["r1"]["boards"] == pairs["r2"]["boards"] == 3
    assert pairs["r1"]["total"] == -pairs["r2"]["total"]
    assert data["head_to_head"][0]["mean"] == pytest.approx(pairs["r1"]["total"] / 3)
    code, out, err = cli(["tournament", GAME, "--agents", "r1=random:seed=1",
                          "r2=random:seed=2", "--duplicate", "--boards", "1", "--quiet"])
    assert code == 0, err
    assert "IMPs/board" in out and "head to head" in out
    code, out, err = cli(["tournament", "tictactoe", "--agents", "random", "random#2=random",
                          "--games-per-pair", "2", "--quiet"])  # (without: as before)
    assert code == 0 and "2/2 games" in out, err


@pytest.mark.parametrize(("argv", "needle"), [
    (["tictactoe", "--agents", "random", "random", "--duplicate"], "no two teams"),
    (["rolit:players=4", "--agents", "random", "random", "--duplicate"], "no two teams"),
    ([GAME, "--agents", "random", "random", "--boards", "2"], "--boards N is for --duplicate"),
    ([GAME, "--agents", "random", "random", "--duplicate", "--games-per-pair", "2"],
     "give --boards N"),
    ([GAME, "--agents", "random", "--duplicate"], "at least 2 agents"),
    ([GAME, "--agents", "random", "random", "--duplicate", "--boards", "0"], "boards"),
    ([GAME, "--agents", "random", "random", "--duplicate", "--random-plies", "4"],
     "do not apply"),
])
def test_bad_duplicate_commands_get_one_line(argv: list[str], needle: str) -> None:
    """One error line (argparse's range errors come after its usage lines). Mutation
    caught: ``ArenaError`` as ``ValueError`` for a game without teams, and for
    ``--random-plies`` with ``--duplicate`` (a traceback)."""
    code, _, err = cli(["tournament", *argv])
    assert code == 2 and "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and needle in errors[0], err
    assert err.strip().splitlines()[-1] == errors[0]


def test_an_odd_number_of_games_per_pair_is_refused() -> None:
    with pytest.raises(ArenaError, match="must be even"):
        TournamentConfig(GAME, tuple(parse_agents(["random", "random"])), games_per_pair=3,
                         duplicate=True)


def test_a_store_of_the_old_boards_is_refused_in_one_line() -> None:
    """A duplicate tournament stored before boards were dealt by chance (its config has no
    ``boards``) cannot be replayed on chance's deals: refused with one line naming the
    cause; a new one's config says ``boards: chance`` (so its key is a new tournament's)."""
    from gamesearch.arena.errors import ArenaError
    from gamesearch.arena.schedule import check_boards

    cfg = config(["a=random:seed=1", "b=random:seed=2"], boards=1)
    stored = cfg.as_json()
    assert stored["boards"] == "chance"
    check_boards(stored)
    check_boards({"game": "pig"})  # (not duplicate: nothing to check)
    old = {k: v for k, v in stored.items() if k != "boards"}
    with pytest.raises(ArenaError, match="before boards were dealt by chance") as err:
        check_boards(old)
    assert "\n" not in str(err.value)
