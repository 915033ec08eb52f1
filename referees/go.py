"""Go's rules checked against two independent referees: OpenSpiel's ``go`` and GNU Go over
GTP (``tests/test_go_referees.py`` runs samples, ``benchmarks/go_referees.py`` the full
counts).

Where the rules agree and where they differ:

* **OpenSpiel** (``pyspiel.load_game("go")``, 1.6): area scoring as Tromp and Taylor, komi
  7.5, suicide illegal, the game over after two passes, as ours. Its ko rule is the
  *simple* ko (the point of a single-stone capture may not be retaken at once); ours is
  positional superko, so a move OpenSpiel allows may be one we forbid: every such move
  must recreate an earlier board (:func:`compare_openspiel` checks it and counts them),
  and the game goes on with a move both allow. It ends every game at ``max_game_length``
  moves (2 x points), which our ``max_moves`` option copies for the comparison. Its returns
  are +1/-1 by the area score with komi, as ours; its actions are our points (row 0 at
  the bottom) and the pass ``points``.
* **GNU Go 3.8** (``--chinese-rules --positional-superko``): ``is_legal`` on every point
  of positions from the random games (:func:`compare_gnugo_legal`); ``final_score`` of
  games GNU Go plays against itself with ``--capture-all-dead`` (so no dead stone is left
  when both pass) against our area count (:func:`compare_gnugo_scores`). GNU Go's
  ``final_score`` judges dead stones itself, so a difference there is a difference of
  judgment, which the count reports.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gamesearch.games.go.gtp import GTPClient, gnugo_argv
from gamesearch.games.go.rules import Go, GoState
from gamesearch.games.go.train import random_opening


@dataclass
class Tally:
    """What a comparison found: ``games``, ``positions`` compared, ``superko`` (moves
    OpenSpiel allows that positional superko forbids, each checked to repeat a board),
    ``mismatches`` (descriptions of real differences; empty when the referee agrees)."""

    games: int = 0
    positions: int = 0
    superko: int = 0
    cap_ends: int = 0
    mismatches: list[str] = field(default_factory=list)
    detail: Counter[str] = field(default_factory=Counter)


def _openspiel_board(text: str, size: int) -> bytes:
    """The board of OpenSpiel's ``str(state)`` (rows from the top, ``+`` empty)."""
    rows = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and len(parts[1]) == size:
            rows[int(parts[0])] = parts[1]
    out = bytearray(size * size)
    for r, row in rows.items():
        for c, ch in enumerate(row):
            out[(r - 1) * size + c] = {"X": 1, "O": 2}.get(ch, 0)
    return bytes(out)


