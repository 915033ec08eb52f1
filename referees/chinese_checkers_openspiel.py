"""The bridge to OpenSpiel's ``chinese_checkers`` (the ``open_spiel`` wheel, imported only
here and only when called): its whole moves, our move as its actions, its board read back.

OpenSpiel's actions (open_spiel/games/chinese_checkers/chinese_checkers.h): ``hole * 6 +
direction`` for a step or a jump from ``hole`` (directions up-left, up-right, left, right,
down-left, down-right: :data:`.board.DIRECTIONS`), 726 to pass (to stop a jump chain, or
when a player has no move). A jump chain is one action per jump, all by the same player;
the turn ends with 726 or by itself when no further jump is possible. A *whole move* is the
(start, end) pair of one turn's action sequence: :func:`whole_moves` lists them by walking
every sequence (applying and undoing actions), :func:`to_actions` turns our move ``start *
121 + end`` into the shortest such sequence.
"""

from __future__ import annotations

from typing import Any

from gamesearch.games.chinese_checkers import board as B
from gamesearch.games.chinese_checkers.rules import HOLES, PASS, CCState

#: OpenSpiel's pass action.
OS_PASS = B.HOLES * 6


def load(players: int, max_moves: int = 1000) -> Any:
    """OpenSpiel's game (``pyspiel`` must import)."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    return pyspiel.load_game("chinese_checkers", {"players": players, "max_moves": max_moves})


def read_board(os_state: Any, players: int) -> CCState:
    """Our state of an OpenSpiel state at the start of a turn, read from its observation
    string (the holes in order, ``.`` empty, ``1``-``6`` players' pieces; ``Player: p``).
    ``moves`` is left at 0: OpenSpiel does not show its turn count."""
    cells = _cells(os_state)
    lines = os_state.to_string().strip().split("\n")
    if len(cells) != HOLES:
        raise ValueError(f"OpenSpiel's board has {len(cells)} holes")
    pieces = [0] * players
    for h, ch in enumerate(cells):
        if ch != ".":
            pieces[int(ch) - 1] |= 1 << h
    player = int(lines[-1].split(":")[1].split()[0])
    return CCState(tuple(pieces), player, 0)


def whole_moves(os_state: Any) -> dict[int, list[int]]:
    """Every whole move of the player to move in ``os_state`` (a state at the start of a
    turn): our move (``start * 121 + end``, or :data:`PASS`) -> one action sequence that
    plays it. Found by trying every action sequence of the turn (depth first, undoing each
    action), so it rests on OpenSpiel's rules alone."""
    player = os_state.current_player()
    empty = [ch == "." for ch in _cells(os_state)]
    out: dict[int, list[int]] = {}

    def walk(start: int, here: int, seq: list[int]) -> None:
        # ``os_state`` is mid-chain (or the turn just ended) with the piece on ``here``.
        if os_state.is_terminal() or os_state.current_player() != player or \
                seq[-1] == OS_PASS:
            out.setdefault(start * HOLES + here, list(seq))
            return
        for a in os_state.legal_actions():
            if a == OS_PASS:
                out.setdefault(start * HOLES + here, [*seq, a])
                continue
            os_state.apply_action(a)
            walk(start, B.JUMP[a // 6][a % 6], [*seq, a])
            os_state.undo_action(player, a)

    for a in os_state.legal_actions():
        if a == OS_PASS:
            out[PASS] = [a]
            continue
        src, d = divmod(a, 6)
        os_state.apply_action(a)
        if os_state.current_player() != player or os_state.is_terminal():
            # A step (to an empty neighbour), or a jump that ended the turn at once.
            n = B.NEIGHBOUR[src][d]
            out.setdefault(src * HOLES + (n if empty[n] else B.JUMP[src][d]), [a])
        else:
            walk(src, B.JUMP[src][d], [a])
        os_state.undo_action(player, a)
    return out


def _cells(os_state: Any) -> list[str]:
    """The 121 holes of OpenSpiel's board string, in order."""
    lines = os_state.to_string().strip().split("\n")[:B.ROWS]
    return [ch for line in lines for ch in line if not ch.isspace()]


def to_actions(state: CCState, move: int) -> list[int]:
    """OpenSpiel's actions for our ``move`` in ``state``: a step's one action; a chain's
    jumps along a shortest chain, then 726 unless the turn ends by itself (no further jump
    from the end hole avoiding the holes the chain visited); the pass's 726."""
    if move == PASS:
        return [OS_PASS]
    src, dst = divmod(move, HOLES)
    occupied = 0
    for m in state.pieces:
        occupied |= m
    occupied &= ~(1 << src)
    for d in range(6):
        if B.NEIGHBOUR[src][d] == dst:
            return [src * 6 + d]
    # Breadth first over landings: parent pointers give a shortest chain.
    parent: dict[int, tuple[int, int]] = {src: (-1, -1)}
    frontier = [src]
    while frontier and dst not in parent:
        nxt = []
        for h in frontier:
            for d in range(6):
                over, land = B.NEIGHBOUR[h][d], B.JUMP[h][d]
                if land >= 0 and (occupied >> over) & 1 and not (occupied >> land) & 1 \
                        and land not in parent:
                    parent[land] = (h, d)
                    nxt.append(land)
        frontier = nxt
    if dst not in parent:
        raise ValueError(f"{B.NAMES[src]}-{B.NAMES[dst]} is not a move here")
    seq = []
    h = dst
    visited = {dst}
    while h != src:
        ph, d = parent[h]
        seq.append(ph * 6 + d)
        visited.add(ph)
        h = ph
    seq.reverse()
    for d in range(6):
        over, land = B.NEIGHBOUR[dst][d], B.JUMP[dst][d]
        if land >= 0 and (occupied >> over) & 1 and not (occupied >> land) & 1 \
                and land not in visited:
            return [*seq, OS_PASS]
    return seq


#: The policies of :func:`compare_games`' random games.
POLICIES = ("uniform", "forward")


def compare_games(players: int, games: int, *, seed: int = 0, max_moves: int = 1000,
                  forward_share: float = 0.5) -> dict[str, Any]:
    """Play ``games`` random games of ``players`` in both libraries side by side and check,
    at every turn, that the whole moves are the same set, that the boards are the same,
    and at the end that both end at the same turn with the same winner (OpenSpiel: the
    one scored ``n-1``, everyone else ``-1``; at its move limit every return is 0 and we
    name no winner). Returns to :mod:`.rules` are not compared (they differ by design).

    A share ``forward_share`` of the games are *forward* games (each move drawn among the
    moves that gain the most towards the target with probability 0.9, else uniformly), so
    that games end by a player filling the triangle; the others are uniformly random (they
    reach the move limit). Raises ``AssertionError`` naming the game and turn at the first
    difference; returns counts: games, turns, whole moves, chain moves (more than one
    OpenSpiel action), the longest action sequence, wins, move-limit ends."""
    import random

    from gamesearch.games.chinese_checkers.rules import ChineseCheckers

    game = ChineseCheckers(players, max_moves)
    os_game = load(players, max_moves)
    rng = random.Random(seed)
    stats = {"players": players, "games": 0, "turns": 0, "moves": 0, "chains": 0,
             "longest": 0, "wins": 0, "limit": 0, "passes": 0}
    for g in range(games):
        forward = rng.random() < forward_share
        state = game.initial_state()
        os_state = os_game.new_initial_state()
        where = f"{players} players, game {g} (seed {seed})"
        while True:
            ended, os_ended = game.is_terminal(state), os_state.is_terminal()
            assert ended == os_ended, f"{where}, turn {state.moves}: terminal {ended} vs " \
                f"OpenSpiel {os_ended}"
            if ended:
                break
            ours = game.actions(state)
            theirs = whole_moves(os_state)
            assert sorted(ours) == sorted(theirs), f"{where}, turn {state.moves}: moves " \
                f"differ: ours only {sorted(set(ours) - set(theirs))}, OpenSpiel's only " \
                f"{sorted(set(theirs) - set(ours))}"
            seen = read_board(os_state, players)
            assert seen.pieces == state.pieces and seen.player == state.player, \
                f"{where}, turn {state.moves}: boards differ"
            stats["turns"] += 1
            stats["moves"] += len(ours)
            for seq in theirs.values():
                stats["longest"] = max(stats["longest"], len(seq))
                stats["chains"] += len([a for a in seq if a != OS_PASS]) > 1
            if forward and rng.random() < 0.9:
                ordered = game.order_actions(state, ours)
                dist = game.goal_distance[state.player]

                def gain(a: int, dist: tuple[int, ...] = dist) -> int:
                    return 0 if a == PASS else dist[a % HOLES] - dist[a // HOLES]

                best = gain(ordered[0])
                pool = [a for a in ordered if gain(a) == best]
                move = pool[int(rng.random() * len(pool))]
            else:
                move = ours[int(rng.random() * len(ours))]
            stats["passes"] += move == PASS
            for a in to_actions(state, move):
                assert os_state.current_player() == state.player, \
                    f"{where}, turn {state.moves}: OpenSpiel's turn ended inside the chain"
                os_state.apply_action(a)
            state = game.result(state, move)
        os_returns = list(os_state.returns())
        winner = game.winner(state)
        if winner is None:
            assert state.moves >= max_moves and os_returns == [0.0] * players, \
                f"{where}: no winner, OpenSpiel's returns {os_returns}"
            stats["limit"] += 1
        else:
            expected = [players - 1.0 if p == winner else -1.0 for p in range(players)]
            assert os_returns == expected, f"{where}: our winner {winner + 1}, " \
                f"OpenSpiel's returns {os_returns}"
            assert game.returns(state)[winner] == 1.0
            stats["wins"] += 1
        stats["games"] += 1
    return stats


def perft_whole_moves(os_state: Any, depth: int) -> int:
    """OpenSpiel's whole-move perft: the positions ``depth`` turns deep, a turn being one
    whole move (:func:`whole_moves`), a game over earlier counting 0."""
    if depth == 0:
        return 1
    if os_state.is_terminal():
        return 0
    total = 0
    for seq in whole_moves(os_state).values():
        child = os_state.clone()
        for a in seq:
            child.apply_action(a)
        total += perft_whole_moves(child, depth - 1)
    return total
