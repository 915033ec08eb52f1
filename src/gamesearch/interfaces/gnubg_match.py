"""GNU Backgammon plays our agent through its external-player interface, then judges our
moves.

    python -m gamesearch.interfaces.gnubg_match --games 20 --agent star2:depth=2
    python -m gamesearch.interfaces.gnubg_match --games 4 --agent expectiminimax:depth=1 \\
        --seed 7 --out runs/gnubg --game backgammon:evaluator=pips

How it runs: we listen on ``127.0.0.1`` (an ephemeral port, never another address) and
start Debian's ``gnubg -t -q`` with a script on its standard input: a money session of
``--games`` games (``new session``, then ``new game`` for each next one) without the
cube (``set cube use off``, no Jacoby rule), seeded dice
(``set rng mersenne``, ``set seed``), player 0 gnubg itself at ``--gnubg-plies`` (0:
gnubg's 0-ply, its expert-like quick setting), player 1 external: ``set player 1 external
127.0.0.1:PORT``. gnubg connects, and at each of our turns sends a FIBS board line
(:mod:`gamesearch.games.backgammon.fibs`); we answer with our agent's move in gnubg's
notation. After the session gnubg analyses the match (``analyse match`` at
``--analysis-plies``), prints ``show statistics match`` and saves it as SGF. We read the
points of every game and our chequer-play figures: the moves analysed, the error total and
the error rate per move (gnubg's "normalized" equity error, mEMG) and its rating band
(gnubg: under 0.018 a move *Intermediate*, under 0.012 *Advanced* ...).

Every wait is bounded (``--timeout`` for the whole match); gnubg is ended if it overruns.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..agents import make_agent
from ..argtypes import real_number, whole_number
from ..errors import GameError, echo, one_line
from ..files import iter_lines, prepare_folder
from ..games import get_game
from ..search import Limit

GNUBG = "/usr/games/gnubg"
HOST = "127.0.0.1"


@dataclass
class MatchReport:
    """What a match against gnubg gave (from our side)."""

    games: int = 0
    points: list[int] = field(default_factory=list)  # per game, + we won
    moves: int = 0
    error_rate: float | None = None  # normalized error per move (mEMG / 1000)
    error_total: float | None = None
    rating: str | None = None
    seconds: float = 0.0
    transcript: str = ""
    protocol_errors: list[str] = field(default_factory=list)
    #: every board line gnubg sent and our answer
    exchanges: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        n = len(self.points)
        if not n:
            return "no game finished"
        mean = sum(self.points) / n
        var = sum((p - mean) ** 2 for p in self.points) / (n - 1) if n > 1 else math.inf
        margin = 1.96 * math.sqrt(var / n) if math.isfinite(var) else math.inf
        wins = sum(p > 0 for p in self.points)
        rate = f"{self.error_rate:.4f}" if self.error_rate is not None else "?"
        return (f"{n} games: {mean:+.3f} ± {margin:.3f} points/game (95 %), won {wins} "
                f"({100 * wins / n:.1f} %); gnubg's analysis of our {self.moves} moves: error "
                f"rate {rate} a move ({self.rating or '?'})")


def gnubg_game(spec: str) -> Any:
    """The game of ``spec``, if it plays gnubg (its ``gnubg_player()`` capability)."""
    game = get_game(spec)
    if game.gnubg_player() is None:
        raise GameError(f"gnubg plays a game that reads its board lines (a gnubg_player() "
                        f"capability: backgammon), not {game.spec}")
    return game


def answer_board(game: Any, agent: Any, line: str, limit: Limit | None) -> str:
    """Our answer to one FIBS board line: the agent's move in gnubg's notation (an empty
    line when no move is possible)."""
    player = game.gnubg_player()
    assert player is not None  # (checked when the match was set up: gnubg_game)
    state = player.read_board(line)
    if state[3] == 0:
        return "roll"  # the cube is off, so gnubg rolls first; answer a bare board anyway
    action = agent.choose(game, state, limit)
    if action == ():
        return ""  # no move: gnubg reads an empty answer as the dance ("pass" crashes it)
    return str(game.format_action(state, action))


def _serve(listener: socket.socket, game: Any, agent: Any, limit: Limit | None,
           report: MatchReport, deadline: float) -> None:
    """Accept gnubg's connection and answer every board line until it hangs up."""
    listener.settimeout(max(1.0, deadline - time.monotonic()))
    try:
        conn, _ = listener.accept()
    except OSError as exc:
        report.protocol_errors.append(f"gnubg never connected: {exc}")
        return
    with conn:
        buffer = b""
        while time.monotonic() < deadline:
            conn.settimeout(max(1.0, deadline - time.monotonic()))
            try:
                data = conn.recv(65536)
            except OSError:
                break
            if not data:
                break
            buffer += data
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                line = raw.replace(b"\0", b"").decode("ascii", "replace").strip()
                if not line:
                    continue
                try:
                    reply = answer_board(game, agent, line, limit)
                except GameError as exc:
                    report.protocol_errors.append(str(exc))
                    reply = "Error: " + str(exc)
                report.moves += 1
                report.exchanges.append((line, reply))
                conn.sendall((reply + "\n").encode("ascii"))


