"""The compiled (numba) kernels of backgammon: move generation, results, pubeval, the TD net.

Board convention (the interchange form shared with the plain rules): gnubg's *TanBoard*, an
``int8`` array of shape ``(2, 25)``: row 0 is the side **not** on roll, row 1 the side on
roll, each from its owner's point of view (index 0 = its 1-point ... 23 = its 24-point,
24 = its bar); checkers borne off are ``15 - row.sum()``. A checker of the side on roll on
its index ``j`` faces the opponent's index ``23 - j``.

* :func:`legal_positions` -- every distinct position the side on roll can reach with the roll
  ``(d1, d2)``, each once, still from the mover's point of view (rows not swapped), as gnubg's
  ``GenerateMoves``: checkers on the bar enter first; a checker bears off with the exact die,
  or with a higher one from the highest occupied point; both dice must be used when
  possible, else the larger one when possible; doubles are played four times. The dice are
  applied one after the other breadth-first (each level's positions made distinct by a
  hash-sorted pass), in both orders for a non-double. With no legal move the result is the
  board itself, once.
* :func:`game_points` -- 0 while the game runs, else the points (1, 2 gammon, 3 backgammon)
  won by the side whose row has no checker left.
* :func:`pubeval_score` -- Tesauro's linear evaluation (see :mod:`.pubeval`, the plain
  reference), and :func:`net_forward` -- the TD net's forward pass (see :mod:`.td`).
* :func:`train_games` / :func:`play_vs_pubeval` -- the whole TD(lambda) self-play loop and the
  evaluation match, compiled so that training fits a small machine (see :mod:`.td`).

Dice come from a xorshift64* generator held in a one-element ``uint64`` array, so runs are
reproducible from a seed and independent of numpy's global state.
"""

from __future__ import annotations

import numpy as np

from gamesearch.games.numba_support import jit

NUM_OUTPUTS = 5  # P(win), P(win gammon), P(win backgammon), P(lose gammon), P(lose bg)
NUM_INPUTS = 196  # Tesauro's encoding, two sides x (24 points x 4 + bar + off), no turn units
#: the expert features a net may take beside the raw encoding (:func:`expert_features`)
NUM_FEATURES = 9
NUM_EXPERT_INPUTS = NUM_INPUTS + NUM_FEATURES
#: which output of the side on roll gives each output seen from the other side
FLIP_SOURCE = np.array([0, 3, 4, 1, 2])


# ---------------------------------------------------------------------------- dice


@jit
def rng_next(state: np.ndarray) -> np.uint64:
    """The next 64-bit number of a xorshift64* generator (``state``: one ``uint64``)."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return np.uint64(x * np.uint64(2685821657736338717))


@jit
def roll_die(state: np.ndarray) -> int:
    """A die from 1 to 6, uniform (the top bits of the generator)."""
    return int((rng_next(state) >> np.uint64(33)) % np.uint64(6)) + 1


# ---------------------------------------------------------------------------- moves


@jit
def _single_steps(board: np.ndarray, die: int, out: np.ndarray, count: int) -> int:
    """Append to ``out`` (from ``count``) every board after one checker of the side on roll
    moves ``die`` pips; return the new count."""
    mover = board[1]
    opp = board[0]
    if mover[24] > 0:
        dest = 24 - die
        if opp[23 - dest] >= 2:
            return count
        nb = out[count]
        nb[:, :] = board
        nb[1, 24] -= 1
        nb[1, dest] += 1
        if nb[0, 23 - dest] == 1:
            nb[0, 23 - dest] = 0
            nb[0, 24] += 1
        return count + 1
    outside = 0
    for i in range(6, 24):
        outside += mover[i]
    for i in range(24):
        if mover[i] == 0:
            continue
        dest = i - die
        if dest >= 0:
            if opp[23 - dest] >= 2:
                continue
            nb = out[count]
            nb[:, :] = board
            nb[1, i] -= 1
            nb[1, dest] += 1
            if nb[0, 23 - dest] == 1:
                nb[0, 23 - dest] = 0
                nb[0, 24] += 1
            count += 1
        else:
            if outside > 0:
                continue
            if dest < -1:
                higher = 0
                for k in range(i + 1, 6):
                    higher += mover[k]
                if higher > 0:
                    continue
            nb = out[count]
            nb[:, :] = board
            nb[1, i] -= 1
            count += 1
    return count


@jit
def _board_hash(b: np.ndarray) -> np.int64:
    h = np.int64(1469598103934665603)
    for s in range(2):
        for i in range(25):
            h = (h ^ np.int64(b[s, i])) * np.int64(1099511628211)
    return h


@jit
def _distinct(boards: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` boards, each once, in the order first seen."""
    if count <= 1:
        return boards[:count].copy()
    hashes = np.empty(count, dtype=np.int64)
    for n in range(count):
        hashes[n] = _board_hash(boards[n])
    order = np.argsort(hashes, kind="mergesort")
    keep = np.ones(count, dtype=np.bool_)
    start = 0
    while start < count:
        end = start + 1
        while end < count and hashes[order[end]] == hashes[order[start]]:
            end += 1
        for a in range(start, end):
            ia = order[a]
            if not keep[ia]:
                continue
            for b in range(a + 1, end):
                ib = order[b]
                if keep[ib] and np.array_equal(boards[ia], boards[ib]):
                    keep[ib] = False
        start = end
    total = 0
    for n in range(count):
        if keep[n]:
            total += 1
    result = np.empty((total, 2, 25), dtype=np.int8)
    k = 0
    for n in range(count):
        if keep[n]:
            result[k] = boards[n]
            k += 1
    return result


