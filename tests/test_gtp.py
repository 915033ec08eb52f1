"""The GTP engine (``gamesearch gtp``): a scripted session, every command of the list,
bad input answered ``?`` in one line, and fuzzing in process (hypothesis) and through real
pipes: every command line gets exactly one answer, ``=`` or ``?``, and every ``genmove``
a legal move of the position the engine holds."""

from __future__ import annotations

import io
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from fuzzing import NASTY_NUMBERS, examples, texts
from gamesearch.games.go.rules import Go
from gamesearch.interfaces.gtp import COMMANDS, GTPEngine

FAST_AGENT = "mcts:iterations=60,seed=1"


def engine() -> GTPEngine:
    return GTPEngine(io.StringIO(), FAST_AGENT, "go:size=9")


def ask(e: GTPEngine, line: str) -> str:
    answer = e.handle(line)
    assert answer is not None and answer.endswith("\n\n"), answer
    assert answer[0] in "=?", answer
    return answer


def test_a_game_that_does_not_speak_gtp_is_refused_in_one_line() -> None:
    import pytest

    from gamesearch.errors import InvalidLimitError

    for spec in ("tictactoe", "chess", "othello"):
        with pytest.raises(InvalidLimitError) as info:
            GTPEngine(io.StringIO(), FAST_AGENT, spec)
        assert "does not speak the Go Text Protocol" in str(info.value)
        assert "\n" not in str(info.value)
    out = subprocess.run([sys.executable, "-m", "gamesearch", "gtp", "--game", "nim"],
                         input="", capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out
    assert "nim" in out.stderr and "Go Text Protocol" in out.stderr and "Traceback" \
        not in out.stderr


def test_a_session() -> None:
    e = engine()
    assert ask(e, "protocol_version") == "= 2\n\n"
    assert ask(e, "12 name") == "=12 gamesearch\n\n"
    assert ask(e, "known_command genmove") == "= true\n\n"
    assert ask(e, "known_command frobnicate") == "= false\n\n"
    assert ask(e, "list_commands").split() == ["=", *COMMANDS]
    assert ask(e, "boardsize 7") == "=\n\n" and e.game.size == 7
    assert ask(e, "boardsize 4").startswith("? unacceptable size")
    assert ask(e, "boardsize 20").startswith("? unacceptable size")
    assert ask(e, "komi 0.5") == "=\n\n" and e.game.komi == 0.5
    assert ask(e, "play b D4") == "=\n\n"
    assert ask(e, "play w D4").startswith("? illegal move: the point is occupied")
    assert ask(e, "play w Z9").startswith("? illegal move")
    assert ask(e, "play x D5").startswith("? invalid color")
    assert ask(e, "play b E4") == "=\n\n"  # black twice: GTP allows it
    move = ask(e, "genmove w")[2:].strip()
    assert move == "pass" or e.game.parse_vertex(move) != e.game.pass_action
    assert ask(e, "undo") == "=\n\n" and ask(e, "undo") == "=\n\n"
    assert ask(e, "undo") == "=\n\n" and ask(e, "undo").startswith("? cannot undo")
    assert ask(e, "undo undo").startswith("? undo takes no arguments")
    assert "D" in ask(e, "showboard")
    assert ask(e, "foo bar").startswith("? unknown command")
    assert ask(e, "# a comment") if e.handle("# a comment") else True
    assert e.handle("   ") is None
    assert ask(e, "quit") == "=\n\n" and e.done


def test_ko_and_suicide_are_refused() -> None:
    e = engine()
    for line in ("boardsize 5", "play b B3", "play w C3", "play b A2", "play w B2",
                 "play b B1", "play w C1", "play w D2", "play b C2"):
        assert ask(e, line) == "=\n\n", line
    assert "ko" in ask(e, "play w B2")  # the immediate retake
    e2 = engine()
    for line in ("boardsize 5", "play w A2", "play w B1"):
        assert ask(e2, line) == "=\n\n"
    assert "suicide" in ask(e2, "play b A1")


def test_handicap_commands() -> None:
    e = engine()
    assert ask(e, "fixed_handicap 4") == "= C3 G7 C7 G3\n\n"
    assert ask(e, "fixed_handicap 2").startswith("? board not empty")
    assert e.state.to_move == 1
    assert ask(e, "clear_board") == "=\n\n"
    assert ask(e, "fixed_handicap 1").startswith("? invalid number of stones")
    assert ask(e, "place_free_handicap 12").startswith("= ")
    assert e.state.board.count(1) == 12
    assert ask(e, "clear_board") == "=\n\n"
    assert ask(e, "set_free_handicap D4 D4").startswith("? bad vertex list")
    assert ask(e, "set_free_handicap D4 Q16").startswith("? bad vertex list")
    assert ask(e, "set_free_handicap D4 E5") == "=\n\n" and e.state.board.count(1) == 2


def test_final_score_and_status() -> None:
    e = engine()
    assert ask(e, "boardsize 5") == "=\n\n"
    # White owns the board but for one black stone, lost in the middle of it
    for line in ("play b C3", "play w B2", "play w B3", "play w B4", "play w D2",
                 "play w D3", "play w D4", "play w C4"):
        assert ask(e, line) == "=\n\n"
    assert ask(e, "final_status_list dead") == "= C3\n\n"
    alive = ask(e, "final_status_list alive")[2:].split()
    assert sorted(alive) == sorted(["B2", "B3", "B4", "D2", "D3", "D4", "C4"])
    assert ask(e, "final_score") == "= W+32.5\n\n"  # 25 points + komi 7.5
    assert ask(e, "final_status_list seki") == "=\n\n"
    assert ask(e, "final_status_list maybe").startswith("?")


def test_time_settings_give_the_move_time() -> None:
    e = engine()
    assert ask(e, "time_settings 300 0 0") == "=\n\n"
    assert abs(e._move_seconds(0) - (300 / 30 - 0.2)) < 1e-9  # type: ignore[operator]
    assert ask(e, "time_left b 10 3") == "=\n\n"
    assert abs(e._move_seconds(0) - (10 / 3 - 0.2)) < 1e-9  # type: ignore[operator]
    assert ask(e, "time_settings 1 x 0").startswith("? invalid")
    assert ask(e, "time_left q 1 1").startswith("? invalid color")


def test_loadsgf(tmp_path: Path) -> None:
    # a hand-written record: 7x7, komi 5.5, two handicap stones, then White captures
    # Black's C5 (B6 C6 D5 C4 around it: the last one at C4)
    record = tmp_path / "game.sgf"
    record.write_text("(;GM[1]FF[4]SZ[7]KM[5.5]HA[2]AB[ee][cc]PL[W]"
                      ";W[cb];B[aa];W[bc];B[ag];W[dc];B[gg];W[cd])")
    e = engine()
    assert ask(e, f"loadsgf {record}") == "=\n\n"
    assert (e.game.size, e.game.komi) == (7, 5.5)
    assert e.state.board[e.game.parse_vertex("C5")] == 0  # captured
    assert e.state.board[e.game.parse_vertex("E3")] == 1  # (handicap stone: Black)
    assert e.state.to_move == 0 and e.state.board[e.game.parse_vertex("C4")] == 2
    assert ask(e, f"loadsgf {record} 7") == "=\n\n"  # before the capture
    assert e.state.board[e.game.parse_vertex("C5")] == 1 and e.state.to_move == 1
    assert ask(e, "play w C4") == "=\n\n"
    assert e.state.board[e.game.parse_vertex("C5")] == 0
    assert ask(e, "undo") == "=\n\n" and ask(e, "undo") == "=\n\n"
    assert e.state.board[e.game.parse_vertex("G1")] == 0  # B G1 undone
    assert ask(e, f"loadsgf {record} 1") == "=\n\n"  # the start: the two stones
    assert sum(1 for p in e.state.board if p) == 2 and e.state.to_move == 1
    assert ask(e, "undo").startswith("? cannot undo")
    # our own records read back: a game played here, written by write_sgf
    game = Go(size=9, komi=6.5)
    s = game.initial_state()
    for v in ("E5", "C3", "G7", "C7", "D4"):
        s = game.result(s, game.parse_action(s, v))
    from gamesearch.games.go.sgf import write_sgf
    ours = tmp_path / "ours.sgf"
    ours.write_bytes(write_sgf(game, [game.parse_vertex(v) for v in
                                      ("E5", "C3", "G7", "C7", "D4")]))
    assert ask(e, f"loadsgf {ours}") == "=\n\n"
    assert (e.game.size, e.game.komi, e.state.board, e.state.to_move) == (
        9, 6.5, s.board, s.to_move)
    # bad files: one line each, and the position stays as it was
    before = e.state
    (tmp_path / "binary.sgf").write_bytes(b"(;GM[1]SZ[9]\x00\xff;B[aa])")
    (tmp_path / "big.sgf").write_bytes(b"(;GM[1]SZ[9]" + b";B[aa]" * 200_000 + b")")
    (tmp_path / "broken.sgf").write_text("(;GM[1]SZ[9];B[ee]")
    (tmp_path / "occupied.sgf").write_text("(;GM[1]SZ[9];B[ee];W[ee])")
    (tmp_path / "huge.sgf").write_text("(;GM[1]SZ[25];B[aa])")
    for name, reason in (("missing.sgf", "missing"), ("binary.sgf", ""),
                         ("big.sgf", "too large"), ("broken.sgf", "SGF"),
                         ("occupied.sgf", "occupied"), ("huge.sgf", "size 25")):
        answer = ask(e, f"loadsgf {tmp_path / name}")
        assert answer.startswith("? cannot load file") and reason in answer, answer
        assert answer.count("\n") == 2
        assert e.state is before and e.game.size == 9
    assert ask(e, "loadsgf -").startswith("? cannot load file: - is the GTP input")
    assert ask(e, f"loadsgf {ours} 0").startswith("? move number 0 out of range")
    assert ask(e, "loadsgf").startswith("? loadsgf takes")


@examples(200)
@given(st.lists(st.one_of(
    st.sampled_from([*COMMANDS[:-1], "play b", "play w D4", "play b pass", "genmove b",
                     "boardsize 5", "boardsize 0", "komi nan", "komi 1e400", "komi 7.5",
                     "fixed_handicap 9", "set_free_handicap A1 B2 C3", "undo",
                     "time_left w -5 0", "final_status_list dead", "10 genmove w",
                     "loadsgf /dev/null", "loadsgf -", "loadsgf /no/such.sgf 3"]),
    texts(), st.sampled_from(["komi " + n for n in NASTY_NUMBERS])), max_size=12))
def test_fuzz_every_line_one_answer(lines: list[str]) -> None:
    e = GTPEngine(io.StringIO(), "mcts:iterations=5,seed=1", "go:size=5")
    for line in lines:
        answer = e.handle(line)
        if answer is None:
            continue
        assert answer[0] in "=?" and answer.endswith("\n\n")
        if answer[0] == "?":
            assert "\n" not in answer[:-2], answer
        assert "Traceback" not in answer


def test_through_pipes_genmove_is_legal_and_garbage_is_answered() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamesearch", "gtp", "--agent", "mcts:time=0.05,seed=1",
         "--game", "go:size=7"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answers: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        block: list[str] = []
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line == "" and block:
                answers.put("\n".join(block))
                block = []
            elif line or block:
                block.append(line)

    threading.Thread(target=read, daemon=True).start()

    def send(line: bytes) -> str:
        assert proc.stdin is not None
        proc.stdin.write(line + b"\n")
        proc.stdin.flush()
        return answers.get(timeout=30)

    try:
        game = Go(size=7)
        state = game.initial_state()
        garbage = [b"\x00\x01\xff play", b"genmove", b"play b Q99", b"boardsize x",
                   b"x" * 20000, b"komi", b"undo undo", b"\tname\t"]
        for k in range(14):
            junk = garbage[k % len(garbage)]
            assert send(junk)[0] in "=?"
            colour = "bw"[state.to_move]
            start = time.monotonic()
            answer = send(f"genmove {colour}".encode())
            assert time.monotonic() - start < 10
            assert answer.startswith("= "), answer
            action = game.parse_action(state, answer[2:])  # legal in our own replay
            state = game.result(state, action)
            if game.is_terminal(state):
                break
        assert send(b"quit").startswith("=")
        assert proc.wait(10) == 0
    finally:
        proc.kill()