def compare_openspiel(games: int, size: int = 9, seed: int = 0,
                      keep: list[list[int]] | None = None) -> Tally:
    """Play ``games`` random games in both libraries side by side (half uniformly random,
    passes included; half never passing while another move exists, so they reach the
    length cap): equal legal moves at every ply but superko's, equal boards and returns at
    the end. ``keep`` receives each game's moves (for :func:`compare_gnugo_legal`)."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    theirs_game = pyspiel.load_game("go", {"board_size": size, "komi": 7.5})
    cap = theirs_game.max_game_length()
    ours = Go(size=size, max_moves=cap)
    rng = random.Random(seed)
    tally = Tally()
    for k in range(games):
        s: GoState = ours.initial_state()
        o = theirs_game.new_initial_state()
        passing = k % 2 == 0
        moves: list[int] = []
        while not o.is_terminal():
            mine = set(ours.actions(s))
            legal = set(o.legal_actions())
            tally.positions += 1
            if mine - legal:
                tally.mismatches.append(f"game {k} ply {len(moves)}: we allow "
                                        f"{sorted(ours.vertex(a) for a in mine - legal)}")
                break
            for a in legal - mine:
                played = ours._play(s, a) if not s.board[a] else None
                if played is None or played[1] not in s.history:
                    tally.mismatches.append(f"game {k} ply {len(moves)}: OpenSpiel allows "
                                            f"{ours.vertex(a)}, not a superko repetition")
                    break
                tally.superko += 1
            both = sorted(mine & legal)
            if not passing and len(both) > 1:
                both.remove(ours.pass_action)
            a = both[rng.randrange(len(both))]
            s = ours.result(s, a)
            o.apply_action(a)
            moves.append(a)
        tally.games += 1
        if keep is not None:
            keep.append(moves)
        if not ours.is_terminal(s):
            tally.mismatches.append(f"game {k}: OpenSpiel ended, we did not")
        elif s.passes < 2:
            tally.cap_ends += 1
        if _openspiel_board(str(o), size) != s.board:
            tally.mismatches.append(f"game {k}: the final boards differ")
        if list(ours.returns(s)) != list(o.returns()):
            tally.mismatches.append(f"game {k}: returns {ours.returns(s)} vs {o.returns()}")
    return tally


def _gnugo(path: str, size: int, komi: float, extra: tuple[str, ...] = ()) -> Any:
    client = GTPClient([*gnugo_argv(path), *extra])
    client.send(f"boardsize {size}")
    client.send("clear_board")
    client.send(f"komi {komi:g}")
    return client


def compare_gnugo_legal(path: str, lines: list[list[int]], size: int = 9, every: int = 10
                        ) -> Tally:
    """GNU Go's ``is_legal`` for the side to move, on every empty point
    of every ``every``-th position of each game in ``lines`` (moves as points), against
    ours."""
    game = Go(size=size)
    tally = Tally()
    client = _gnugo(path, size, game.komi)
    try:
        for k, moves in enumerate(lines):
            client.send("clear_board")
            s = game.initial_state()
            for i, a in enumerate(moves):
                if i % every == 0 and not game.is_terminal(s):
                    colour = "bw"[s.to_move]
                    mine = set(game.actions(s))
                    tally.positions += 1
                    for p in range(game.points):
                        if s.board[p]:
                            continue
                        theirs = client.send(f"is_legal {colour} {game.vertex(p)}") == "1"
                        if theirs != (p in mine):
                            why = "superko" if not theirs or ours_repeat(game, s, p) else "?"
                            tally.detail[why] += 1
                            tally.mismatches.append(
                                f"game {k} ply {i}: {colour} {game.vertex(p)} GNU Go "
                                f"{'legal' if theirs else 'illegal'}, ours "
                                f"{'legal' if p in mine else 'illegal'}")
                client.send(f"play {'bw'[s.to_move]} {game.vertex(a)}")
                s = game.result(s, a)
            tally.games += 1
    finally:
        client.close()
    return tally


def ours_repeat(game: Go, s: GoState, p: int) -> bool:
    """The stone on ``p`` would repeat an earlier board (positional superko)."""
    played = game._play(s, p)
    return played is not None and played[1] in s.history


def compare_gnugo_scores(path: str, games: int, size: int = 9, seed: int = 0,
                         level: int = 1, opening: int = 6) -> Tally:
    """GNU Go plays ``games`` games against itself (``--capture-all-dead``, ``level``),
    each from ``opening`` random moves; every move must be legal for us, and GNU Go's
    ``final_score`` must equal our area count (``result_text``)."""
    game = Go(size=size)
    rng = random.Random(seed)
    tally = Tally()
    client = _gnugo(path, size, game.komi, ("--level", str(level)))
    try:
        for k in range(games):
            client.send("clear_board")
            s = random_opening(game, client, rng, opening)
            while not game.is_terminal(s) and s.moves < 4 * game.points:
                answer = client.send(f"genmove {'bw'[s.to_move]}", timeout=120.0)
                if answer.lower() == "resign":
                    tally.detail["resigned"] += 1
                    break
                a = game.parse_action(s, answer)  # raises if illegal for us
                s = game.result(s, a)
            if not game.is_terminal(s):
                continue
            tally.positions += 1
            theirs = client.send("final_score")
            if theirs != game.result_text(s):
                tally.mismatches.append(f"game {k}: GNU Go {theirs}, ours "
                                        f"{game.result_text(s)}")
            tally.games += 1
    finally:
        client.close()
    return tally