@jit
def _step_all(boards: np.ndarray, die: int) -> np.ndarray:
    """Every distinct board one ``die`` step away from any of ``boards``."""
    out = np.empty((boards.shape[0] * 16, 2, 25), dtype=np.int8)
    count = 0
    for n in range(boards.shape[0]):
        count = _single_steps(boards[n], die, out, count)
    return _distinct(out, count)


@jit
def legal_positions(board: np.ndarray, d1: int, d2: int) -> np.ndarray:
    """The distinct positions (``(n, 2, 25)`` int8, mover's rows not swapped) that the side
    on roll of ``board`` can reach with the roll ``d1``-``d2``; the board itself when no
    checker can move."""
    start = np.empty((1, 2, 25), dtype=np.int8)
    start[0] = board
    if d1 == d2:
        best = start
        level = start
        for _ in range(4):
            level = _step_all(level, d1)
            if level.shape[0] == 0:
                break
            best = level
        return best
    high = max(d1, d2)
    low = min(d1, d2)
    high_first = _step_all(start, high)
    low_first = _step_all(start, low)
    both_a = _step_all(high_first, low)
    both_b = _step_all(low_first, high)
    if both_a.shape[0] + both_b.shape[0] > 0:
        joined = np.empty((both_a.shape[0] + both_b.shape[0], 2, 25), dtype=np.int8)
        joined[: both_a.shape[0]] = both_a
        joined[both_a.shape[0] :] = both_b
        return _distinct(joined, joined.shape[0])
    if high_first.shape[0] > 0:
        return high_first
    if low_first.shape[0] > 0:
        return low_first
    return start


@jit
def game_points(board: np.ndarray) -> int:
    """0 while both sides have checkers; else the points won by the side with none left:
    1, 2 (gammon: the loser bore none off) or 3 (backgammon: a gammon with a loser's checker
    on the bar or in the winner's home board)."""
    for winner in range(2):
        left = 0
        for i in range(25):
            left += board[winner, i]
        if left == 0:
            loser = 1 - winner
            total = 0
            for i in range(25):
                total += board[loser, i]
            if total < 15:
                return 1
            far = 0
            for i in range(18, 25):
                far += board[loser, i]
            return 3 if far > 0 else 2
    return 0


@jit
def swap_sides(board: np.ndarray) -> np.ndarray:
    """The same position with the other side on roll (the rows exchanged)."""
    out = np.empty((2, 25), dtype=np.int8)
    out[0] = board[1]
    out[1] = board[0]
    return out


@jit
def is_race(board: np.ndarray) -> bool:
    """True when no contact is left: every checker of the side on roll is past every
    checker of the other side (bars empty)."""
    if board[0, 24] > 0 or board[1, 24] > 0:
        return False
    mover_back = -1
    for i in range(23, -1, -1):
        if board[1, i] > 0:
            mover_back = i
            break
    opp_back = -1
    for i in range(23, -1, -1):
        if board[0, i] > 0:
            opp_back = i
            break
    if mover_back < 0 or opp_back < 0:
        return True
    # the opponent's index k is the mover's index 23 - k
    return mover_back < 23 - opp_back