def gnubg_script(port: int, games: int, seed: int, gnubg_plies: int, analysis_plies: int,
                 sgf: str | None) -> str:
    """The commands gnubg reads from its standard input."""
    lines = [
        "set rng mersenne", f"set seed {seed}",
        "set player 0 name gnubg", "set player 0 gnubg",
        f"set player 0 chequerplay evaluation plies {gnubg_plies}",
        "set player 0 chequerplay evaluation noise 0",
        "set player 1 name gamesearch", f"set player 1 external {HOST}:{port}",
        "set cube use off", "set jacoby off", "set automatic game off",
        "new session", *["new game"] * (games - 1),
        f"set analysis chequerplay evaluation plies {analysis_plies}",
        "analyse match", "show statistics match",
    ]
    if sgf:
        lines.append(f'save match "{sgf}"')
    lines.append("quit")
    return "\n".join(lines) + "\n"


_WIN = re.compile(r"^(gnubg|gamesearch) wins an? (single game|gammon|backgammon) and (\d) "
                  r"points?", re.M)


def read_results(text: str, report: MatchReport) -> None:
    """The games' points and our chequer-play figures from gnubg's output."""
    report.points = [int(n) if who == "gamesearch" else -int(n)
                     for who, _kind, n in _WIN.findall(text)]
    report.games = len(report.points)
    stats = text[text.rfind("Chequerplay statistics"):] if "Chequerplay statistics" in text \
        else ""
    # the columns are gnubg then gamesearch (player 0, player 1)
    m = re.search(r"Total moves\s+(\d+)\s+(\d+)", stats)
    if m:
        report.moves = int(m.group(2)) or report.moves
    pair = r"\((?:MWC|Points)\)\s+(-?\d+(?:\.\d*)?)\s*\([^)]*\)\s+(-?\d+(?:\.\d*)?)"
    m = re.search(r"Error total EMG " + pair, stats)
    if m:
        report.error_total = abs(float(m.group(2)))
    m = re.search(r"Error rate mEMG " + pair, stats)
    if m:  # per unforced move, in thousandths
        report.error_rate = abs(float(m.group(2))) / 1000.0
    m = re.search(r"Chequerplay rating\s+(.+?)\s{2,}(.+?)\s*$", stats, re.M)
    if m:
        report.rating = m.group(2).strip()


def run_match(games: int, agent_spec: str, *, seed: int = 1, gnubg_plies: int = 0,
              analysis_plies: int = 0, timeout: float = 3600.0, out: str | None = None,
              move_time: float | None = None, gnubg: str = GNUBG,
              game_spec: str = "backgammon", log: TextIO | None = None) -> MatchReport:
    """Play ``games`` money games of ``agent_spec`` against gnubg, analysed by gnubg."""
    exe = shutil.which(gnubg) or (gnubg if os.path.exists(gnubg) else None)
    if exe is None:
        raise GameError(f"gnubg not found at {gnubg} (Debian's package gnubg: make test "
                        "installs it)")
    game = gnubg_game(game_spec)  # backgammon:evaluator=NAME picks the evaluation
    agent = make_agent(game, agent_spec, move_time)
    limit = Limit(time=move_time) if move_time else None
    report = MatchReport()
    start = time.monotonic()
    deadline = start + timeout
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener, \
            tempfile.TemporaryDirectory() as tmp:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        sgf = str(Path(out) / "match.sgf") if out else str(Path(tmp) / "match.sgf")
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
        server = threading.Thread(target=_serve, daemon=True,
                                  args=(listener, game, agent, limit, report, deadline))
        server.start()
        env = {**os.environ, "HOME": tmp}  # gnubg's settings and history stay out of $HOME
        proc = subprocess.Popen([exe, "-t", "-q"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env=env, cwd=tmp)
        try:
            text, _ = proc.communicate(gnubg_script(port, games, seed, gnubg_plies,
                                                    analysis_plies, sgf),
                                       timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            text, _ = proc.communicate()
            report.protocol_errors.append(f"gnubg overran the match's {timeout:g} s")
        finally:
            agent.close()
        if proc.returncode:
            report.protocol_errors.append(f"gnubg exited with status {proc.returncode}")
        server.join(timeout=5)
    report.seconds = time.monotonic() - start
    report.transcript = text
    read_results(text, report)
    if out:
        (Path(out) / "gnubg.txt").write_text(text)
        (Path(out) / "protocol.txt").write_text(
            "".join(f"{line}\n{reply}\n" for line, reply in report.exchanges))
    if log is not None:
        log.write(report.summary() + "\n")
    return report


def pooled_summary(chunks: list[dict[str, Any]]) -> str:
    """One summary of several chunks' results (their points, and the error rate per
    unforced move over all of them: the error totals summed and divided by the unforced
    moves, which each chunk's total over its rate gives)."""
    report = MatchReport()
    errors = unforced = 0.0
    ratings = set()
    for chunk in chunks:
        report.points.extend(chunk["points"])
        report.moves += chunk["moves"]
        if chunk.get("error_total") and chunk.get("error_rate"):
            errors += chunk["error_total"]
            unforced += chunk["error_total"] / chunk["error_rate"]
        if chunk.get("rating"):
            ratings.add(chunk["rating"])
    if unforced:
        report.error_rate = errors / unforced
        report.rating = rating_band(report.error_rate)
    text = report.summary()
    if unforced:
        text += (f"; error total {errors:.1f} over {unforced:.0f} unforced moves, "
                 f"{len(chunks)} chunk(s) rated {', '.join(sorted(ratings)) or '?'}")
    return text


#: gnubg's chequer-play rating bands (``formatgs.c``: the normalized error per move).
RATING_BANDS = ((0.002, "Supernatural"), (0.005, "World class"), (0.008, "Expert"),
                (0.012, "Advanced"), (0.018, "Intermediate"), (0.026, "Casual player"),
                (0.035, "Beginner"), (math.inf, "Awful!"))


def rating_band(error_rate: float) -> str:
    """gnubg's name for a chequer-play error rate per move."""
    return next(name for bound, name in RATING_BANDS if error_rate < bound)


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The runner's options (shared by ``python -m`` and ``gamesearch gnubg-match``)."""
    ap.add_argument("--games", type=whole_number, default=10)
    ap.add_argument("--agent", default="star2:depth=2")
    ap.add_argument("--game", default="backgammon",
                    help="the game spec, e.g. backgammon:evaluator=td")
    ap.add_argument("--seed", type=whole_number, default=1)
    ap.add_argument("--gnubg-plies", type=whole_number, default=0)
    ap.add_argument("--analysis-plies", type=whole_number, default=0)
    ap.add_argument("--move-time", type=real_number, default=None,
                    help="seconds per move for agents without a depth")
    ap.add_argument("--timeout", type=real_number, default=3600.0,
                    help="seconds for each gnubg session (a chunk)")
    ap.add_argument("--chunk", type=whole_number, default=None,
                    help="games per gnubg session (default: all in one); chunk k uses "
                         "seed SEED+k")
    ap.add_argument("--jsonl", type=Path, default=None,
                    help="append each chunk's result here; chunks already in the file are "
                         "skipped (run the same command again to resume)")
    ap.add_argument("--out", help="a folder for gnubg's output and the match's SGF (made "
                                  "if missing; the folder it is in must exist)")


def check_arguments(args: argparse.Namespace) -> str | None:
    """The first bad option, as a one-line message (None when all are fine)."""
    if not 1 <= args.games <= 10_000:
        return f"--games: 1 to 10000, not {args.games}"
    if args.chunk is not None and not 1 <= args.chunk <= args.games:
        return f"--chunk: 1 to --games ({args.games}), not {args.chunk}"
    if not 0 <= args.gnubg_plies <= 4:
        return f"--gnubg-plies: 0 to 4, not {args.gnubg_plies}"
    if not 0 <= args.analysis_plies <= 4:
        return f"--analysis-plies: 0 to 4, not {args.analysis_plies}"
    if args.move_time is not None and not (0 < args.move_time <= 3600):
        return f"--move-time: above 0 and at most 3600 seconds, not {args.move_time}"
    if not 0 < args.timeout <= 7 * 86400:
        return f"--timeout: above 0 and at most a week, not {args.timeout}"
    return None


#: The largest resume file (``--jsonl``) read: a chunk's row is a few hundred bytes.
MAX_RESUME_BYTES = 16 << 20
#: The fields of a resume row and what each holds (checked before a row is trusted).
_WHOLE = "a whole number"
_RATE = "a finite number >= 0 or null"
_ROW_FIELDS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "agent": ("a text", lambda v: isinstance(v, str)),
    "game": ("a text", lambda v: isinstance(v, str)),
    "gnubg_plies": (_WHOLE, lambda v: _is_int(v) and 0 <= v <= 4),
    "seed": (_WHOLE, lambda v: _is_int(v) and abs(v) < 1 << 63),
    "games": ("a whole number from 1 to 10000", lambda v: _is_int(v) and 1 <= v <= 10_000),
    "points": ("a list of whole numbers from -3 to 3",
               lambda v: isinstance(v, list) and all(_is_int(p) and -3 <= p <= 3 for p in v)),
    "moves": ("a whole number >= 0", lambda v: _is_int(v) and v >= 0),
    "error_total": (_RATE, lambda v: v is None or _is_real(v)),
    "error_rate": (_RATE, lambda v: v is None or _is_real(v)),
    "rating": ("a text or null", lambda v: v is None or isinstance(v, str)),
}


def _is_int(v: Any) -> bool:
    return type(v) is int


def _is_real(v: Any) -> bool:
    return type(v) in (int, float) and math.isfinite(v) and v >= 0


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def read_resume(path: Path) -> list[dict[str, Any]]:
    """The rows of a resume file (``--jsonl``), each checked before the match is played:
    the file is read through :func:`~gamesearch.files.iter_lines` (capped, text only: a
    binary file or ``/dev/zero`` is refused), and each line must be a JSON object with every
    field of :data:`_ROW_FIELDS` of the right type (no ``NaN`` or ``Infinity``, which
    Python's ``json`` would take). Any fault is a one-line :class:`GameError` naming the file
    and the line, so that a damaged file is found now, not after a whole match."""
    import json

    rows = []
    name = f"--jsonl {echo(str(path))}"
    for number, line in iter_lines(str(path), "--jsonl file", MAX_RESUME_BYTES):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            row = json.loads(line, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:
            raise GameError(f"{where}: not JSON ({one_line(str(exc))}); a resume file holds "
                            "one JSON object a chunk, as gnubg-match writes it") from None
        if not isinstance(row, dict):
            raise GameError(f"{where}: a JSON {type(row).__name__}, not an object; a resume "
                            "file holds one JSON object a chunk")
        for field_name, (kind, ok) in _ROW_FIELDS.items():
            if field_name not in row:
                raise GameError(f"{where}: the field {field_name!r} is missing")
            if not ok(row[field_name]):
                raise GameError(f"{where}: {field_name} {echo(row[field_name])}: expected "
                                f"{kind}")
        if len(row["points"]) > row["games"]:
            raise GameError(f"{where}: {len(row['points'])} points for {row['games']} games")
        rows.append(row)
    return rows


def prepare(args: argparse.Namespace) -> dict[int, dict[str, Any]]:
    """Everything that can be checked before the match is played, so that a bad option is
    one line now and not after hours of games: the game and the agent (a person at the
    terminal is refused: gnubg's board lines come over a socket, with no one to answer
    them), the resume file (read and checked; its folder must exist and it must be a file)
    and the ``--out`` folder (made if missing, but its parent must exist: a mistyped path is
    an error naming the missing folder, not a tree made silently). Returns the chunks the
    resume file already holds for this match, by seed."""
    game = gnubg_game(args.game)
    agent = make_agent(game, args.agent, args.move_time)
    try:
        if agent.interactive:
            raise GameError(f"--agent {echo(args.agent)}: gnubg-match plays an engine "
                            "unattended (gnubg's board lines come over a socket); play "
                            "gnubg yourself, or backgammon here with gamesearch play")
    finally:
        agent.close()
    done: dict[int, dict[str, Any]] = {}
    if args.jsonl is not None:
        path = Path(args.jsonl)
        folder = path.parent
        try:
            if not folder.is_dir():
                raise GameError(f"--jsonl {echo(str(path))}: the folder {echo(str(folder))} "
                                "does not exist")
            present = path.exists() or path.is_symlink()
        except OSError as exc:  # a name too long
            raise GameError(f"--jsonl {echo(str(path))}: {exc.strerror or exc}") from None
        if present:
            for row in read_resume(path):
                if (row["agent"], row["game"], row["gnubg_plies"]) == \
                        (args.agent, args.game, args.gnubg_plies):
                    done[row["seed"]] = row
        if not os.access(path if present else folder, os.W_OK):
            raise GameError(f"--jsonl {echo(str(path))}: cannot write there")
    if args.out:
        prepare_folder(args.out, "--out", parents=False)
    return done


def run_from_arguments(args: argparse.Namespace, out: TextIO) -> int:
    """Play the match (in chunks when asked, resuming from ``--jsonl``) and print it."""
    import json

    chunk = args.chunk or args.games
    done = prepare(args)
    chunks: list[dict[str, Any]] = []
    played = 0
    index = 0
    while played < args.games:
        n = min(chunk, args.games - played)
        seed = args.seed + index
        if seed in done and done[seed]["games"] != n:
            raise GameError(f"--jsonl {echo(str(args.jsonl))}: the chunk of seed {seed} has "
                            f"{done[seed]['games']} games, this run's has {n} (resume with "
                            "the same --games and --chunk)")
        if seed in done:
            chunks.append(done[seed])
        else:
            report = run_match(n, args.agent, seed=seed, gnubg_plies=args.gnubg_plies,
                               analysis_plies=args.analysis_plies, timeout=args.timeout,
                               out=str(Path(args.out) / f"chunk{index:03d}") if args.out
                               else None, move_time=args.move_time, game_spec=args.game)
            row = {"agent": args.agent, "game": args.game, "gnubg_plies": args.gnubg_plies,
                   "seed": seed, "games": n, "points": report.points, "moves": report.moves,
                   "error_total": report.error_total, "error_rate": report.error_rate,
                   "rating": report.rating, "seconds": round(report.seconds, 1),
                   "protocol_errors": report.protocol_errors}
            chunks.append(row)
            for err in report.protocol_errors:
                out.write(f"protocol: {err}\n")
            if args.jsonl is not None and report.games:
                with args.jsonl.open("a") as fh:
                    fh.write(json.dumps(row) + "\n")
            if chunk < args.games:
                out.write(f"chunk {index} (seed {seed}): {report.summary()}\n")
                out.flush()
        played += n
        index += 1
    out.write(pooled_summary(chunks) + "\n")
    return 0 if any(c["points"] for c in chunks) else 1


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    ap = argparse.ArgumentParser(prog="python -m gamesearch.interfaces.gnubg_match",
                                 description=__doc__.split("\n\n")[0])
    add_arguments(ap)
    args = ap.parse_args(argv)
    problem = check_arguments(args)
    if problem:
        ap.error(problem)
    try:
        return run_from_arguments(args, out)
    except GameError as exc:
        out.write(f"error: {exc}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