# ---------------------------------------------------------------------------- pubeval


@jit
def pubeval_score(race: bool, board: np.ndarray, weights_race: np.ndarray,
                  weights_contact: np.ndarray) -> float:
    """Tesauro's pubeval of ``board`` for the side in row 1, which has just moved (row 0
    is its opponent): the same sum as :func:`.pubeval.pubeval_score`."""
    own = board[1]
    opp = board[0]
    own_off = 15
    for i in range(25):
        own_off -= own[i]
    if own_off == 15:
        return 99999999.0
    w = weights_race if race else weights_contact
    score = 0.0
    for j in range(24):  # input block j holds point 24 - j
        point = 23 - j
        n = int(own[point])
        if n == 0 and opp[23 - point] == 1:
            score += w[5 * j]
        elif n == 1:
            score += w[5 * j + 1]
        elif n >= 2:
            score += w[5 * j + 2]
            if n == 3:
                score += w[5 * j + 3]
            elif n >= 4:
                score += w[5 * j + 4] * (n - 3) / 2.0
    score += w[120] * opp[24] / 2.0
    score += w[121] * own_off / 15.0
    return float(score)


@jit
def pubeval_choose(board: np.ndarray, d1: int, d2: int, weights_race: np.ndarray,
                   weights_contact: np.ndarray) -> np.ndarray:
    """The position pubeval picks for the side on roll of ``board`` (first best on ties)."""
    candidates = legal_positions(board, d1, d2)
    race = is_race(board)
    best = 0
    best_score = -1e300
    for n in range(candidates.shape[0]):
        s = pubeval_score(race, candidates[n], weights_race, weights_contact)
        if s > best_score:
            best_score = s
            best = n
    chosen: np.ndarray = candidates[best].copy()
    return chosen


# ---------------------------------------------------------------------------- the TD net


@jit
def encode(board: np.ndarray, x: np.ndarray) -> None:
    """Tesauro's inputs for the side on roll (row 1) then its opponent (row 0): per point
    n>=1, n>=2, n>=3, (n-3)/2 for n>3; then bar/2 and off/15; 196 in all."""
    base = 0
    for side in (1, 0):
        row = board[side]
        total = 0
        for i in range(24):
            n = row[i]
            total += n
            k = base + 4 * i
            x[k] = 1.0 if n >= 1 else 0.0
            x[k + 1] = 1.0 if n >= 2 else 0.0
            x[k + 2] = 1.0 if n >= 3 else 0.0
            x[k + 3] = (n - 3) / 2.0 if n > 3 else 0.0
        total += row[24]
        x[base + 96] = row[24] / 2.0
        x[base + 97] = (15 - total) / 15.0
        base += 98
    if x.shape[0] > NUM_INPUTS:
        expert_features(board, x[NUM_INPUTS:])


def _hit_table() -> np.ndarray:
    """``table[d, r]``: the ordered roll ``r`` (``6 * (d1 - 1) + d2 - 1``) can move one
    checker exactly ``d`` pips (one die, both, or 3-4 steps of a double), blocks ignored."""
    table = np.zeros((25, 36), dtype=np.bool_)
    for a in range(1, 7):
        for b in range(1, 7):
            r = 6 * (a - 1) + b - 1
            if a == b:
                for k in range(1, 5):
                    table[a * k, r] = True
            else:
                table[a, r] = True
                table[b, r] = True
                table[a + b, r] = True
    return table


HIT_TABLE = _hit_table()


@jit
def shot_rolls(board: np.ndarray, hitter: int) -> int:
    """How many of the 36 rolls let side ``hitter`` (a row) hit a blot of the other side
    with one checker moving straight (direct and combination shots, blocks ignored; a
    checker on the bar counts from index 24)."""
    own = board[hitter]
    other = board[1 - hitter]
    distance = np.zeros(25, dtype=np.bool_)
    for k in range(24):
        if other[k] != 1:
            continue
        target = 23 - k  # the blot's point in the hitter's frame
        for i in range(target + 1, 25):
            if own[i] > 0:
                distance[i - target] = True
    count = 0
    for r in range(36):
        for d in range(1, 25):
            if distance[d] and HIT_TABLE[d, r]:
                count += 1
                break
    return count


@jit
def longest_prime(row: np.ndarray) -> int:
    """The longest run of consecutive points holding two or more checkers of ``row``."""
    best = 0
    run = 0
    for i in range(24):
        if row[i] >= 2:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


@jit
def expert_features(board: np.ndarray, f: np.ndarray) -> None:
    """TD-Gammon 2-style hand-made inputs (Tesauro 1995 names pip counts, hitting chances
    and primes) for the side on roll (row 1) then the other (row 0): pip counts / 167,
    whether it is a race, the share of the 36 rolls that hit a blot (the side on roll's
    shots now; the other side's shots as if it were on roll), the longest prime / 6 and the
    home-board points made / 6."""
    for n, side in enumerate((1, 0)):
        row = board[side]
        pips = 25 * int(row[24])
        home = 0
        for i in range(24):
            pips += (i + 1) * int(row[i])
            if i < 6 and row[i] >= 2:
                home += 1
        f[n] = pips / 167.0
        f[3 + n] = shot_rolls(board, side) / 36.0
        f[5 + n] = longest_prime(row) / 6.0
        f[7 + n] = home / 6.0
    f[2] = 1.0 if is_race(board) else 0.0


@jit
def net_forward(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
                b2: np.ndarray, hidden: np.ndarray, out: np.ndarray) -> None:
    """Hidden and output activations (sigmoids) of the net for inputs ``x``."""
    nh = w1.shape[0]
    for h in range(nh):
        s = b1[h]
        for i in range(x.shape[0]):
            xi = x[i]
            if xi != 0.0:
                s += w1[h, i] * xi
        hidden[h] = 1.0 / (1.0 + np.exp(-s))
    for k in range(w2.shape[0]):
        s = b2[k]
        for h in range(nh):
            s += w2[k, h] * hidden[h]
        out[k] = 1.0 / (1.0 + np.exp(-s))


@jit
def equity_of(out: np.ndarray) -> float:
    """Money equity of the five outputs (for the side they belong to)."""
    return float(2.0 * out[0] - 1.0 + out[1] - out[3] + out[2] - out[4])


@jit
def flip_outputs(out: np.ndarray, flipped: np.ndarray) -> None:
    """The outputs seen from the other side: 1 - win, and the gammons exchanged."""
    flipped[0] = 1.0 - out[0]
    flipped[1] = out[3]
    flipped[2] = out[4]
    flipped[3] = out[1]
    flipped[4] = out[2]


@jit
def evaluate_board(board: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
                   b2: np.ndarray) -> np.ndarray:
    """The net's five outputs for the side on roll of ``board``."""
    x = np.zeros(w1.shape[1])
    hidden = np.empty(w1.shape[0])
    out = np.empty(NUM_OUTPUTS)
    encode(board, x)
    net_forward(x, w1, b1, w2, b2, hidden, out)
    return out


@jit
def _final_outcome(board: np.ndarray) -> np.ndarray:
    """The five outputs' true values after a move ended the game, for the side in row 1
    (the one that just moved and won)."""
    result = np.zeros(NUM_OUTPUTS)
    points = game_points(board)
    result[0] = 1.0
    if points >= 2:
        result[1] = 1.0
    if points == 3:
        result[2] = 1.0
    return result


@jit
def net_choose(board: np.ndarray, d1: int, d2: int, w1: np.ndarray, b1: np.ndarray,
               w2: np.ndarray, b2: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The position the net picks at 0 ply for the side on roll of ``board`` (the highest
    equity for the mover, first on ties); ``values`` receives that position's five outputs
    from the mover's point of view (the true outcome when the move ends the game)."""
    candidates = legal_positions(board, d1, d2)
    x = np.zeros(w1.shape[1])
    hidden = np.empty(w1.shape[0])
    out = np.empty(NUM_OUTPUTS)
    mine = np.empty(NUM_OUTPUTS)
    best = 0
    best_equity = -1e300
    for n in range(candidates.shape[0]):
        cand = candidates[n]
        if game_points(cand) > 0:
            mine[:] = _final_outcome(cand)
        else:
            encode(swap_sides(cand), x)
            net_forward(x, w1, b1, w2, b2, hidden, out)
            flip_outputs(out, mine)
        e = equity_of(mine)
        if e > best_equity:
            best_equity = e
            best = n
            values[:] = mine
    chosen: np.ndarray = candidates[best].copy()
    return chosen


@jit
def opening_board() -> np.ndarray:
    """The starting position (both rows alike)."""
    b = np.zeros((2, 25), dtype=np.int8)
    for s in range(2):
        b[s, 5] = 5
        b[s, 7] = 3
        b[s, 12] = 5
        b[s, 23] = 2
    return b


@jit
def opening_roll(rng: np.ndarray) -> tuple[int, int]:
    """The opening roll: each side throws one die until they differ."""
    while True:
        a = roll_die(rng)
        b = roll_die(rng)
        if a != b:
            return a, b


@jit
def add_gradients(x: np.ndarray, hidden: np.ndarray, out: np.ndarray, w2: np.ndarray,
                  side_a: bool, e_w1: np.ndarray, e_b1: np.ndarray, e_w2: np.ndarray,
                  e_b2: np.ndarray) -> None:
    """Add to the traces the gradient of each output seen from side A (``e_w1[k]`` is the
    gradient of output ``k`` with respect to ``w1``, and so on): the net's own outputs when
    side A is on roll, else the flipped ones (:func:`flip_outputs`)."""
    nh = hidden.shape[0]
    ni = x.shape[0]
    for k in range(NUM_OUTPUTS):
        src = k if side_a else FLIP_SOURCE[k]
        sign = 1.0 if (side_a or k != 0) else -1.0
        g_out = sign * out[src] * (1.0 - out[src])
        e_b2[k, src] += g_out
        for h in range(nh):
            e_w2[k, src, h] += g_out * hidden[h]
            g_h = g_out * w2[src, h] * hidden[h] * (1.0 - hidden[h])
            e_b1[k, h] += g_h
            if g_h != 0.0:
                for i in range(ni):
                    if x[i] != 0.0:
                        e_w1[k, h, i] += g_h * x[i]


@jit
def train_games(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                games: int, alpha: float, lam: float, rng: np.ndarray) -> float:
    """Play ``games`` self-play games with the net at 0 ply and update it by TD(lambda)
    (Sutton 1988; Tesauro 1992/1995), in place; return the mean squared TD error.

    The values are kept from one fixed side's point of view (side A: the one on roll first
    in each game), so that one eligibility trace per output serves both sides: when side B
    is on roll the net's outputs are flipped (:func:`flip_outputs`) and so are their
    gradients. The state before each move is compared with the state after it (its value
    from the net, or the game's true outcome at the end)."""
    nh = w1.shape[0]
    ni = w1.shape[1]
    e_w1 = np.zeros((NUM_OUTPUTS, nh, ni))
    e_b1 = np.zeros((NUM_OUTPUTS, nh))
    e_w2 = np.zeros((NUM_OUTPUTS, NUM_OUTPUTS, nh))
    e_b2 = np.zeros((NUM_OUTPUTS, NUM_OUTPUTS))
    x = np.zeros(ni)
    hidden = np.empty(nh)
    out = np.empty(NUM_OUTPUTS)
    values = np.empty(NUM_OUTPUTS)
    current = np.empty(NUM_OUTPUTS)
    target = np.empty(NUM_OUTPUTS)
    delta = np.empty(NUM_OUTPUTS)
    step = np.empty(NUM_OUTPUTS)
    squared = 0.0
    steps = 0
    for _ in range(games):
        e_w1[:] = 0.0
        e_b1[:] = 0.0
        e_w2[:] = 0.0
        e_b2[:] = 0.0
        board = opening_board()
        d1, d2 = opening_roll(rng)
        side_a = True
        while True:
            # value of the position before the move, for the side on roll, and its gradient
            encode(board, x)
            net_forward(x, w1, b1, w2, b2, hidden, out)
            # the traces were decayed by lambda after the last update; add the gradient of
            # each global output
            add_gradients(x, hidden, out, w2, side_a, e_w1, e_b1, e_w2, e_b2)
            if side_a:
                current[:] = out
            else:
                flip_outputs(out, current)
            after = net_choose(board, d1, d2, w1, b1, w2, b2, values)
            # values: after the move, for the mover; to side A's view
            if side_a:
                target[:] = values
            else:
                flip_outputs(values, target)
            for k in range(NUM_OUTPUTS):
                delta[k] = target[k] - current[k]
                squared += delta[k] * delta[k]
            steps += 1
            # w += alpha * sum_k delta_k e_k, then e *= lambda for the next step, in one pass
            for k in range(NUM_OUTPUTS):
                step[k] = alpha * delta[k]
            for h in range(nh):
                for i in range(ni):
                    w = w1[h, i]
                    for k in range(NUM_OUTPUTS):
                        w += step[k] * e_w1[k, h, i]
                        e_w1[k, h, i] *= lam
                    w1[h, i] = w
            for k in range(NUM_OUTPUTS):
                b1 += step[k] * e_b1[k]
                w2 += step[k] * e_w2[k]
                b2 += step[k] * e_b2[k]
            e_b1 *= lam
            e_w2 *= lam
            e_b2 *= lam
            if game_points(after) > 0:
                break
            board = swap_sides(after)
            side_a = not side_a
            d1 = roll_die(rng)
            d2 = roll_die(rng)
    return squared / max(steps, 1) / NUM_OUTPUTS


@jit
def net_value_1ply(after: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
                   b2: np.ndarray) -> float:
    """Expectiminimax at one chance ply of the position ``after`` the mover's move (rows not
    swapped): the mover's equity averaged over the opponent's 21 rolls (1/36 a double,
    2/36 the others), the opponent playing each roll to its best 0-ply position; a
    finished game is worth its true points."""
    points = game_points(after)
    if points > 0:
        return float(points)
    theirs = swap_sides(after)
    x = np.zeros(w1.shape[1])
    hidden = np.empty(w1.shape[0])
    out = np.empty(NUM_OUTPUTS)
    total = 0.0
    for r1 in range(1, 7):
        for r2 in range(r1, 7):
            weight = 1.0 if r1 == r2 else 2.0
            replies = legal_positions(theirs, r1, r2)
            worst = 1e300  # the mover's equity after the opponent's best reply
            for n in range(replies.shape[0]):
                reply = replies[n]
                won = game_points(reply)
                if won > 0:
                    mine = -float(won)
                else:
                    encode(swap_sides(reply), x)
                    net_forward(x, w1, b1, w2, b2, hidden, out)
                    mine = equity_of(out)
                if mine < worst:
                    worst = mine
            total += weight * worst
    return total / 36.0


@jit
def net_choose_1ply(board: np.ndarray, d1: int, d2: int, w1: np.ndarray, b1: np.ndarray,
                    w2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """The position the net picks at 1 ply (:func:`net_value_1ply`, first best on ties)."""
    candidates = legal_positions(board, d1, d2)
    best = 0
    best_value = -1e300
    for n in range(candidates.shape[0]):
        v = net_value_1ply(candidates[n], w1, b1, w2, b2)
        if v > best_value:
            best_value = v
            best = n
    chosen: np.ndarray = candidates[best].copy()
    return chosen


@jit
def play_vs_pubeval(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                    weights_race: np.ndarray, weights_contact: np.ndarray, games: int,
                    rng: np.ndarray, plies: int = 0) -> np.ndarray:
    """``games`` games of the net (at 0 or 1 ply) against pubeval, the net on roll first in
    even games; the points the net won in each game (negative when it lost)."""
    points = np.zeros(games, dtype=np.int64)
    values = np.empty(NUM_OUTPUTS)
    for g in range(games):
        board = opening_board()
        d1, d2 = opening_roll(rng)
        net_to_move = g % 2 == 0
        while True:
            if net_to_move:
                if plies == 0:
                    after = net_choose(board, d1, d2, w1, b1, w2, b2, values)
                else:
                    after = net_choose_1ply(board, d1, d2, w1, b1, w2, b2)
            else:
                after = pubeval_choose(board, d1, d2, weights_race, weights_contact)
            won = game_points(after)
            if won > 0:
                points[g] = won if net_to_move else -won
                break
            board = swap_sides(after)
            net_to_move = not net_to_move
            d1 = roll_die(rng)
            d2 = roll_die(rng)
    return points


@jit
def random_positions(count: int, rng: np.ndarray) -> np.ndarray:
    """``count`` positions reached by random play from the start (a random legal move each
    turn, every position kept, a new game when one ends), side on roll
    in row 1: the sample the correctness tests and benchmarks use."""
    result = np.empty((count, 2, 25), dtype=np.int8)
    board = opening_board()
    n = 0
    while n < count:
        d1 = roll_die(rng)
        d2 = roll_die(rng)
        cands = legal_positions(board, d1, d2)
        pick = int(rng_next(rng) >> np.uint64(33)) % cands.shape[0]
        after = cands[pick]
        if game_points(after) > 0:
            board = opening_board()
            continue
        board = swap_sides(after)
        result[n] = board
        n += 1
    return result
